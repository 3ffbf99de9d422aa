// Linux's epoll and eventfd, which the Glibc module does not export, and accept4 (a GNU extension, declared here
// through the kernel's system call wrapper); nothing on other platforms.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/syscall.h>

/// accept4(2): accepts a connection with `flags` (SOCK_NONBLOCK, SOCK_CLOEXEC) set atomically.
static inline int tether_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return (int)syscall(SYS_accept4, fd, address, length, flags);
}
#endif
