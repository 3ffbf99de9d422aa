import Synchronization
import TetherSync

/// One coalesced transfer: who runs it, what it has done so far, and how it is stopped.
///
/// On ``URLSessionTransport`` without progress the first caller runs the attempts in its own task (see
/// ``RequestCoalescer``). If that caller is cancelled while others wait, its data task is parked here
/// (``park(_:for:)``) rather than cancelled, and a task of the coalescer's runs the request again for the others,
/// taking the parked transfer over (``takeParked(for:)``) instead of sending the request twice. Otherwise the
/// attempts run in a task of the coalescer's from the start.
///
/// Nothing cancels that task but ``abandon()``, when the last caller leaves: a deadline stops only the attempt it
/// belongs to (``URLSessionTransport`` cancels its data task; other transports run each attempt in a task of its own,
/// see ``withDeadline(_:operation:)``), so the retries after a timed-out attempt run in the same task.
///
/// Thread safety: every member may be used from any thread; the state is one `Locked`, never held while cancelling.
final class SharedTransfer: TransferSharing {
    private struct State {
        /// The coalescer's task the transfer runs in, once it has one.
        var task: Task<Void, Never>?
        /// Every caller left.
        var abandoned = false
        /// The transfer a cancelled caller left running, and the request it answers.
        var parked: (key: CoalescingKey, transfer: PendingTransfer)?
    }

    private let state = Locked(State())
    private let started = Atomic<Int>(0)
    /// Whether callers other than the one running the transfer in its own task wait for it (asked of the
    /// coalescer, whose lock is not held when a transfer is parked).
    private let othersWait: @Sendable () -> Bool

    init(othersWait: @escaping @Sendable () -> Bool) {
        self.othersWait = othersWait
    }

    /// The attempts started so far.
    var attempts: Int { started.load(ordering: .relaxed) }

    /// Records that attempt number `attempt` (from 1) has started.
    func attemptStarted(_ attempt: Int) {
        started.store(attempt, ordering: .relaxed)
    }

    /// Whether every caller left: the transfer is cancelled for good.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Hands over the coalescer's task the transfer runs in; cancels it at once if the transfer was abandoned.
    func attach(_ task: Task<Void, Never>) {
        let abandoned = state.withLock { state in
            state.task = task
            return state.abandoned
        }
        if abandoned { task.cancel() }
    }

    /// Cancels the transfer: its task and any parked transfer. Idempotent.
    func abandon() {
        let (task, parked) = state.withLock { state in
            state.abandoned = true
            defer { state.parked = nil }
            return (state.task, state.parked?.transfer)
        }
        task?.cancel()
        parked?.cancel()
    }

    /// Cancels a parked transfer nobody took over (the request ended another way).
    func discardParked() {
        let parked = state.withLock { state in
            defer { state.parked = nil }
            return state.parked?.transfer
        }
        parked?.cancel()
    }

    func park(_ transfer: PendingTransfer, for request: TransportRequest) -> Bool {
        guard othersWait() else { return false }
        let (kept, replaced) = state.withLock { state -> (Bool, PendingTransfer?) in
            guard !state.abandoned else { return (false, nil) }
            let replaced = state.parked?.transfer
            state.parked = (CoalescingKey(request), transfer)
            return (true, replaced)
        }
        replaced?.cancel()
        return kept
    }

    func takeParked(for request: TransportRequest) -> PendingTransfer? {
        let (match, stale) = state.withLock { state -> (PendingTransfer?, PendingTransfer?) in
            guard let parked = state.parked else { return (nil, nil) }
            state.parked = nil
            return parked.key == CoalescingKey(request) ? (parked.transfer, nil) : (nil, parked.transfer)
        }
        stale?.cancel()
        return match
    }
}
