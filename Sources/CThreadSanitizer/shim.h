// ThreadSanitizer's annotations of happens-before, for locks it cannot see (Swift's `Synchronization.Mutex` is a
// futex on Linux, which TSan does not intercept, so every access inside its critical sections looked racy).
//
// The runtime's functions are referenced weakly: in a program built with -sanitize=thread they are there and
// called; in any other build the references are null and these functions do nothing (one predictable branch).
#ifndef TETHER_CTHREADSANITIZER_SHIM_H
#define TETHER_CTHREADSANITIZER_SHIM_H

#if defined(__linux__)
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

/// Tells TSan that what was released at `address` happens before what follows (the start of a critical section).
static inline void tether_tsan_acquire(void *address) {
    if (__tsan_acquire) __tsan_acquire(address);
}

/// Tells TSan that what came before is released at `address` (the end of a critical section).
static inline void tether_tsan_release(void *address) {
    if (__tsan_release) __tsan_release(address);
}
#else
static inline void tether_tsan_acquire(void *address) { (void)address; }
static inline void tether_tsan_release(void *address) { (void)address; }
#endif

#endif
