#if os(Linux)
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
