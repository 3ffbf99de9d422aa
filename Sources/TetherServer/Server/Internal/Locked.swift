#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex: the one lock of the server's internals.
///
/// Written when the package supported macOS 14, where `Synchronization.Mutex` is missing; it could now be replaced
/// by `Mutex` (the floor is macOS 15).
/// Every `@unchecked Sendable` type in the server keeps its mutable state in one of these.
final class Locked<State>: @unchecked Sendable {
    private var state: State
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock; `body` must not block or call back into this lock.
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
