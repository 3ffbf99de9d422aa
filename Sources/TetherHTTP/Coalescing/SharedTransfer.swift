import Synchronization

/// One coalesced transfer: the task it runs in (the coalescer's), what it has done so far, and how it is stopped.
///
/// The attempts run inline in the transfer's own task, and an attempt's deadline cancels that task
/// (``attempt(limit:_:)``): no deadline task per attempt, so a request is handed between threads once fewer. A task's
/// cancellation cannot be undone, so once a deadline has cancelled the transfer's task, the rest of the transfer
/// (backoff, the rate limit, interceptors, further attempts) runs in fresh tasks, one at a time (``run(_:)``). When
/// the last caller leaves, ``abandon()`` cancels the transfer's task and the fresh task running then.
///
/// Thread safety: every member may be used from any thread.
final class SharedTransfer: Sendable {
    private struct State {
        /// The task the transfer runs in, once the coalescer has it.
        var task: Task<Void, Never>?
        /// Cancels the fresh task running part of the transfer, if one is.
        var cancelFreshTask: (@Sendable () -> Void)?
        /// Every caller left.
        var abandoned = false
        /// A deadline cancelled `task` (or will as soon as it is attached).
        var deadlineCancelledTask = false
    }

    private let state = Mutex(State())
    private let started = Atomic<Int>(0)

    /// The attempts started so far.
    var attempts: Int { started.load(ordering: .relaxed) }

    /// Records that attempt number `attempt` (from 1) has started.
    func attemptStarted(_ attempt: Int) {
        started.store(attempt, ordering: .relaxed)
    }

    /// Whether every caller left: the transfer is cancelled for good.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Hands over the task the transfer runs in; cancels it at once if the transfer was abandoned or a deadline
    /// passed before it was attached.
    func attach(_ task: Task<Void, Never>) {
        let cancel = state.withLock { state -> Bool in
            state.task = task
            return state.abandoned || state.deadlineCancelledTask
        }
        if cancel { task.cancel() }
    }

    /// Cancels the transfer: its task and the fresh task running part of it. Idempotent.
    func abandon() {
        let (task, cancelFreshTask) = state.withLock { state in
            state.abandoned = true
            return (state.task, state.cancelFreshTask)
        }
        task?.cancel()
        cancelFreshTask?()
    }

    /// Runs `operation` in the transfer's task, or in a fresh one once a deadline has cancelled that task.
    ///
    /// - Throws: what `operation` throws (`CancellationError` and the like once abandoned).
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard state.withLock({ $0.deadlineCancelledTask }) else { return try await operation() }
        return try await inFreshTask(limit: nil, operation)
    }

    /// Runs one attempt, throwing ``DeadlineExceeded`` if it has not finished within `limit`: inline, with the
    /// deadline cancelling the transfer's task, or in a fresh task (which the deadline cancels) once an earlier
    /// deadline cancelled the transfer's task.
    func attempt<T: Sendable>(limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T
    {
        if state.withLock({ $0.deadlineCancelledTask }) { return try await inFreshTask(limit: limit, operation) }
        let expired = Atomic<Bool>(false)
        let token = DeadlineMonitor.shared.schedule(at: ContinuousClock.now + limit) { [self] in
            expired.store(true, ordering: .sequentiallyConsistent)
            let task = state.withLock { state -> Task<Void, Never>? in
                state.deadlineCancelledTask = true
                return state.task
            }
            task?.cancel()
        }
        defer { DeadlineMonitor.shared.cancel(token) }
        do {
            return try await operation()
        } catch {
            if expired.load(ordering: .sequentiallyConsistent) && !isAbandoned { throw DeadlineExceeded() }
            throw error
        }
    }

    /// Runs `operation` in a task of its own that ``abandon()`` cancels, and `limit` too when given (then throwing
    /// ``DeadlineExceeded``). Awaits it without a cancellation handler: the calling task is the transfer's, which a
    /// deadline has cancelled.
    private func inFreshTask<T: Sendable>(
        limit: Duration?, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await operation() }
        let abandoned = state.withLock { state -> Bool in
            state.cancelFreshTask = { task.cancel() }
            return state.abandoned
        }
        if abandoned { task.cancel() }
        let expired = Atomic<Bool>(false)
        let token = limit.map { limit in
            DeadlineMonitor.shared.schedule(at: ContinuousClock.now + limit) {
                expired.store(true, ordering: .sequentiallyConsistent)
                task.cancel()
            }
        }
        defer {
            if let token { DeadlineMonitor.shared.cancel(token) }
            state.withLock { $0.cancelFreshTask = nil }
        }
        do {
            return try await task.value
        } catch {
            if expired.load(ordering: .sequentiallyConsistent) && !isAbandoned { throw DeadlineExceeded() }
            throw error
        }
    }
}
