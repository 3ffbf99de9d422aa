import Dispatch

/// The serial executor of a ``JSONDatabase``: its jobs run on a dispatch queue of their own, never on a
/// connection's thread.
///
/// Without it, the actor's jobs ran on the task executor of whichever connection entered it first (the
/// connection's own thread, see ``ConnectionExecutor``), and that thread went on to run the writes other
/// connections had queued meanwhile, each with its `fsync`, before it could send its own acknowledgement: with 8
/// keep-alive clients writing, one write's answer came seconds after the write was visible to everyone. Here each
/// write's continuation goes back to its own connection as soon as the write is committed.
///
/// - Thread safety: `enqueue` may be called from any thread; the queue runs one job at a time, in order.
final class WriterExecutor: SerialExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "tether.server.database-writes", qos: .userInitiated)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Code on the queue runs isolated to the database (so a block sent with ``async(_:)`` may use
    /// `assumeIsolated`).
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `body` on the queue, after the jobs already there: one hop, where a `Task` that awaits the actor takes
    /// two (the group commit's end of a sync uses it).
    func async(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }
}
