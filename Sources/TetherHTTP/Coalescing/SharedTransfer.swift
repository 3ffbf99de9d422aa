import Synchronization

/// One coalesced transfer: the task it runs in (the coalescer's), what it has done so far, and how it is stopped.
///
/// With ``URLSessionTransport`` and no progress, each attempt runs inline in the transfer's own task, and the
/// transport's `data(for:)` runs there too (``attempt(limit:_:)``): no task per attempt and none in the transport, so
/// a request is handed between threads as few times as the coalescing allows. That task must not be cancelled while
/// it waits inside `data(for:)` (see ``TransferGate``), so the attempt's deadline and ``abandon()`` stop the
/// attempt's gate, which cancels the data task there and the task elsewhere. A deadline never cancels the task: the
/// retries after a timed-out attempt run in it as before.
///
/// Other routes run each attempt in a task of its own (``withDeadline(_:operation:)``) and never call `data(for:)`
/// in the transfer's task, so ``abandon()`` simply cancels that task.
///
/// Thread safety: every member may be used from any thread.
final class SharedTransfer: Sendable {
    private struct State {
        /// The task the transfer runs in, once the coalescer has it.
        var task: Task<Void, Never>?
        /// The gate of the inline attempt in progress, if one is.
        var gate: TransferGate?
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

    /// Hands over the task the transfer runs in (it may already be inside its first attempt); cancels it at once,
    /// or through the attempt's gate, if the transfer was abandoned before.
    func attach(_ task: Task<Void, Never>) {
        let (gate, abandoned) = state.withLock { state in
            state.task = task
            return (state.gate, state.abandoned)
        }
        if let gate {
            gate.attach { task.cancel() }
        } else if abandoned {
            task.cancel()
        }
    }

    /// Cancels the transfer: through the inline attempt's gate when one is in progress, otherwise by cancelling its
    /// task. Idempotent.
    func abandon() {
        let (task, gate) = state.withLock { state in
            state.abandoned = true
            return (state.task, state.gate)
        }
        if let gate {
            gate.stop(.cancelled, cancellingTask: true)
        } else {
            task?.cancel()
        }
    }

    /// Runs one attempt inline in the transfer's task, throwing ``DeadlineExceeded`` if it has not finished within
    /// `limit`. `operation` must pass the gate it gets to the transport (``URLSessionTransport/sendBuffered(_:gate:)``),
    /// which is the only place the attempt waits.
    ///
    /// - Throws: `CancellationError` when the transfer is abandoned before the attempt starts; otherwise what
    ///   `operation` throws, ``DeadlineExceeded`` when the deadline stopped it.
    func attempt<T: Sendable>(
        limit: Duration, _ operation: @escaping @Sendable (TransferGate) async throws -> T
    ) async throws -> T {
        let gate = TransferGate()
        let (task, abandoned) = state.withLock { state in
            if !state.abandoned { state.gate = gate }
            return (state.task, state.abandoned)
        }
        if abandoned { throw CancellationError() }
        if let task { gate.attach { task.cancel() } }
        defer { state.withLock { $0.gate = nil } }
        let expired = Atomic<Bool>(false)
        let token = DeadlineMonitor.shared.schedule(at: ContinuousClock.now + limit) {
            expired.store(true, ordering: .sequentiallyConsistent)
            gate.stop(.expired, cancellingTask: false)
        }
        defer { DeadlineMonitor.shared.cancel(token) }
        do {
            return try await operation(gate)
        } catch {
            if expired.load(ordering: .sequentiallyConsistent) && !isAbandoned { throw DeadlineExceeded() }
            throw error
        }
    }
}
