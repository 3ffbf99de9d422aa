import Synchronization

/// Shares one transfer between concurrent identical requests.
///
/// The first caller for a key starts the work in a task of its own; later callers with the same key wait for the
/// same result. A caller that is cancelled stops waiting at once (and gets `CancellationError`) without
/// disturbing the others; when the last waiter is cancelled, the work is cancelled too.
final class RequestCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let generation: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID: UInt64 = 0
        /// Callers between taking an id and registering as a waiter.
        var pending: Set<UInt64> = []
        /// Callers cancelled before they registered.
        var cancelled: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// The number of keys with work in flight (for tests).
    var inFlight: Int { state.withLock { $0.entries.count } }

    /// Returns the result of `work` for `key`, started now or already running for another caller.
    func value(
        for key: Key, work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    state.pending.remove(id)
                    if state.cancelled.remove(id) != nil { return true }
                    if state.entries[key] != nil {
                        state.entries[key]!.waiters[id] = continuation
                        return false
                    }
                    var entry = Entry(generation: id)
                    entry.waiters[id] = continuation
                    entry.task = Task { [weak self] in
                        let result: Result<Value, any Error>
                        do { result = .success(try await work()) } catch { result = .failure(error) }
                        self?.finish(key, generation: id, with: result)
                    }
                    state.entries[key] = entry
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            cancel(id, key: key)
        }
    }

    private func finish(_ key: Key, generation: UInt64, with result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            // All waiters may have been cancelled and a new caller started new work under the same key.
            guard state.entries[key]?.generation == generation else { return [] }
            return state.entries.removeValue(forKey: key)?.waiters.values.map { $0 } ?? []
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func cancel(_ id: UInt64, key: Key) {
        let (waiter, task) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard let waiter = state.entries[key]?.waiters.removeValue(forKey: id) else {
                // Not registered yet: it will see the mark. Otherwise it already has its result.
                if state.pending.remove(id) != nil { state.cancelled.insert(id) }
                return (nil, nil)
            }
            if state.entries[key]?.waiters.isEmpty == true {
                return (waiter, state.entries.removeValue(forKey: key)?.task)
            }
            return (waiter, nil)
        }
        task?.cancel()
        waiter?.resume(throwing: CancellationError())
    }
}
