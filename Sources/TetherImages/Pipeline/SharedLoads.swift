import Synchronization
import TetherSync

/// Loads in flight, one per key, shared by every caller waiting for that key.
///
/// The first caller for a key starts the work in a detached task (never on the caller's actor); later callers for
/// the same key wait for the same result. A caller whose task is cancelled leaves at once with
/// ``ImageError/Kind/cancelled``; when the last caller leaves, the work's task is cancelled and forgotten, so the
/// next caller starts afresh. A finished load is forgotten too: results are kept by the caches, not here.
///
/// Used twice by ``ImagePipeline``: decodes keyed by URL and size, downloads keyed by URL. A decode waits for its
/// download as one caller, so cancelling the last decode of a URL cancels the download.
///
/// - Threading: safe from any thread; the table is behind one `Locked`, and continuations are resumed and tasks
///   cancelled outside it.
final class SharedLoads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Waiter = CheckedContinuation<Result<Value, ImageError>, Never>

    private struct Load {
        var id: UInt64
        var task: Task<Void, Never>?
        var priority: TaskPriority
        var waiters: [UInt64: Waiter]
    }

    private struct State {
        var loads: [Key: Load] = [:]
        var nextID: UInt64 = 0
    }

    /// What `join` does once it has left the lock.
    private enum Next {
        case none, cancelled
        case start(UInt64)
        case escalate(Task<Void, Never>?)
    }

    private let state = Locked(State())

    /// The number of loads in flight (for tests).
    var count: Int { state.withLock { $0.loads.count } }

    /// The number of callers waiting, over all loads in flight (for tests).
    var waiterCount: Int { state.withLock { $0.loads.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Waits for the load of `key`, starting `work` at `priority` unless a load of `key` is in flight.
    ///
    /// - Throws: what `work` throws, or ``ImageError/Kind/cancelled`` when the calling task is cancelled.
    func value(
        for key: Key, priority: TaskPriority, work: @escaping @Sendable () async throws(ImageError) -> Value
    ) async throws(ImageError) -> Value {
        let waiterID = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                join(key, waiterID: waiterID, continuation: continuation, priority: priority, work: work)
            }
        } onCancel: {
            leave(key, waiterID: waiterID)
        }
        return try result.get()
    }

    private func join(
        _ key: Key, waiterID: UInt64, continuation: Waiter, priority: TaskPriority,
        work: @escaping @Sendable () async throws(ImageError) -> Value
    ) {
        let next = state.withLock { state -> Next in
            // Cancellation sets the flag before running handlers: either the handler sees this waiter, or this
            // check sees the flag.
            if Task.isCancelled { return .cancelled }
            if var load = state.loads[key] {
                load.waiters[waiterID] = continuation
                let escalate = priority > load.priority
                if escalate { load.priority = priority }
                state.loads[key] = load
                return escalate ? .escalate(load.task) : .none
            }
            state.nextID += 1
            state.loads[key] = Load(id: state.nextID, task: nil, priority: priority, waiters: [waiterID: continuation])
            return .start(state.nextID)
        }
        switch next {
        case .none:
            break
        case .cancelled:
            continuation.resume(returning: .failure(ImageError(.cancelled)))
        case .escalate(let task):
            if let task { Self.escalate(task, to: priority) }
        case .start(let loadID):
            let task = Task.detached(priority: priority) { [self] in
                let result: Result<Value, ImageError>
                do throws(ImageError) {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                finish(key, loadID: loadID, result: result)
            }
            let abandoned = state.withLock { state in
                guard state.loads[key]?.id == loadID else { return true }
                state.loads[key]?.task = task
                return false
            }
            // Every waiter left before the task was recorded: nobody will cancel it otherwise.
            if abandoned { task.cancel() }
        }
    }

    private func leave(_ key: Key, waiterID: UInt64) {
        let (waiter, task) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            guard var load = state.loads[key], let waiter = load.waiters.removeValue(forKey: waiterID) else {
                return (nil, nil)
            }
            if load.waiters.isEmpty {
                state.loads[key] = nil
                return (waiter, load.task)
            }
            state.loads[key] = load
            return (waiter, nil)
        }
        waiter?.resume(returning: .failure(ImageError(.cancelled)))
        task?.cancel()
    }

    private func finish(_ key: Key, loadID: UInt64, result: Result<Value, ImageError>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let load = state.loads[key], load.id == loadID else { return [] }
            state.loads[key] = nil
            return Array(load.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Raises a running load's priority when a more urgent caller joins it (a visible row joining a prefetch).
    private static func escalate(_ task: Task<Void, Never>, to priority: TaskPriority) {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) { task.escalatePriority(to: priority) }
    }
}
