import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// Fault injection over real sockets on the json-server routes of jsonplaceholder's `db.json`: faults scripted
/// per request by header and by `_fault` query (latency, 503 with `Retry-After`, a reset mid-response, a
/// truncated body), and configured rates that a seed makes repeatable.
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .serialized, .timeLimit(.minutes(1)))
struct FaultsOverSocketsTests {
    /// Serves a database of jsonplaceholder (the shared read-only one unless `writable`) with `faults`,
    /// logging to `log`.
    private func withFaultServer<Value>(
        _ faults: FaultConfiguration = .none, log: LogLines = LogLines(), writable: Bool = false,
        _ body: (LiveServer) async throws -> Value
    ) async throws -> Value {
        let database =
            writable ? try await JSONPlaceholder.writableCopy() : try await JSONPlaceholder.readOnlyCopy()
        return try await withJSONServer(database, .init(accessLog: log.sink, faults: faults), body)
    }

    /// The head fields and body bytes of a response that was cut short.
    private func split(_ received: [UInt8]) -> (head: String, body: [UInt8]) {
        guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else {
            return (String(decoding: received, as: UTF8.self), [])
        }
        return (String(decoding: received[..<end.lowerBound], as: UTF8.self), Array(received[end.upperBound...]))
    }

    @Test func scriptedLatencyDelaysAWholeResponse() async throws {
        let log = LogLines()
        try await withFaultServer(log: log) { server in
            let plain = try await server.get("/posts/1")
            let clock = ContinuousClock()
            var start = clock.now
            let delayed = try await server.get("/posts/1", headers: [("X-Tether-Fault", "latency=120ms")])
            #expect(clock.now - start >= .milliseconds(120))
            #expect(delayed.status == 200 && delayed.body == plain.body)

            start = clock.now
            let paged = try await server.get("/posts?_page=1&_fault=latency%3D80ms")
            #expect(clock.now - start >= .milliseconds(80))
            #expect(paged.ids == Array(1...10))
            // The `_fault` parameter is taken out before json-server sees the request.
            #expect(paged.header("Link")?.contains("_fault") == false)
            #expect(paged.header("Link")?.hasPrefix("<\(server.base)/posts?_page=1>; rel=\"first\"") == true)

            let ranged = try await server.get("/posts/2?_fault=latency=10ms..30ms")
            #expect(ranged.json?["id"].int == 2)
        }
        let lines = log.lines
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("GET /posts/1 200 ") && lines[1].hasSuffix(" fault=latency=120ms"))
        #expect(lines[2].hasPrefix("GET /posts?_page=1 200 ") && lines[2].hasSuffix(" fault=latency=80ms"))
        let drawn = try FaultConfiguration.parseDuration(String(try #require(lines[3].split(separator: "=").last)))
        #expect((.milliseconds(10)...(.milliseconds(30))).contains(drawn), "\(lines[3])")
    }

    @Test func scripted503HasRetryAfterAndNeverReachesTheRoute() async throws {
        try await withFaultServer(writable: true) { server in
            for response in [
                try await server.get("/posts/1", headers: [("X-Tether-Fault", "fail")]),
                try await server.get("/posts/1?_fault=status=503"),
                try await server.send("POST", "/posts?_fault=fail", body: #"{"title": "never"}"#),
                try await server.send("DELETE", "/posts/1", headers: [("X-Tether-Fault", "status=503")]),
            ] {
                #expect(response.status == 503)
                #expect(response.header("Retry-After") == "1")
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                #expect(response.json?.object?.keys == ["error", "message"])
                #expect(response.json?["error"].string == "injected_fault")
            }
            // Neither write was applied.
            #expect(try await server.get("/posts").json?.array?.count == 100)
            #expect(try await server.get("/posts/1").status == 200)

            let limited = try await server.get("/posts/1?_fault=status%3D429")
            #expect(limited.status == 429 && limited.header("Retry-After") == "1")
            let broken = try await server.get("/posts/1", headers: [("X-Tether-Fault", "status=500")])
            #expect(broken.status == 500 && broken.header("Retry-After") == nil)
            #expect(broken.json?["error"].string == "injected_fault")
        }
    }

    @Test func scriptedResetCutsTheResponseMidway() async throws {
        try await withFaultServer { server in
            let full = try await server.get("/comments").body.count
            for failure in [
                try await server.failure("/comments?_fault=reset"),
                try await server.failure("/comments", headers: [("X-Tether-Fault", "reset")]),
            ] {
                switch failure {
                case .failed(let code)?:
                    #expect(code == ECONNRESET)
                case .closed(let received)?:
                    // The reset raced the read: what came is a head and part of the body.
                    #expect(String(decoding: received.prefix(15), as: UTF8.self) == "HTTP/1.1 200 OK")
                    #expect(split(received).body.count < full)
                default:
                    Issue.record("expected a reset, got \(String(describing: failure))")
                }
            }
            // The server goes on.
            #expect(try await server.get("/posts/1").status == 200)
        }
    }

    @Test func scriptedTruncationSendsHalfTheAnnouncedBody() async throws {
        try await withFaultServer { server in
            for (target, headers) in [
                ("/posts", [(String, String)]()), ("/users/1", [("X-Tether-Fault", "truncate")]),
            ] {
                let full = try await server.get(target).body
                let query = headers.isEmpty ? "?_fault=truncate" : ""
                let failure = try await server.failure(target + query, headers: headers)
                guard case .closed(let received)? = failure else {
                    Issue.record("\(target): expected a short body and a close, got \(String(describing: failure))")
                    continue
                }
                let (head, body) = split(received)
                #expect(head.hasPrefix("HTTP/1.1 200 OK"), "\(target)")
                #expect(head.split(separator: "\r\n").contains("Content-Length: \(full.count)"), "\(target)")
                #expect(body == Array(full.prefix(full.count / 2)), "\(target)")
            }
        }
    }

    @Test func noneOverridesConfiguredFaultsAndAnUnreadableScriptIs400() async throws {
        try await withFaultServer(.init(failRate: 1)) { server in
            #expect(try await server.get("/posts/1").status == 503)
            #expect(try await server.get("/posts/1?_fault=none").json?["id"].int == 1)
            #expect(try await server.get("/posts/1", headers: [("X-Tether-Fault", "none")]).status == 200)
            for response in [
                try await server.get("/posts/1", headers: [("X-Tether-Fault", "explode")]),
                try await server.get("/posts/1?_fault=latency%3Dsoon"),
                try await server.get("/posts/1?_fault=status=99"),
            ] {
                #expect(response.status == 400)
                #expect(response.json?["error"].string == "invalid_fault")
                #expect(response.json?["message"].string?.isEmpty == false)
            }
        }
    }

    /// What a client saw for each of `count` requests in a row, and the faults the server logged.
    private func outcomes(seed: UInt64, count: Int = 30) async throws -> (seen: [String], logged: [String]) {
        let log = LogLines()
        let faults = FaultConfiguration(
            latency: .milliseconds(1)...(.milliseconds(5)), failRate: 0.25, resetRate: 0.2, truncateRate: 0.2,
            seed: seed)
        let seen = try await withFaultServer(faults, log: log) { server in
            var seen: [String] = []
            for _ in 0..<count {
                switch try await server.attempt("/posts/1") {
                case .success(let response): seen.append(String(response.status))
                case .failure(.timedOut): Issue.record("timed out")
                case .failure: seen.append("short")
                }
            }
            return seen
        }
        // Sorted: two connections' lines may reach the log in either order.
        let logged = log.lines.compactMap { line in line.split(separator: " fault=").dropFirst().first.map(String.init)
        }
        return (seen, logged.sorted())
    }

    @Test func configuredRatesWithASeedRepeatExactly() async throws {
        let first = try await outcomes(seed: 7)
        let again = try await outcomes(seed: 7)
        #expect(first.seen == again.seen)
        #expect(first.logged == again.logged)
        #expect(first.seen.contains("short"))
        #expect(first.logged.contains { $0.contains("status=503") })
        #expect(first.logged.contains { $0.contains("reset") })
        #expect(first.logged.contains { $0.contains("truncate") })
        #expect(first.logged.allSatisfy { $0.hasPrefix("latency=") })
        let other = try await outcomes(seed: 8)
        #expect(other.logged != first.logged)
    }
}
