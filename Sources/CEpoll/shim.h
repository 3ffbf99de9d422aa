// Linux's epoll and eventfd, which the Glibc module does not export; nothing on other platforms.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/tcp.h>
#endif
