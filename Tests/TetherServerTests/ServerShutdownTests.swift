import Foundation
import Testing
import TetherHTTP1

@testable import TetherServer

@Suite("Server: graceful shutdown", .timeLimit(.minutes(1)))
struct ServerShutdownTests {
    @Test func stopLetsAnInFlightRequestFinishAndClosesIdleConnections() async throws {
        let entered = Gate()
        let release = Gate()
        let slow = ClosureResponder { request in
            guard request.path == "/slow-stop" else { return nil }
            entered.open()
            // Held until the server is stopping, so the response must be the one that says `Connection: close`.
            await release.wait()
            return HTTPResponse(body: Array("done".utf8))
        }
        let server = HTTPServer(configuration: .init(), responders: [slow, testRoutes])
        let port = try await server.start()
        let (busy, idle) = try await onThread { () -> (RawHTTPClient, RawHTTPClient) in
            let idle = try RawHTTPClient(port: port)
            _ = try idle.exchange(RawHTTPClient.get("/hello"))
            let busy = try RawHTTPClient(port: port)
            try busy.send(RawHTTPClient.get("/slow-stop"))
            return (busy, idle)
        }
        #expect(try await onThread { entered.waitBlocking() })
        async let stopped: Void = server.stop()
        while server.port != nil { try await Task.sleep(for: .milliseconds(5)) }
        // `stop()` marks in-flight connections right after its accept loop ends; give it ample time under load.
        try await Task.sleep(for: .milliseconds(300))
        release.open()
        let response = try await onThread { try busy.readResponse() }
        let idleRest = try await onThread { try idle.readUntilClosed() }
        await stopped
        #expect(response.status == 200)
        #expect(response.text == "done")
        #expect(response.header("Connection") == "close")
        #expect(idleRest.isEmpty)
        #expect(server.port == nil)
        await #expect(throws: RawClientError.self) { try await onThread { _ = try RawHTTPClient(port: port) } }
    }

    @Test func stopClosesWhatIsLeftAfterTheGracePeriod() async throws {
        let entered = Gate()
        let never = Gate()
        let stuck = ClosureResponder { _ in
            entered.open()
            await never.wait()
            return HTTPResponse(body: Array("too late".utf8))
        }
        let server = HTTPServer(
            configuration: .init(shutdownGracePeriod: .milliseconds(200)), responders: [stuck])
        let port = try await server.start()
        let client = try await onThread { () -> RawHTTPClient in
            let client = try RawHTTPClient(port: port)
            try client.send(RawHTTPClient.get("/"))
            return client
        }
        #expect(try await onThread { entered.waitBlocking() })
        await server.stop()
        let rest = try await onThread { try client.readUntilClosed() }
        #expect(rest.isEmpty)
        never.open()
    }

    @Test func stopBeforeStartAndStartAfterStop() async throws {
        let server = HTTPServer(configuration: .init(), responders: [])
        await server.stop()
        let error = await #expect(throws: ServerError.self) { try await server.start() }
        #expect(error?.code == .invalidState)
    }
}
