import Synchronization

/// Stops a task that may be waiting inside URLSession's `data(for:)` without cancelling that task while it waits
/// there.
///
/// FoundationNetworking answers a cancelled `data(for:)` by cancelling the data task, which waits for the
/// session's work queue while the Swift task's status lock is held; if the transfer completes on that queue at the
/// same moment, its resumption waits for the same lock, and both wait forever. So whoever would cancel a task that
/// runs a buffered transfer calls ``stop(_:cancellingTask:)`` instead: inside the transfer (between ``enter(cancel:)``
/// and ``leave()``) that cancels the data task, which holds no Swift lock; outside it, it cancels the task (when
/// asked to), which is safe there. A transfer entered after the stop does not start.
///
/// Once stopped, a gate stays stopped.
///
/// Thread safety: every member may be used from any thread; the state is one `Mutex`, never held while cancelling.
final class TransferGate: Sendable {
    /// Why the gate was stopped.
    enum Reason: Sendable {
        case cancelled
        case expired
    }

    private struct State {
        var reason: Reason?
        /// Whether a stop cancels the task outside the transfer (and at ``leave()``).
        var cancelsTask = false
        /// Cancels the transfer in progress, if one is.
        var cancelTransfer: (@Sendable () -> Void)?
        /// Cancels the task that runs the transfers, once attached.
        var cancelTask: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Why the gate was stopped; `nil` while it is open.
    var reason: Reason? { state.withLock { $0.reason } }

    /// Hands over how to cancel the task that runs the transfers; cancels it at once if the gate was stopped (with
    /// `cancellingTask`) and no transfer is in progress.
    func attach(cancelTask: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLock { state -> Bool in
            state.cancelTask = cancelTask
            return state.reason != nil && state.cancelsTask && state.cancelTransfer == nil
        }
        if cancelNow { cancelTask() }
    }

    /// Stops the gate: cancels the transfer in progress, or, when none is and `cancellingTask` is true, the attached
    /// task. A later stop can still ask for the task to be cancelled, and `.cancelled` replaces `.expired`.
    func stop(_ reason: Reason, cancellingTask: Bool) {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            let alreadyCancelsTask = state.cancelsTask
            if state.reason != .cancelled { state.reason = reason }
            state.cancelsTask = alreadyCancelsTask || cancellingTask
            if let cancelTransfer = state.cancelTransfer { return cancelTransfer }
            return cancellingTask && !alreadyCancelsTask ? state.cancelTask : nil
        }
        action?()
    }

    /// Called by the transport before it starts a transfer, with the action that cancels it.
    ///
    /// - Throws: `CancellationError` or ``DeadlineExceeded`` when the gate was stopped: the transfer must not
    ///   start.
    func enter(cancel: @escaping @Sendable () -> Void) throws {
        let reason = state.withLock { state -> Reason? in
            if state.reason == nil { state.cancelTransfer = cancel }
            return state.reason
        }
        switch reason {
        case nil: return
        case .cancelled: throw CancellationError()
        case .expired: throw DeadlineExceeded()
        }
    }

    /// Called by the transport once the transfer has ended. If the gate was stopped during it (with
    /// `cancellingTask`), cancels the task now that it is out of `data(for:)`, so what it awaits next ends too.
    func leave() {
        let cancelTask = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelTransfer = nil
            return state.reason != nil && state.cancelsTask ? state.cancelTask : nil
        }
        cancelTask?()
    }
}
