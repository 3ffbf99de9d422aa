import Foundation
import Testing
import TetherHTTP1

@testable import TetherServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Server: start, stop and routing", .timeLimit(.minutes(1)))
struct ServerBasicsTests {
    @Test func startReportsTheEphemeralPortAndStopReleasesIt() async throws {
        // This server's own answer, so that after the stop nothing can be mistaken for it: tests run in parallel,
        // and another test's server may be given the freed port at once.
        let marker = UUID().uuidString
        let server = HTTPServer(
            configuration: .init(),
            responders: [ClosureResponder { _ in HTTPResponse(headers: [:], body: Array(marker.utf8)) }])
        #expect(server.port == nil)
        let port = try await server.start()
        #expect(port > 0)
        #expect(server.port == port)
        let response = try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
        #expect(response.status == 200)
        #expect(response.text == marker)
        await server.stop()
        #expect(server.port == nil)
        // Refused, or (the port taken again meanwhile) answered by someone else.
        do {
            let other = try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/")) }
            #expect(other.text != marker)
        } catch let error as RawClientError {
            #expect(error == .failed(errno: ECONNREFUSED))
        }
        await server.stop()  // a second stop does nothing
    }

    @Test func startingTwiceOrOnATakenPortFails() async throws {
        try await withServer { server, port in
            let again = await #expect(throws: ServerError.self) { try await server.start() }
            #expect(again?.code == .invalidState)
            let rival = HTTPServer(configuration: .init(port: port), responders: [])
            let taken = await #expect(throws: ServerError.self) { try await rival.start() }
            #expect(taken?.code == .addressInUse)
            #expect(rival.port == nil)
        }
    }

    @Test(arguments: ["not a host!", "300.1.1.1"])
    func anInvalidHostFails(host: String) async throws {
        let server = HTTPServer(configuration: .init(host: host), responders: [])
        let error = await #expect(throws: ServerError.self) { try await server.start() }
        #expect(error?.code == .invalidHost)
    }

    @Test func anInvalidPortFails() async throws {
        let server = HTTPServer(configuration: .init(port: 70000), responders: [])
        let error = await #expect(throws: ServerError.self) { try await server.start() }
        #expect(error?.code == .invalidPort)
    }

    @Test(.enabled(if: isIPv6LoopbackAvailable, "no IPv6 loopback here"))
    func servesIPv6Loopback() async throws {
        let server = HTTPServer(configuration: .init(host: "::1"), responders: [testRoutes])
        let port = try await server.start()
        let response = try await onThread {
            try RawHTTPClient(port: port, host: "::1").exchange(RawHTTPClient.get("/hello"))
        }
        await server.stop()
        #expect(response.status == 200)
        #expect(response.text == "hello")
    }

    @Test func respondersAreAskedInOrderAndNoneMeans404WithEmptyObject() async throws {
        let first = ClosureResponder { request in
            request.path == "/a" ? HTTPResponse(body: Array("first".utf8)) : nil
        }
        let second = ClosureResponder { request in
            request.path?.hasPrefix("/a") == true || request.path == "/b"
                ? HTTPResponse(body: Array("second".utf8)) : nil
        }
        let responses = try await withServer(responders: [first, second]) { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                return try ["/a", "/b", "/nothing"].map { try client.exchange(RawHTTPClient.get($0)) }
            }
        }
        #expect(responses.map(\.text) == ["first", "second", "{}"])
        #expect(responses.map(\.status) == [200, 200, 404])
        #expect(responses[2].header("Content-Type")?.hasPrefix("application/json") == true)
    }

    @Test func aSlowResponderDoesNotHoldOtherConnections() async throws {
        let gate = Gate()
        let entered = Gate()
        let blocking = ClosureResponder { request in
            guard request.path == "/blocked" else { return nil }
            entered.open()
            await gate.wait()
            return HTTPResponse(body: Array("finally".utf8))
        }
        try await withServer(responders: [blocking, testRoutes]) { _, port in
            let slow = try await onThread { () -> RawHTTPClient in
                let client = try RawHTTPClient(port: port)
                try client.send(RawHTTPClient.get("/blocked"))
                return client
            }
            #expect(try await onThread { entered.waitBlocking() })
            // The blocked request is still pending while another connection is answered.
            let other = try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
            #expect(other.text == "hello")
            gate.open()
            let late = try await onThread { try slow.readResponse() }
            #expect(late.text == "finally")
        }
    }

    @Test func urlSessionGetsAndPosts() async throws {
        try await withServer { _, port in
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let (data, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/hello")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hello")

            var post = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/echo")!)
            post.httpMethod = "POST"
            post.httpBody = Data("payload".utf8)
            let (echoed, echoResponse) = try await session.data(for: post)
            #expect(String(decoding: echoed, as: UTF8.self) == "payload")
            #expect((echoResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Method") == "POST")

            let (_, missing) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/missing")!)
            #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        }
    }

    @Test func accessLogHasOneLinePerRequest() async throws {
        let log = LogLines()
        try await withServer(.init(accessLog: log.sink)) { _, port in
            _ = try await onThread {
                let client = try RawHTTPClient(port: port)
                _ = try client.exchange(RawHTTPClient.get("/hello"))
                _ = try client.exchange(RawHTTPClient.get("/missing?x=1"))
                _ = try client.exchange("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n", isHead: true)
            }
        }
        let lines = log.lines
        #expect(lines.count == 3)
        let pattern = /^(GET|HEAD) (\S+) (\d{3}) (\d+) (\d+)µs$/
        let matches = lines.compactMap { try? pattern.wholeMatch(in: $0) }
        #expect(matches.count == 3)
        #expect(
            matches.map { "\($0.1) \($0.2) \($0.3) \($0.4)" } == [
                "GET /hello 200 5", "GET /missing?x=1 404 2", "HEAD /hello 200 0",
            ])
    }
}
