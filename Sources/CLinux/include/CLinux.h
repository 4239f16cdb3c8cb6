#ifndef TRUST_INSIGHTS_CLINUX_H
#define TRUST_INSIGHTS_CLINUX_H
// Linux calls that Glibc's Swift module does not export (see ../shared/TOOLCHAIN.md).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <signal.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

int clinux_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int clinux_epoll_create1(int flags);
int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// Waits for events; copies them out unpacked so Swift never touches the packed epoll_event layout.
int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int maxevents, int timeout);
int clinux_eventfd(unsigned int initval, int flags);
/// Disables Nagle's algorithm; TCP_NODELAY lives in netinet/tcp.h, which Glibc's module does not export.
int clinux_set_tcp_nodelay(int fd);
/// Names the calling thread (at most 15 bytes are kept; longer names fail with ERANGE). pthread_setname_np is a GNU
/// extension that Glibc's module does not export.
int clinux_set_thread_name(const char *name);
/// Opens an unnamed regular file in `folder` for reading and writing (O_TMPFILE, Linux 3.11; not every file system has it:
/// -1 with errno EOPNOTSUPP, EISDIR or EINVAL then). Nothing is left behind if the process dies before it is named.
int clinux_open_unnamed_file(const char *folder, unsigned int mode);
/// Gives the unnamed file open at `fd` the name `path` (which must not exist): through /proc/self/fd, which needs
/// no privilege, else AT_EMPTY_PATH (CAP_DAC_READ_SEARCH).
int clinux_name_unnamed_file(int fd, const char *path);
#endif
