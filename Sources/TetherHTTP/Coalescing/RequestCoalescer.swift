import Synchronization

/// Shares one transfer between concurrent identical requests.
///
/// The first caller for a key starts the work in a task of its own, started at once on the caller's thread
/// (`Task.immediate`, so the work runs up to its first suspension without a hop to another thread); later callers
/// with the same key wait for the same result. The work gets the ``SharedTransfer``, which runs the attempts in
/// that task and stops it. A caller that is cancelled stops waiting at once (and gets
/// ``CoalescedCancellation``, with the attempts the work had started) without disturbing the others; when the last
/// waiter is cancelled, the work is cancelled too.
///
/// Thread safety: any number of tasks may call ``value(for:work:)`` at once; the state is one `Mutex`, never held
/// while the work runs or a waiter is resumed.
final class RequestCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let generation: UInt64
        let transfer: SharedTransfer
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

    /// What a caller does once registered.
    private enum Registration {
        case cancelled
        case joined
        case start(SharedTransfer)
    }

    private let state = Mutex(State())

    /// The number of keys with work in flight (for tests).
    var inFlight: Int { state.withLock { $0.entries.count } }

    /// Returns the result of `work` for `key`, started now or already running for another caller.
    ///
    /// `work` gets the ``SharedTransfer``, to record the attempts it starts and run them.
    ///
    /// - Throws: what `work` throws, or ``CoalescedCancellation`` when the calling task is cancelled first.
    func value(
        for key: Key, work: @escaping @Sendable (SharedTransfer) async throws -> Value
    ) async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let registration = state.withLock { state -> Registration in
                    state.pending.remove(id)
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if state.entries[key] != nil {
                        state.entries[key]!.waiters[id] = continuation
                        return .joined
                    }
                    let transfer = SharedTransfer()
                    var entry = Entry(generation: id, transfer: transfer)
                    entry.waiters[id] = continuation
                    state.entries[key] = entry
                    return .start(transfer)
                }
                switch registration {
                case .cancelled:
                    continuation.resume(throwing: CoalescedCancellation(attempts: 0))
                case .joined:
                    break
                case .start(let transfer):
                    start(key, generation: id, transfer: transfer, work: work)
                }
            }
        } onCancel: {
            cancel(id, key: key)
        }
    }

    /// Runs the work for a new entry in a task of its own and hands the task to the transfer, which cancels it
    /// when every waiter has left (maybe already) or an attempt's deadline passes.
    private func start(
        _ key: Key, generation: UInt64, transfer: SharedTransfer,
        work: @escaping @Sendable (SharedTransfer) async throws -> Value
    ) {
        let task = Task.immediate { [weak self] in
            let result: Result<Value, any Error>
            do { result = .success(try await work(transfer)) } catch { result = .failure(error) }
            self?.finish(key, generation: generation, with: result)
        }
        transfer.attach(task)
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
        let (waiter, abandoned, attempts) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, SharedTransfer?, Int) in
            guard let waiter = state.entries[key]?.waiters.removeValue(forKey: id) else {
                // Not registered yet: it will see the mark. Otherwise it already has its result.
                if state.pending.remove(id) != nil { state.cancelled.insert(id) }
                return (nil, nil, 0)
            }
            let attempts = state.entries[key]?.transfer.attempts ?? 0
            if state.entries[key]?.waiters.isEmpty == true {
                return (waiter, state.entries.removeValue(forKey: key)?.transfer, attempts)
            }
            return (waiter, nil, attempts)
        }
        abandoned?.abandon()
        waiter?.resume(throwing: CoalescedCancellation(attempts: attempts))
    }
}

/// Thrown by ``RequestCoalescer/value(for:work:)`` to a caller cancelled before the shared work ended.
struct CoalescedCancellation: Error {
    /// The attempts the shared work had started when the caller stopped waiting.
    let attempts: Int
}
