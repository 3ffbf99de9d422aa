import CThreadSanitizer
import Synchronization

/// A value behind a lock: `Synchronization.Mutex`, with its critical sections announced to ThreadSanitizer.
///
/// On Linux, `Mutex` is a futex that ThreadSanitizer does not see, so every access inside `withLock` looked like a
/// race in a `-sanitize=thread` build, and a real race could hide among them. `Locked` tells TSan that each
/// critical section acquires and releases the lock (nothing at all outside a TSan build: a null check), so the
/// sanitizer sees the order the lock gives and only real races remain. Use it wherever a module would use `Mutex`.
///
/// - Thread safety: `Sendable`; `withLock` runs its closure with the lock held, one thread at a time.
package struct Locked<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    private let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value, the lock held.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The lock's own address names it to TSan (a `Locked` never moves: it is not copyable and holds a `Mutex`),
        // and the acquire comes before the first access to the value.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tether_tsan_acquire(address)
            defer { tether_tsan_release(address) }
            return try body(&value)
        }
    }
}
