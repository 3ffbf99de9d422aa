import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

@Suite("Server: limits and timeouts", .timeLimit(.minutes(1)))
struct ServerLimitsTests {
    static let limits = HTTPRequestParser.Limits(
        maximumRequestLineLength: 256, maximumHeaderBytes: 1024, maximumBodyBytes: 100)

    static let oversized: [(String, Int)] = [
        ("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 2000))\r\n\r\n", 431),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n\(String(repeating: "b", count: 500))", 413),
        ("GET /\(String(repeating: "c", count: 400)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("NOT AN HTTP REQUEST\r\n\r\n", 400),
        ("GET /hello HTTP/1.1\r\n\r\n", 400),
        ("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
    ]

    @Test(arguments: oversized)
    func aRequestOverALimitGetsItsStatusAndAJSONErrorThenTheServerGoesOn(request: String, status: Int) async throws {
        let (response, rest, after) = try await withServer(.init(limits: Self.limits)) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let response = try client.exchange(request)
                let rest = try client.readUntilClosed()
                let after = try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello"))
                return (response, rest, after)
            }
        }
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        let json = try JSON(parsing: response.body)
        #expect(json["error"].string != nil)
        #expect(json["message"].string?.isEmpty == false)
        #expect(rest.isEmpty)
        #expect(after.text == "hello")
    }

    @Test func aSlowClientGets408AfterTheHeaderTimeout() async throws {
        let (response, rest) = try await withServer(.init(headerTimeout: .milliseconds(300))) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
                let response = try client.readResponse()
                return (response, try client.readUntilClosed())
            }
        }
        #expect(response.status == 408)
        #expect(try JSON(parsing: response.body)["error"].string != nil)
        #expect(rest.isEmpty)
    }

    @Test func anIdleKeptAliveConnectionIsClosedSilently() async throws {
        let (first, rest) = try await withServer(.init(idleTimeout: .milliseconds(300))) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let first = try client.exchange(RawHTTPClient.get("/hello"))
                return (first, try client.readUntilClosed())
            }
        }
        #expect(first.text == "hello")
        #expect(rest.isEmpty)
    }

    @Test func connectionsOverTheMaximumGet503() async throws {
        let (kept, rejected, rest, stillServed) = try await withServer(.init(maximumConnections: 1)) { _, port in
            try await onThread {
                let first = try RawHTTPClient(port: port)
                let kept = try first.exchange(RawHTTPClient.get("/hello"))
                let second = try RawHTTPClient(port: port)
                try second.send(RawHTTPClient.get("/hello"))
                let rejected = try second.readResponse()
                let rest = try second.readUntilClosed()
                return (kept, rejected, rest, try first.exchange(RawHTTPClient.get("/hello")))
            }
        }
        #expect(kept.text == "hello")
        #expect(rejected.status == 503)
        #expect(rejected.header("Retry-After") == "1")
        #expect(try JSON(parsing: rejected.body)["error"].string == "too_many_connections")
        #expect(rest.isEmpty)
        #expect(stillServed.text == "hello")
    }
}
