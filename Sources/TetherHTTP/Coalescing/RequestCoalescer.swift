import Synchronization
import TetherSync

/// Shares one transfer between concurrent identical requests.
///
/// Later callers with the same key wait for the first one's result. The first caller runs the work one of two ways:
/// - `inline` (``URLSessionTransport`` without progress): in its own task, so the common case of one caller costs no
///   task and no hand-off between threads beyond the transport's own. If it is cancelled while others wait, its
///   transfer is parked in the ``SharedTransfer`` instead of cancelled, it gets ``CoalescedCancellation``, and the
///   work starts again in a task of the coalescer's, which takes the parked transfer over (one request reaches the
///   server). Attempts start again from 1 there.
/// - otherwise in a task of its own, started at once on the caller's thread (`Task.immediate`, so the work runs up
///   to its first suspension without a hop to another thread).
///
/// A waiting caller that is cancelled stops waiting at once (and gets ``CoalescedCancellation``, with the attempts
/// the work had started) without disturbing the others; when the last caller leaves, the work is cancelled too.
///
/// Thread safety: any number of tasks may call ``value(for:inline:work:)`` at once; the state is one `Locked`, never held
/// while the work runs or a waiter is resumed.
final class RequestCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let generation: UInt64
        let transfer: SharedTransfer
        /// The caller running the work in its own task, until it finishes or leaves.
        var runner: UInt64?
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

    private let state = Locked(State())

    /// The number of keys with work in flight (for tests).
    var inFlight: Int { state.withLock { $0.entries.count } }

    /// Returns the result of `work` for `key`, started now or already running for another caller.
    ///
    /// `work` gets the ``SharedTransfer``, to record the attempts it starts and run them. With `inline`, a first
    /// caller runs `work` in its own task (see the type's documentation).
    ///
    /// - Throws: what `work` throws, or ``CoalescedCancellation`` when the calling task is cancelled first.
    func value(
        for key: Key, inline: Bool = false, work: @escaping @Sendable (SharedTransfer) async throws -> Value
    ) async throws -> Value {
        if inline {
            let claim = state.withLock { state -> (UInt64, SharedTransfer)? in
                guard state.entries[key] == nil else { return nil }
                state.nextID += 1
                let transfer = makeTransfer(key, generation: state.nextID)
                state.entries[key] = Entry(generation: state.nextID, transfer: transfer, runner: state.nextID)
                return (state.nextID, transfer)
            }
            if let (generation, transfer) = claim {
                return try await run(key, generation: generation, transfer: transfer, work: work)
            }
        }
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
                    let transfer = makeTransfer(key, generation: id)
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

    /// A transfer for a new entry, which asks this coalescer whether anyone waits for it.
    private func makeTransfer(_ key: Key, generation: UInt64) -> SharedTransfer {
        SharedTransfer { [weak self] in
            self?.state.withLock { state in
                guard let entry = state.entries[key], entry.generation == generation else { return false }
                return !entry.waiters.isEmpty
            } ?? false
        }
    }

    /// Runs the work in the first caller's task. If it fails because that caller was cancelled while others wait,
    /// the work starts again for them in a task of its own (``handOver(_:generation:transfer:work:)``).
    private func run(
        _ key: Key, generation: UInt64, transfer: SharedTransfer,
        work: @escaping @Sendable (SharedTransfer) async throws -> Value
    ) async throws -> Value {
        let result: Result<Value, any Error>
        do { result = .success(try await work(transfer)) } catch { result = .failure(error) }
        if case .failure = result, Task.isCancelled,
            handOver(key, generation: generation, transfer: transfer, work: work)
        {
            throw CoalescedCancellation(attempts: transfer.attempts)
        }
        finish(key, generation: generation, with: result)
        return try result.get()
    }

    /// The first caller leaves: returns false when nobody else waits (its result ends the entry); otherwise starts
    /// the work again in a task of its own for the others and returns true.
    private func handOver(
        _ key: Key, generation: UInt64, transfer: SharedTransfer,
        work: @escaping @Sendable (SharedTransfer) async throws -> Value
    ) -> Bool {
        let othersWait = state.withLock { state -> Bool in
            guard state.entries[key]?.generation == generation else { return false }
            state.entries[key]!.runner = nil
            return !state.entries[key]!.waiters.isEmpty
        }
        if othersWait { start(key, generation: generation, transfer: transfer, work: work) }
        return othersWait
    }

    /// Runs the work for an entry in a task of its own and hands the task to the transfer, which cancels it
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
        let (waiters, transfer) = state.withLock {
            state -> ([CheckedContinuation<Value, any Error>], SharedTransfer?) in
            // All waiters may have been cancelled and a new caller started new work under the same key.
            guard state.entries[key]?.generation == generation, let entry = state.entries.removeValue(forKey: key)
            else { return ([], nil) }
            return (entry.waiters.values.map { $0 }, entry.transfer)
        }
        transfer?.discardParked()
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
            // The last caller left (a first caller still running the work is a caller too).
            if state.entries[key]?.waiters.isEmpty == true && state.entries[key]?.runner == nil {
                return (waiter, state.entries.removeValue(forKey: key)?.transfer, attempts)
            }
            return (waiter, nil, attempts)
        }
        abandoned?.abandon()
        waiter?.resume(throwing: CoalescedCancellation(attempts: attempts))
    }
}

/// Thrown by ``RequestCoalescer/value(for:inline:work:)`` to a caller cancelled before the shared work ended.
struct CoalescedCancellation: Error {
    /// The attempts the shared work had started when the caller stopped waiting.
    let attempts: Int
}
