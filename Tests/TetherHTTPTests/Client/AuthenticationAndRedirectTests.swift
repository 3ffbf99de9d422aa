import Foundation
import Synchronization
import Testing
import TetherHTTP
import TetherHTTPTesting

@Suite struct AuthenticationTests {
    /// A server that accepts only `Bearer good`, after `delay`.
    func server(delay: Duration = .zero) -> StubTransport {
        StubTransport { request in
            let ok = request.headers["Authorization"] == "Bearer good"
            return (ok ? StubResponse.json("{}") : .status(401)).delayed(by: delay)
        }
    }

    @Test func a401RefreshesTheTokenOnceAndRetries() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "stale") { rejected in
            #expect(rejected == "stale")
            refreshes.increment()
            return "good"
        }
        let stub = server()
        let client = makeClient(stub) { $0.interceptors = [auth] }
        let response = try await client.send(Request<Data>(path: "/me"))
        #expect(response.attempts == 2)
        #expect(refreshes.count == 1)
        #expect(auth.token == "good")
        #expect(stub.requests.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer good"])
    }

    @Test func concurrent401sShareOneRefresh() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "stale") { _ in
            refreshes.increment()
            try await Task.sleep(for: .milliseconds(50))
            return "good"
        }
        let client = makeClient(server(delay: .milliseconds(20))) { $0.interceptors = [auth] }
        let results = await client.send(all: (0..<8).map { _ in Request<Data>(path: "/me") })
        for result in results { #expect((try? result.get()) != nil) }
        #expect(refreshes.count == 1)
    }

    @Test func aFailingRefreshDoesNotLoop() async {
        let refreshes = Counter()
        struct RefreshFailed: Error {}
        let auth = BearerAuthenticator(token: "stale") { _ in
            refreshes.increment()
            throw RefreshFailed()
        }
        let stub = server()
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub) { $0.interceptors = [auth] }.send(Request<Data>(path: "/me"))
        }
        #expect(error?.status?.code == 401)
        #expect(refreshes.count == 1)
        #expect(stub.requests.count == 1)
    }

    @Test func aRefreshedTokenTheServerStillRejectsIsNotRefreshedAgain() async {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "stale") { _ in
            refreshes.increment()
            return "also-bad"
        }
        let stub = server()
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub) { $0.interceptors = [auth] }.send(Request<Data>(path: "/me"))
        }
        #expect(error?.status?.code == 401)
        #expect(refreshes.count == 1)
        #expect(stub.requests.count == 2)
    }
}

@Suite struct RedirectTests {
    @Test func redirectsAreFollowedAndCredentialsStayWithTheirOrigin() async throws {
        let stub = StubTransport { request in
            switch (request.url.host ?? "", request.url.path) {
            case ("api.example.com", "/v1/old"): .status(301, headers: ["Location": "/v1/new"])
            case ("api.example.com", "/v1/new"): .status(302, headers: ["Location": "https://cdn.example.net/file"])
            default: .json(#"{"id": 7, "title": "moved"}"#)
            }
        }
        var request = Request<Note>(path: "/old")
        request.headers.set("Authorization", "Bearer secret")
        request.headers.set("Cookie", "session=1")
        let response = try await makeClient(stub).send(request)
        #expect(response.value.id == 7)
        #expect(response.url.absoluteString == "https://cdn.example.net/file")
        let sent = stub.requests
        #expect(
            sent.map(\.url.absoluteString) == [
                "https://api.example.com/v1/old", "https://api.example.com/v1/new", "https://cdn.example.net/file",
            ])
        #expect(sent[1].headers["Authorization"] == "Bearer secret")
        #expect(sent[2].headers["Authorization"] == nil)
        #expect(sent[2].headers["Cookie"] == nil)
    }

    @Test func see303TurnsAPostIntoAGetAnd307KeepsIt() async throws {
        let stub = StubTransport { request in
            switch request.url.path {
            case "/v1/a": .status(303, headers: ["Location": "/v1/b"])
            case "/v1/c": .status(307, headers: ["Location": "/v1/d"])
            default: .json("{}")
            }
        }
        let client = makeClient(stub)
        _ = try await client.send(Request<Data>(path: "/a", method: .post, body: .text("x")))
        _ = try await client.send(Request<Data>(path: "/c", method: .post, body: .text("y")))
        let sent = stub.requests
        #expect(sent.map(\.method) == [.post, .get, .post, .post])
        #expect(sent[1].body == nil)
        #expect(sent[1].headers["Content-Type"] == nil)
        #expect(sent[3].body == Data("y".utf8))
    }

    @Test func aRedirectLoopEndsWithTooManyRedirects() async {
        let stub = StubTransport { _ in .status(302, headers: ["Location": "/v1/loop"]) }
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub) { $0.maximumRedirects = 3 }.send(Request<Data>(path: "/loop"))
        }
        guard case .tooManyRedirects(let limit) = error?.kind else {
            Issue.record("expected tooManyRedirects, got \(String(describing: error))")
            return
        }
        #expect(limit == 3)
        #expect(stub.requests.count == 4)
    }
}
