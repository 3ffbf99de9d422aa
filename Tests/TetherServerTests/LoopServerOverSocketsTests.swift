import Foundation
import Testing
import TetherHTTP1
import TetherSync

@testable import TetherServer

/// The event-loop server against hostile and unusual clients over real sockets: idle connections at the limit,
/// slow clients, pipelining without reading, shutdown with requests in flight.
@Suite("Server: idle and slow clients, backpressure", .serialized, .timeLimit(.minutes(2)))
struct LoopServerOverSocketsTests {
    /// Connections that send nothing, made off the concurrency pool.
    private func openIdle(_ count: Int, port: Int) async throws -> [RawHTTPClient] {
        try await onThread { try (0..<count).map { _ in try RawHTTPClient(port: port) } }
    }

    @Test func idleConnectionsAtTheLimitMakeRoomForNewClients() async throws {
        var configuration = HTTPServer.Configuration(maximumConnections: 10)
        configuration.closesIdleConnectionsAtLimit = true
        try await withServer(configuration) { _, port in
            // Ten that sent nothing and ten kept alive after a request: twice the limit, all idle.
            let silent = try await openIdle(10, port: port)
            let keptAlive = try await onThread {
                try (0..<10).map { _ in
                    let client = try RawHTTPClient(port: port)
                    #expect(try client.exchange(RawHTTPClient.get("/hello")).status == 200)
                    return client
                }
            }
            // Every new client is served: none is answered 503 because of idle connections.
            let statuses = try await onThread {
                try (0..<30).map { _ in try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")).status }
            }
            #expect(statuses == Array(repeating: 200, count: 30))
            // The oldest idle ones were closed to make room, silently.
            let closedFirst = try await onThread { try silent[0].readUntilClosed() }
            #expect(closedFirst.isEmpty)
            withExtendedLifetime((silent, keptAlive)) {}
        }
    }

    @Test func atTheLimitWithEveryConnectionBusyANewOneGets503() async throws {
        let entered = Gate()
        let release = Gate()
        let held = ClosureResponder { request in
            guard request.path == "/held" else { return nil }
            entered.open()
            await release.wait()
            return HTTPResponse(body: Array("held".utf8))
        }
        var configuration = HTTPServer.Configuration(maximumConnections: 1)
        configuration.closesIdleConnectionsAtLimit = true
        try await withServer(configuration, responders: [held, testRoutes]) { _, port in
            let busy = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send(RawHTTPClient.get("/held"))
                return client
            }
            #expect(try await onThread { entered.waitBlocking() })
            let refused = try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
            #expect(refused.status == 503 && refused.header("Retry-After") == "1")
            release.open()
            #expect(try await onThread { try busy.readResponse() }.text == "held")
        }
    }

