import Foundation
import Testing
import TetherHTTP1

@testable import TetherServer

@Suite("Server: connections, keep-alive and message framing", .timeLimit(.minutes(1)))
struct ServerConnectionTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        let log = LogLines()
        let responses = try await withServer(.init(accessLog: log.sink)) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                return try (0..<5).map { _ in try client.exchange(RawHTTPClient.get("/hello")) }
            }
        }
        #expect(responses.allSatisfy { $0.status == 200 && $0.text == "hello" && $0.header("Connection") == nil })
        #expect(log.lines.count == 5)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let responses = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                // The first is slow, so an out-of-order server would answer the others first.
                try client.send(
                    RawHTTPClient.get("/slow?ms=150") + RawHTTPClient.get("/hello")
                        + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nthird")
                return try (0..<3).map { _ in try client.readResponse() }
            }
        }
        #expect(responses.map(\.text) == ["slow", "hello", "third"])
    }

    @Test func expectContinueGetsA100BeforeTheBody() async throws {
        let (interim, final) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
                let interim = try client.readResponse()
                try client.send("body")
                return (interim, try client.readResponse())
            }
        }
        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(final.text == "body")
    }

    @Test func headSendsTheHeadOfTheGetResponseOnly() async throws {
        let (head, next) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let head = try client.exchange("HEAD /echo HTTP/1.1\r\nHost: x\r\n\r\n", isHead: true)
                // A body after the HEAD head would be read as the next status line and fail.
                return (head, try client.exchange(RawHTTPClient.get("/hello")))
            }
        }
        #expect(head.status == 200)
        #expect(head.header("X-Method") == "GET")
        #expect(head.header("Content-Length") == "0")
        #expect(next.text == "hello")

        let big = try await withServer { _, port in
            try await onThread {
                try RawHTTPClient(port: port).exchange("HEAD /big HTTP/1.1\r\nHost: x\r\n\r\n", isHead: true)
            }
        }
        #expect(big.header("Content-Length") == "100000")
        #expect(big.body.isEmpty)
    }

    @Test func streamedBodiesAreChunkedForHTTP11AndRawUntilCloseForHTTP10() async throws {
        let (chunked, after, raw) = try await withServer { _, port in
            try await onThread {
                // `/stream` sleeps between chunks on the concurrency pool, which other suites running in parallel
                // can keep busy for seconds (building catalogs in debug builds): a generous deadline.
                let client = try RawHTTPClient(port: port, timeout: .seconds(30))
                let chunked = try client.exchange(RawHTTPClient.get("/stream"))
                let after = try client.exchange(RawHTTPClient.get("/hello"))
                let old = try RawHTTPClient(port: port, timeout: .seconds(30))
                let raw = try old.exchange("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (chunked, after, raw)
            }
        }
        #expect(chunked.header("Transfer-Encoding") == "chunked")
        #expect(chunked.text == "abc")
        #expect(after.text == "hello")
        #expect(raw.header("Transfer-Encoding") == nil)
        #expect(raw.header("Connection") == "close")
        #expect(raw.text == "abc")
    }

    @Test func connectionCloseIsHonoured() async throws {
        let (response, rest) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let response = try client.exchange(RawHTTPClient.get("/hello", "Connection: close"))
                return (response, try client.readUntilClosed())
            }
        }
        #expect(response.header("Connection") == "close")
        #expect(response.text == "hello")
        #expect(rest.isEmpty)
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() async throws {
        let (plain, plainRest, kept, second) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let plain = try client.exchange("GET /hello HTTP/1.0\r\n\r\n")
                let plainRest = try client.readUntilClosed()
                let keeping = try RawHTTPClient(port: port)
                let kept = try keeping.exchange("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let second = try keeping.exchange("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (plain, plainRest, kept, second)
            }
        }
        #expect(plain.text == "hello")
        #expect(plain.header("Connection") == "close")
        #expect(plainRest.isEmpty)
        #expect(kept.header("Connection") == "keep-alive")
        #expect(second.text == "hello")
    }

    @Test func aResponderCanCloseTheConnection() async throws {
        let closing = ClosureResponder { _ in HTTPResponse(headers: ["Connection": "close"], body: Array("bye".utf8)) }
        let (response, rest) = try await withServer(responders: [closing]) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let response = try client.exchange(RawHTTPClient.get("/"))
                return (response, try client.readUntilClosed())
            }
        }
        #expect(response.header("Connection") == "close")
        #expect(rest.isEmpty)
    }

    actor Counter {
        var value = 0
        func increment() async -> Int {
            await Task.yield()
            value += 1
            return value
        }
    }

    @Test func respondersSharingAnActorAcrossManyConnectionsAllFinish() async throws {
        let counter = Counter()
        let counting = ClosureResponder { _ in
            let values = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<2 { group.addTask { await counter.increment() } }
                return await group.reduce(0, +)
            }
            return HTTPResponse(body: Array(String(values).utf8))
        }
        let statuses = try await withServer(responders: [counting]) { _, port in
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await onThread {
                            let client = try RawHTTPClient(port: port)
                            return try (0..<20).map { _ in try client.exchange(RawHTTPClient.get("/count")).status }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        #expect(statuses.count == 160)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await counter.value == 320)
    }
}
