import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherSync

/// ``BearerAuthenticator`` against a server that rejects old tokens with 401.
@Suite("Authentication over sockets", .timeLimit(.minutes(1)))
struct AuthenticationOverSocketsTests {
    /// `/me` accepts only `Bearer fresh`; anything else is 401.
    static let routes: Routes = { request, _ in
        request.headers["Authorization"] == "Bearer fresh"
            ? .json(text: #"{"user": "ok"}"#)
            : .json(text: #"{"error": "unauthorized"}"#, status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"])
    }

    /// A refresh that records the tokens it was given and returns `token` (or fails when `nil`).
    final class Refresher: Sendable {
        private let rejected = Locked<[String?]>([])
        let token: String?

        init(returning token: String?) { self.token = token }

        var calls: [String?] { rejected.withLock { $0 } }

        func refresh(_ old: String?) async throws -> String {
            rejected.withLock { $0.append(old) }
            try await Task.sleep(for: .milliseconds(50))
            guard let token else { throw URLError(.userAuthenticationRequired) }
            return token
        }
    }

    func client(_ server: SocketTestServer, _ refresher: Refresher) -> (HTTPClient, BearerAuthenticator) {
        let authenticator = BearerAuthenticator(token: "stale") { try await refresher.refresh($0) }
        let client = HTTPClient(baseURL: server.baseURL) { $0.interceptors = [authenticator] }
        return (client, authenticator)
    }

    @Test func a401RefreshesTheTokenAndRetries() async throws {
        try await withSocketServer(Self.routes) { server in
            let refresher = Refresher(returning: "fresh")
            let (client, authenticator) = client(server, refresher)
            let response = try await client.send(Request<JSON>(path: "/me"))
            #expect(response.value["user"].string == "ok")
            #expect(response.attempts == 2)
            #expect(refresher.calls == ["stale"])
            #expect(authenticator.token == "fresh")
            #expect(server.log.requests.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer fresh"])
        }
    }

    @Test func concurrent401sShareOneRefresh() async throws {
        try await withSocketServer(Self.routes) { server in
            let refresher = Refresher(returning: "fresh")
            let (client, _) = client(server, refresher)
            // Different query items, so the requests are not coalesced into one.
            let requests = (1...5).map { Request<JSON>(path: "/me", query: [("n", "\($0)")]) }
            let results = await client.send(all: requests)
            for result in results {
                #expect((try? result.get().value["user"].string) == "ok")
            }
            #expect(refresher.calls == ["stale"])
        }
    }

    @Test func aFailingRefreshLeavesThe401() async throws {
        try await withSocketServer(Self.routes) { server in
            let refresher = Refresher(returning: nil)
            let (client, _) = client(server, refresher)
            let error = try #require(await sendExpectingError(Request<JSON>(path: "/me"), on: client))
            #expect(error.status?.code == 401, "\(error)")
            #expect(error.attempts == 1)
            #expect(refresher.calls.count == 1)
            #expect(server.log.count("/me") == 1)
        }
    }

    @Test func aRejectedNewTokenDoesNotLoop() async throws {
        try await withSocketServer(Self.routes) { server in
            let refresher = Refresher(returning: "also-rejected")
            let (client, _) = client(server, refresher)
            let error = try #require(await sendExpectingError(Request<JSON>(path: "/me"), on: client))
            #expect(error.status?.code == 401, "\(error)")
            #expect(error.attempts == 2)
            #expect(refresher.calls.count == 1)
            #expect(server.log.count("/me") == 2)
        }
    }
}
