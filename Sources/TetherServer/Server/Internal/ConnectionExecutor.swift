import Dispatch
import TetherSync

#if !canImport(Darwin)

    /// Runs a connection's responder tasks on the connection's own thread while that thread waits for their result,
    /// so a request is answered without handing work between threads.
    ///
    /// Jobs enqueued while the thread is not waiting (it is reading, writing, or the connection has ended) are passed
    /// on to Dispatch at once, so a job never sits behind a blocked socket call: an actor shared by many
    /// connections whose job lands here keeps running.
    ///
    /// Not on Apple platforms: this Linux-tested executor is kept out of the Darwin build, which cannot be compiled
    /// or run here, so there responder tasks run on the global pool (see ``Connection/startWork(_:_:)``). Now that
    /// the package requires macOS 15, where task executors exist, it could be enabled there once tested.
    ///
    /// - Thread safety: `enqueue` is called from any thread; `run(until:)` only from the connection's thread.
    final class ConnectionExecutor: TaskExecutor, @unchecked Sendable {
        private struct State {
            var jobs: [UnownedJob] = []
            var isWaiting = false
        }

        private let state = Locked(State())
        /// Signalled for every enqueued job and by every ``Handoff`` created with it.
        let signal = DispatchSemaphore(value: 0)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let queued = state.withLock { state in
                guard state.isWaiting else { return false }
                state.jobs.append(job)
                return true
            }
            if queued {
                signal.signal()
            } else {
                forward(job)
            }
        }

        /// Makes jobs enqueued from now on wait for ``run(until:)`` on this thread instead of going to Dispatch.
        ///
        /// Called just before a task is created for this executor, so that the task's first job (enqueued by the
        /// creation itself) runs here; the caller must then call ``run(until:)`` or ``endWaiting()`` without a
        /// blocking call in between.
        func beginWaiting() {
            state.withLock { $0.isWaiting = true }
        }

        /// Ends a wait begun with ``beginWaiting()`` that ``run(until:)`` will not serve: queued jobs go to Dispatch.
        func endWaiting() {
            let left = state.withLock { state in
                state.isWaiting = false
                defer { state.jobs = [] }
                return state.jobs
            }
            for job in left { forward(job) }
        }

        private func forward(_ job: UnownedJob) {
            DispatchQueue.global().async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        }

        /// Runs enqueued jobs on this thread until `handoff` has a value (or is finished or abandoned), which it
        /// returns; jobs still queued then are passed on to Dispatch.
        func run<Value>(until handoff: Handoff<Value>) -> Value? {
            beginWaiting()
            defer { endWaiting() }
            while true {
                if let outcome = handoff.poll() { return outcome }
                let jobs = state.withLock { state in
                    defer { state.jobs.removeAll(keepingCapacity: true) }
                    return state.jobs
                }
                if jobs.isEmpty {
                    signal.wait()
                    continue
                }
                for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            }
        }
    }
#endif
