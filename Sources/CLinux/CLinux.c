#define _GNU_SOURCE
#include "CLinux.h"
#include <stdlib.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int clinux_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

int clinux_epoll_create1(int flags) { return epoll_create1(flags); }

int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int maxevents, int timeout) {
    struct epoll_event buffer[256];
    if (maxevents > 256) maxevents = 256;
    int n = epoll_wait(epfd, buffer, maxevents, timeout);
    for (int i = 0; i < n; i++) {
        events[i] = buffer[i].events;
        data[i] = buffer[i].data.u64;
    }
    return n;
}

int clinux_eventfd(unsigned int initval, int flags) { return eventfd(initval, flags); }

int clinux_set_tcp_nodelay(int fd) {
    int one = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int clinux_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int clinux_open_unnamed_file(const char *folder, unsigned int mode) {
    return open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)mode);
}

int clinux_name_unnamed_file(int fd, const char *path) {
    char procPath[64];
    snprintf(procPath, sizeof procPath, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, procPath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno == EEXIST) return -1;
    return linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH);
}
