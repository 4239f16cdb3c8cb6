// Baseline for the HTTP benchmark: the least an epoll server can do per request (no parsing beyond finding
// "\r\n\r\n", no limits, a fixed response). Run side by side with http-conformance-target, it tells how far
// our server is from the kernel's floor on the same machine at the same moment.
//   cc -O2 -o /tmp/minimal-epoll-server minimal-epoll-server.c -lpthread && /tmp/minimal-epoll-server 8099 2
#define _GNU_SOURCE
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static int port;
static const char response[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n\r\nOK\n";

static void *loop(void *unused) {
    (void)unused;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(listener, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1024)) { perror("listen"); exit(1); }
    int epoll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener}, events[256];
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
    char buffer[65536];
    for (;;) {
        int count = epoll_wait(epoll, events, 256, -1);
        for (int i = 0; i < count; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event add = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, client, &add);
                }
                continue;
            }
            ssize_t n = read(fd, buffer, sizeof buffer);
            if (n <= 0) { close(fd); continue; }
            // Count requests in what arrived (pipelining-safe enough for wrk) and answer each.
            int requests = 0;
            for (ssize_t j = 3; j < n; j++)
                if (buffer[j] == '\n' && buffer[j - 1] == '\r' && buffer[j - 2] == '\n' && buffer[j - 3] == '\r') requests++;
            for (int r = 0; r < requests; r++) send(fd, response, sizeof response - 1, MSG_NOSIGNAL);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    port = argc > 1 ? atoi(argv[1]) : 8099;
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    pthread_t ids[64];
    for (int i = 0; i < threads && i < 64; i++) pthread_create(&ids[i], NULL, loop, NULL);
    printf("listening on 127.0.0.1:%d\n", port);
    fflush(stdout);
    pthread_join(ids[0], NULL);
    return 0;
}
