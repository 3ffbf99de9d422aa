import Foundation
import Testing
import TetherHTTP1

@testable import TetherServer

/// Counts what a streamed body's producer has been asked for.
private final class PullCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var pulled = 0

    var bytes: Int { lock.withLock { pulled } }

    func add(_ count: Int) { lock.withLock { pulled += count } }

    /// Counts `count` more bytes unless that would pass `limit`; whether it did.
    func pull(_ count: Int, upTo limit: Int) -> Bool {
        lock.withLock {
            guard pulled + count <= limit else { return false }
            pulled += count
            return true
        }
    }
}

@Suite("Server: streamed bodies and backpressure", .timeLimit(.minutes(1)))
struct ServerStreamingTests {
    static let chunkSize = 32 * 1024
    static let chunkCount = 1024  // 32 MiB in all

    /// `/fast`: a producer that makes a chunk each time it is pulled, as fast as it is pulled.
    private static func fastProducer(counting counter: PullCounter) -> ClosureResponder {
        ClosureResponder { request in
            guard request.path == "/fast" else { return nil }
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: chunkSize)
            let stream = AsyncStream<[UInt8]> {
                counter.pull(chunk.count, upTo: chunkSize * chunkCount) ? chunk : nil
            }
            return HTTPResponse(stream: stream)
        }
    }

    @Test func aSlowClientStopsTheServerPullingFromAFastStream() async throws {
        let counter = PullCounter()
        let total = Self.chunkSize * Self.chunkCount
        let configuration = HTTPServer.Configuration(maximumPendingStreamBytes: 256 * 1024)
        let (stalledAt, response) = try await withServer(
            configuration, responders: [Self.fastProducer(counting: counter)]
        ) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port, timeout: .seconds(30))
                try client.send(RawHTTPClient.get("/fast"))
                // Read nothing until the server has stopped pulling (or a generous deadline passes).
                let deadline = ContinuousClock.now + .seconds(5)
                var last = -1
                var stableSince = ContinuousClock.now
                while ContinuousClock.now < deadline {
                    let now = counter.bytes
                    if now != last {
                        last = now
                        stableSince = .now
                    } else if ContinuousClock.now - stableSince > .milliseconds(300) {
                        break
                    }
                    usleep(20_000)
                }
                let stalledAt = counter.bytes
                return (stalledAt, try client.readResponse())
            }
        }
        // The socket buffers hold a few MiB at most; without backpressure the whole 32 MiB would be pulled.
        #expect(stalledAt < total / 4, "pulled \(stalledAt) of \(total) bytes while the client read nothing")
        #expect(stalledAt >= Self.chunkSize)
        // Once the client reads, the stream resumes and the body arrives whole.
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.body.count == total)
        #expect(response.body.allSatisfy { $0 == UInt8(ascii: "x") })
        #expect(counter.bytes == total)
    }

    @Test func aStreamIsNotPulledAfterTheClientGoesAway() async throws {
        let counter = PullCounter()
        let total = Self.chunkSize * Self.chunkCount
        let configuration = HTTPServer.Configuration(maximumPendingStreamBytes: 64 * 1024)
        let pulled = try await withServer(configuration, responders: [Self.fastProducer(counting: counter)]) {
            _, port in
            try await onThread {
                do {
                    let client = try RawHTTPClient(port: port)
                    try client.send(RawHTTPClient.get("/fast"))
                    let deadline = ContinuousClock.now + .seconds(5)
                    while counter.bytes == 0, ContinuousClock.now < deadline { usleep(5_000) }
                }  // the client closes here, having read nothing
                usleep(200_000)
                return counter.bytes
            }
        }
        #expect(pulled > 0)
        #expect(pulled < total / 4, "pulled \(pulled) of \(total) bytes for a client that left")
    }

    @Test func aProducerWaitsWhileTheHandoffIsOverCapacityAndResumesWhenItIsDrained() async throws {
        let handoff = Handoff<[UInt8]>(capacity: 4, cost: { $0.count })
        let sent = PullCounter()
        let producer = Task {
            for _ in 0..<3 {
                await handoff.send([1, 2, 3])
                sent.add(1)
            }
            handoff.finish()
        }
        // Two chunks (6 bytes) exceed the capacity of 4, so the producer waits after the second.
        let deadline = ContinuousClock.now + .seconds(5)
        while sent.bytes < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(sent.bytes == 1)
        #expect(handoff.pendingCost == 6)
        #expect(handoff.poll() == .some([1, 2, 3]))
        // `next()` blocks its thread, so it runs on one of its own, not on the concurrency pool.
        let rest = try await onThread {
            var values: [[UInt8]] = []
            while let value = handoff.next() { values.append(value) }
            return values
        }
        await producer.value
        #expect(rest == [[1, 2, 3], [1, 2, 3]])
        #expect(sent.bytes == 3)
        #expect(handoff.pendingCost == 0)
    }

    @Test func abandoningReleasesAWaitingProducer() async throws {
        let handoff = Handoff<[UInt8]>(capacity: 1, cost: { $0.count })
        let producer = Task { await handoff.send([1, 2, 3]) }
        let deadline = ContinuousClock.now + .seconds(5)
        while handoff.pendingCost == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        handoff.abandon()
        await producer.value
        #expect(handoff.wasAbandoned)
        #expect(handoff.poll() == .some(nil))
        #expect(handoff.pendingCost == 0)
    }
}
