import Synchronization
import TetherSync

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// One buffered URLSession transfer: its data task, its deadline, and its outcome, which one waiter at a time
/// receives.
///
/// The waiter can leave without stopping the transfer (``detach()``), and another can take its place
/// (``wait(_:)``): that is how a coalesced request goes on for the other callers when the caller that started it is
/// cancelled (``TransferSharing``). The outcome is kept until the transfer is dropped.
///
/// The data task is only ever cancelled from a Dispatch thread or the deadline monitor's, never from a cancellation
/// handler (see ``URLSessionTransport``).
///
/// Thread safety: every member may be used from any thread; the state is one `Locked`, never held while resuming or
/// cancelling.
final class PendingTransfer: Sendable {
    typealias Outcome = Result<(Data, URLResponse), any Error>

    private struct State {
        var task: URLSessionDataTask?
        var waiter: CheckedContinuation<(Data, URLResponse), any Error>?
        var outcome: Outcome?
        var cancelled = false
        var expired = false
        /// ``detach()`` came before the waiter it was meant for.
        var detachPending = false
        var deadlineToken: UInt64?
    }

    private let state = Locked(State())

    /// Registers the waiter for the outcome; resumes it at once when the transfer has already ended, or with
    /// `CancellationError` when ``detach()`` came first.
    func wait(_ waiter: CheckedContinuation<(Data, URLResponse), any Error>) {
        let outcome = state.withLock { state -> Outcome? in
            if state.detachPending {
                state.detachPending = false
                return .failure(CancellationError())
            }
            if state.outcome == nil { state.waiter = waiter }
            return state.outcome
        }
        if let outcome { waiter.resume(with: outcome) }
    }

    /// Keeps `task`, watches `deadline`, and resumes the task (cancelled at once when ``cancel()`` came first).
    func start(_ task: URLSessionDataTask, deadline: ContinuousClock.Instant?) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if let deadline {
            let token = DeadlineMonitor.shared.schedule(at: deadline) { [self] in
                let task = state.withLock { state -> URLSessionDataTask? in
                    guard state.outcome == nil else { return nil }
                    state.expired = true
                    return state.task
                }
                // The monitor runs this on a Dispatch thread, holding no lock.
                task?.cancel()
            }
            let ended = state.withLock { state -> Bool in
                if state.outcome == nil { state.deadlineToken = token }
                return state.outcome != nil
            }
            if ended { DeadlineMonitor.shared.cancel(token) }
        }
        task.resume()
        if cancelled { DispatchQueue.global().async { task.cancel() } }
    }

    /// The data task's completion handler: keeps the outcome (``DeadlineExceeded`` when the deadline cancelled the
    /// task) and hands it to the waiter, if there is one.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        let (waiter, outcome, token) = state.withLock {
            state -> (CheckedContinuation<(Data, URLResponse), any Error>?, Outcome, UInt64?) in
            let outcome: Outcome
            if state.expired {
                outcome = .failure(DeadlineExceeded())
            } else if let error {
                outcome = .failure(error)
            } else if let response {
                outcome = .success((data ?? Data(), response))
            } else {
                outcome = .failure(URLError(.badServerResponse))
            }
            state.outcome = outcome
            defer {
                state.waiter = nil
                state.deadlineToken = nil
            }
            return (state.waiter, outcome, state.deadlineToken)
        }
        if let token { DeadlineMonitor.shared.cancel(token) }
        waiter?.resume(with: outcome)
    }

    /// The waiter leaves (getting `CancellationError`) while the transfer goes on for whoever waits next. Called
    /// before the waiter registers (a cancellation handler runs first when the task is already cancelled), it sends
    /// that waiter away as soon as it comes.
    func detach() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            if state.waiter == nil && state.outcome == nil { state.detachPending = true }
            return state.waiter
        }
        waiter?.resume(throwing: CancellationError())
    }

    /// Cancels the data task (from a Dispatch thread); the waiter gets `URLError(.cancelled)`. Safe to call from a
    /// cancellation handler, and before ``start(_:deadline:)``.
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.cancelled = true
            return state.outcome == nil ? state.task : nil
        }
        if let task { DispatchQueue.global().async { task.cancel() } }
    }
}

/// Lets a coalesced request's transfer outlive the caller that started it: implemented by ``SharedTransfer``.
protocol TransferSharing: Sendable {
    /// Called when the caller waiting for `transfer` (for `request`) is cancelled. Keeps the transfer for whoever
    /// takes over the request and returns true when other callers wait for it; returns false otherwise (then the
    /// transfer is cancelled).
    func park(_ transfer: PendingTransfer, for request: TransportRequest) -> Bool

    /// Takes the transfer parked for `request` (the same method, URL and headers), if there is one; a parked
    /// transfer for another request is cancelled.
    func takeParked(for request: TransportRequest) -> PendingTransfer?
}
