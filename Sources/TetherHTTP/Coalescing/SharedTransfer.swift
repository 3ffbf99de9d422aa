import Synchronization

/// One coalesced transfer: the task it runs in (the coalescer's), what it has done so far, and how it is stopped.
///
/// The attempts run in that task. Nothing cancels it but ``abandon()``, when the last caller leaves: a deadline
/// stops only the attempt it belongs to (``URLSessionTransport`` cancels its data task; other transports run each
/// attempt in a task of its own, see ``withDeadline(_:operation:)``), so the retries after a timed-out attempt run in
/// the same task.
///
/// Thread safety: every member may be used from any thread.
final class SharedTransfer: Sendable {
    private struct State {
        /// The task the transfer runs in, once the coalescer has it.
        var task: Task<Void, Never>?
        /// Every caller left.
        var abandoned = false
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

    /// Hands over the task the transfer runs in; cancels it at once if the transfer was abandoned before.
    func attach(_ task: Task<Void, Never>) {
        let abandoned = state.withLock { state in
            state.task = task
            return state.abandoned
        }
        if abandoned { task.cancel() }
    }

    /// Cancels the transfer's task. Idempotent.
    func abandon() {
        let task = state.withLock { state in
            state.abandoned = true
            return state.task
        }
        task?.cancel()
    }
}
