// glibc's malloc statistics (mallinfo2, malloc_trim), for tether-bench's memory cases. Linux only.
#if defined(__linux__)
#include <malloc.h>
#endif
