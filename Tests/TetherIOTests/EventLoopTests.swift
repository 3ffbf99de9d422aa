#if os(Linux)
    import CEpoll
    import Glibc
    import TetherSync
    import Testing

    @testable import TetherIO

    @Suite struct EventLoopTests {
        @Test func executeRunsOnTheLoopThread() async {
            let loop = EventLoop.shared
            let onLoop = await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: loop.inEventLoop) }
            }
            #expect(onLoop)
            #expect(!loop.inEventLoop)
        }

        @Test func timersRunInDueOrderAndCancelledOnesNever() async {
            let loop = EventLoop.shared
            let fired = Locked<[Int]>([])
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                loop.execute {
                    loop.schedule(in: .milliseconds(30)) { fired.withLock { $0.append(3) } }
                    loop.schedule(in: .milliseconds(10)) { fired.withLock { $0.append(1) } }
                    let cancelled = loop.schedule(in: .milliseconds(15)) { fired.withLock { $0.append(99) } }
                    loop.schedule(in: .milliseconds(20)) { fired.withLock { $0.append(2) } }
                    loop.cancel(cancelled)
                    loop.schedule(in: .milliseconds(40)) { continuation.resume() }
                }
            }
            #expect(fired.withLock { $0 } == [1, 2, 3])
        }

        /// Records the order of a pipe's readiness and handed-over tasks.
        final class PipeReader: EventSource, @unchecked Sendable {
            let fd: Int32
            let log = Locked<[String]>([])
            init(fd: Int32) { self.fd = fd }
            func handle(events: UInt32) {
                var byte: UInt8 = 0
                if read(fd, &byte, 1) == 1 { log.withLock { $0.append("readable") } }
            }
        }

        @Test func tasksHandedOverBeforeReadinessRunBeforeItsCallback() async throws {
            let loop = EventLoop(name: "tether-io-test")
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            let (readEnd, writeEnd) = (fds[0], fds[1])
            defer { close(writeEnd) }
            let reader = PipeReader(fd: readEnd)
            let registered = await withCheckedContinuation { continuation in
                loop.execute {
                    continuation.resume(returning: loop.register(reader, fd: readEnd, events: EPOLLIN.rawValue))
                }
            }
            let id = try #require(registered)
            // The loop is busy while a task is handed over and then the pipe becomes readable: when it looks
            // again, it sees both, and the task runs first.
            loop.execute { usleep(100_000) }
            loop.execute { reader.log.withLock { $0.append("task") } }
            var byte: UInt8 = 1
            #expect(write(writeEnd, &byte, 1) == 1)
            let deadline = ContinuousClock.now + .seconds(20)
            while reader.log.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                loop.execute {
                    loop.deregister(id, fd: readEnd)
                    close(readEnd)
                    continuation.resume()
                }
            }
            #expect(reader.log.withLock { $0 } == ["task", "readable"])
        }

        @Test func timerHeapOrdersManyTimers() {
            var heap = TimerHeap()
            let base = ContinuousClock.now
            var order: [Int] = []
            let delays = [5, 3, 9, 1, 7, 2, 8, 6, 4, 0]
            var ids: [Int: UInt64] = [:]
            for delay in delays {
                ids[delay] = heap.insert(base + .milliseconds(delay)) { order.append(delay) }
            }
            heap.cancel(ids[4]!)
            for action in heap.popDue(base + .milliseconds(100)) { action() }
            #expect(order == [0, 1, 2, 3, 5, 6, 7, 8, 9])
            #expect(heap.earliest() == nil)
        }

        @Test func interleavesAddressFamilies() throws {
            let v4a = try #require(SocketAddress(numericHost: "10.0.0.1", port: 80))
            let v4b = try #require(SocketAddress(numericHost: "10.0.0.2", port: 80))
            let v6a = try #require(SocketAddress(numericHost: "::1", port: 80))
            let v6b = try #require(SocketAddress(numericHost: "fe80::1", port: 80))
            let ordered = Resolver.interleave([v6a, v6b, v4a, v4b])
            #expect(ordered.map(\.description) == ["[::1]:80", "10.0.0.1:80", "[fe80::1]:80", "10.0.0.2:80"])
            #expect(SocketAddress(numericHost: "example.com", port: 80) == nil)
        }
    }
#endif
