import TetherSync

#if os(Linux)
    import TetherIO

    /// Pulls a streamed body for a connection on the event loop, one chunk at a time and only when asked: after
    /// each chunk the pulling task waits for ``grant()``, which the connection calls once the chunk's bytes are
    /// (mostly) in the socket. So at most one chunk waits to be written on top of what the socket already holds.
    ///
    /// - Thread safety: ``grant()`` and ``cancel()`` may be called from any thread; the chunks and the end are
    ///   delivered on `loop`.
    final class StreamPump: Sendable {
        private struct State {
            var granted = false
            var cancelled = false
            var waiter: CheckedContinuation<Bool, Never>?
        }

        private let state = Locked(State())
        private let task = Locked<Task<Void, Never>?>(nil)

        /// Starts pulling `stream`; `chunk` gets each chunk on `loop`, then `end` once when the stream finishes
        /// (not after ``cancel()``). Call it once.
        func start(
            _ stream: AsyncStream<[UInt8]>, loop: EventLoop, chunk: @escaping @Sendable (StreamPump, [UInt8]) -> Void,
            end: @escaping @Sendable (StreamPump) -> Void
        ) {
            let work = Task(executorPreference: ResponderTaskExecutor.shared) { [self] in
                for await bytes in stream {
                    if self.state.withLock({ $0.cancelled }) { return }
                    loop.execute { chunk(self, bytes) }
                    let go = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                        let now: Bool? = self.state.withLock { state in
                            if state.cancelled { return false }
                            if state.granted {
                                state.granted = false
                                return true
                            }
                            state.waiter = continuation
                            return nil
                        }
                        if let now { continuation.resume(returning: now) }
                    }
                    if !go { return }
                }
                if self.state.withLock({ $0.cancelled }) { return }
                loop.execute { end(self) }
            }
            task.withLock { $0 = work }
        }

        /// Lets the task pull the next chunk.
        func grant() {
            let waiter = state.withLock { state in
                guard let waiter = state.waiter else {
                    state.granted = true
                    return nil as CheckedContinuation<Bool, Never>?
                }
                state.waiter = nil
                return waiter
            }
            waiter?.resume(returning: true)
        }

        /// Stops pulling: no chunk or end is delivered after the ones already handed to the loop.
        func cancel() {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: false)
            task.withLock { $0 }?.cancel()
        }
    }
#endif
