#if os(Linux)
    import TetherIO

    /// Runs Swift tasks' jobs on an ``EventLoop``: what responders that declare
    /// ``HTTPResponder/runsOnEventLoop`` run on, so that a request is answered on its connection's loop without a
    /// thread switch.
    ///
    /// - Thread safety: `enqueue` may be called from any thread; the jobs run on the loop, one at a time, after the
    ///   loop's callbacks of the turn (see ``EventLoop/execute(_:)``).
    final class LoopTaskExecutor: TaskExecutor, @unchecked Sendable {
        let loop: EventLoop

        init(_ loop: EventLoop) {
            self.loop = loop
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            loop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
#endif
