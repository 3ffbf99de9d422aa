import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Whether the calling thread is the process's main thread, answered without system calls.
///
/// Foundation's `Thread.isMainThread` compares `gettid()` with `getpid()` on Linux: two system calls, about a
/// quarter of the Swift time of saving an edit in a profile of `tether-bench store`'s enqueue case. Here each
/// thread asks that once and keeps the answer in a thread-specific slot (threads never change their identity);
/// Apple platforms ask `pthread_main_np()`, which reads the thread's own data.
///
/// - Thread safety: callable from any thread.
enum MainThread {
    static var isCurrent: Bool {
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #else
            let key = slot.key
            if let known = pthread_getspecific(key) { return Int(bitPattern: known) == 2 }
            let answer = Thread.isMainThread
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: answer ? 2 : 1))
            return answer
        #endif
    }

    #if !canImport(Darwin)
        /// The thread-specific slot: empty until the thread first asks, then 1 (not the main thread) or 2 (the main
        /// thread).
        private static let slot = Slot()

        private final class Slot: Sendable {
            let key: pthread_key_t

            init() {
                var key = pthread_key_t()
                precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for MainThread")
                self.key = key
            }
        }
    #endif
}