    @Test func manyIdleConnectionsWhileNewClientsAreServed() async throws {
        try await withServer(.init()) { server, port in
            #expect((server.maximumConnections ?? 0) > 2000)
            let idle = try await openIdle(2000, port: port)
            let responses = try await onThread {
                try (0..<50).map { _ in try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
            }
            #expect(responses.allSatisfy { $0.status == 200 && $0.text == "hello" })
            // The idle ones are still open: one of them is served too.
            let late = try await onThread { try idle[1999].exchange(RawHTTPClient.get("/hello")) }
            #expect(late.text == "hello")
            withExtendedLifetime(idle) {}
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedSilentlyAtTheHeaderTimeout() async throws {
        let rest = try await withServer(.init(headerTimeout: .milliseconds(300))) { _, port in
            try await onThread { try RawHTTPClient(port: port).readUntilClosed() }
        }
        #expect(rest.isEmpty)
    }

    @Test func aSlowlorisGets408WhileOrdinaryClientsAreServed() async throws {
        let configuration = HTTPServer.Configuration(headerTimeout: .milliseconds(400))
        try await withServer(configuration) { _, port in
            let slow = try await openIdle(200, port: port)
            // One byte at a time to every slow connection, while ordinary clients come and go.
            let request = Array(RawHTTPClient.get("/hello").utf8.dropLast(2))
            let ordinary = try await onThread { () -> [Int] in
                var statuses: [Int] = []
                for index in 0..<request.count {
                    for client in slow { try? client.send([request[index]]) }
                    statuses.append(try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")).status)
                }
                return statuses
            }
            #expect(ordinary.allSatisfy { $0 == 200 }, "\(ordinary)")
            let answers = try await onThread { try slow.map { try $0.readResponse().status } }
            #expect(answers.allSatisfy { $0 == 408 }, "\(Set(answers))")
        }
    }

    @Test func aClientThatPipelinesWithoutReadingIsNotAnsweredAheadUnbounded() async throws {
        let log = LogLines()
        let count = 500  // 100 KB each: 50 MB of responses
        try await withServer(.init(accessLog: log.sink)) { _, port in
            let client = try await onThread { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port, timeout: .seconds(60))
                try client.send(String(repeating: RawHTTPClient.get("/big"), count: count))
                return client
            }
            // Read nothing until the server has stopped answering (or a generous deadline passes).
            var last = -1
            var stableSince = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let answered = log.lines.count
                if answered != last {
                    last = answered
                    stableSince = .now
                } else if ContinuousClock.now - stableSince > .milliseconds(300) {
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            // The socket buffers hold a few MB: far fewer than all 500 answers are written ahead of the client.
            #expect(last < count / 4, "\(last) of \(count) answered while the client read nothing")
            let bodies = try await onThread { try (0..<count).map { _ in try client.readResponse().body.count } }
            #expect(bodies == Array(repeating: 100_000, count: count))
        }
    }

    @Test func aClientThatNeverReadsA50MBResponseHoldsOnlyTheBoundInTheServer() async throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 64 * 1024)
        let total = 50 * 1024 * 1024
        let pulled = Locked(0)
        let fifty = ClosureResponder { request in
            guard request.path == "/fifty" else { return nil }
            let stream = AsyncStream<[UInt8]> {
                pulled.withLock { count -> [UInt8]? in
                    guard count < total else { return nil }
                    count += chunk.count
                    return chunk
                }
            }
            return HTTPResponse(stream: stream)
        }
        // The default bound: 1 MiB waiting in the server, plus what the kernel's socket buffers take.
        try await withServer(.init(), responders: [fifty]) { _, port in
            let client = try await onThread { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port, timeout: .seconds(60))
                try client.send(RawHTTPClient.get("/fifty"))
                return client
            }
            var last = -1
            var stableSince = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let now = pulled.withLock { $0 }
                if now != last {
                    last = now
                    stableSince = .now
                } else if now > 0 && ContinuousClock.now - stableSince > .milliseconds(300) {
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(
                last > 0 && last <= 16 * 1024 * 1024, "pulled \(last) of \(total) bytes for a client that reads nothing"
            )
            let response = try await onThread { try client.readResponse() }
            #expect(response.body.count == total)
            #expect(pulled.withLock { $0 } == total)
        }
    }

    @Test func stopFinishesEveryRequestInFlightAndClosesTheRest() async throws {
        let entered = Locked(0)
        let release = Gate()
        let held = ClosureResponder { request in
            guard request.path == "/held" else { return nil }
            entered.withLock { $0 += 1 }
            await release.wait()
            return HTTPResponse(body: Array("done".utf8))
        }
        let server = HTTPServer(configuration: .init(), responders: [held, testRoutes])
        let port = try await server.start()
        let (busy, idle) = try await onThread { () -> ([RawHTTPClient], [RawHTTPClient]) in
            let busy = try (0..<8).map { _ in
                let client = try RawHTTPClient(port: port)
                // A second request pipelined behind: it is not answered, as the server is stopping.
                try client.send(RawHTTPClient.get("/held") + RawHTTPClient.get("/hello"))
                return client
            }
            let idle = try (0..<8).map { _ in try RawHTTPClient(port: port) }
            return (busy, idle)
        }
        while entered.withLock({ $0 }) < 8 { try await Task.sleep(for: .milliseconds(5)) }
        async let stopped: Void = server.stop()
        while server.port != nil { try await Task.sleep(for: .milliseconds(5)) }
        let idleRests = try await onThread { try idle.map { try $0.readUntilClosed() } }
        #expect(idleRests.allSatisfy { $0.isEmpty })
        release.open()
        let answers = try await onThread {
            try busy.map { client in (try client.readResponse(), try client.readUntilClosed()) }
        }
        await stopped
        for (response, rest) in answers {
            #expect(response.status == 200 && response.text == "done")
            #expect(response.header("Connection") == "close")
            #expect(rest.isEmpty)
        }
    }
}
