import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer

/// Redirects followed by the client (the transport returns them as they are): methods, bodies, credentials on a
/// change of origin, and the limit.
@Suite("Redirects over sockets", .timeLimit(.minutes(1)))
struct RedirectsOverSocketsTests {
    /// What `/target` saw, as it answers it.
    struct Seen: Decodable, Sendable {
        var method: String
        var body: String
        var authorization: String?
        var cookie: String?
        var trace: String?
    }

    /// `/redirect/<code>` → `Location: <to query item or /target>`; `/loop` → itself; `/target` → ``Seen``.
    static let routes: Routes = { request, _ in
        let path = request.path ?? ""
        if path.hasPrefix("/redirect/"), let code = Int(path.dropFirst("/redirect/".count)) {
            let to = request.queryItems.first { $0.name == "to" }?.value ?? "/target"
            return .redirect(code, to: to)
        }
        switch path {
        case "/loop":
            return .redirect(302, to: "/loop")
        case "/no-location":
            return HTTPResponse(status: HTTPStatus(code: 302))
        case "/target":
            var seen: [(String, JSON)] = [
                ("method", .string(request.method.rawValue)),
                ("body", .string(String(decoding: request.body, as: UTF8.self))),
            ]
            for (key, name) in [("authorization", "Authorization"), ("cookie", "Cookie"), ("trace", "X-Trace")] {
                if let value = request.headers[name] { seen.append((key, .string(value))) }
            }
            return .json(.object(JSON.Object(seen)))
        default:
            return nil
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aGETFollowsTheRedirect(code: Int) async throws {
        try await withSocketServer(Self.routes) { server in
            let response = try await HTTPClient(baseURL: server.baseURL).send(Request<Seen>(path: "/redirect/\(code)"))
            #expect(response.status.code == 200)
            #expect(response.value.method == "GET")
            #expect(response.url.absoluteString == server.url("/target"))
            #expect(server.log.requests.map(\.path) == ["/redirect/\(code)", "/target"])
        }
    }

    @Test(arguments: [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")])
    func aPOSTIsRedirectedAs(code: Int, method: String) async throws {
        try await withSocketServer(Self.routes) { server in
            let request = Request<Seen>(path: "/redirect/\(code)", method: .post, body: .json(["a": 1] as JSON))
            let seen = try await HTTPClient(baseURL: server.baseURL).send(request).value
            #expect(seen.method == method)
            if method == "GET" {
                #expect(seen.body.isEmpty)
                #expect(server.log.requests(for: "/target").first?.headers["Content-Type"] == nil)
            } else {
                #expect(seen.body == #"{"a":1}"#)
            }
        }
    }

    @Test func credentialsStayOnTheSameOrigin() async throws {
        try await withSocketServer(Self.routes) { server in
            let request = Request<Seen>(
                path: "/redirect/302", headers: ["Authorization": "Bearer s3cr3t", "Cookie": "session=1"])
            let seen = try await HTTPClient(baseURL: server.baseURL).send(request).value
            #expect(seen.authorization == "Bearer s3cr3t")
            #expect(seen.cookie == "session=1")
        }
    }

    @Test func credentialsAreDroppedOnAChangeOfOrigin() async throws {
        try await withSocketServer(Self.routes) { other in
            try await withSocketServer(Self.routes) { server in
                let request = Request<Seen>(
                    path: "/redirect/307", query: [("to", other.url("/target"))],
                    headers: ["Authorization": "Bearer s3cr3t", "Cookie": "session=1", "X-Trace": "abc"])
                let response = try await HTTPClient(baseURL: server.baseURL).send(request)
                #expect(response.url.absoluteString == other.url("/target"))
                #expect(response.value.authorization == nil)
                #expect(response.value.cookie == nil)
                #expect(response.value.trace == "abc")
                #expect(other.log.requests(for: "/target").first?.headers["Authorization"] == nil)
                #expect(server.log.requests.first?.headers["Authorization"] == "Bearer s3cr3t")
            }
        }
    }

    @Test func tooManyRedirectsStopAtTheLimit() async throws {
        try await withSocketServer(Self.routes) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.maximumRedirects = 3 }
            let error = try #require(await sendExpectingError(Request<Data>(path: "/loop"), on: client))
            guard case .tooManyRedirects(let limit) = error.kind else {
                Issue.record("expected tooManyRedirects, got \(error)")
                return
            }
            #expect(limit == 3)
            #expect(error.request.url == server.url("/loop"))
            #expect(error.attempts == 1, "not retried")
            #expect(server.log.count("/loop") == 4)
        }
    }

    @Test func aRedirectWithoutLocationIsAStatusFailure() async throws {
        try await withSocketServer(Self.routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let error = try #require(await sendExpectingError(Request<Data>(path: "/no-location"), on: client))
            #expect(error.status?.code == 302, "\(error)")
            #expect(server.log.requests.count == 1)
        }
    }

    /// The streaming route (progress asked for) never gets the response from the delegate on Linux when the
    /// redirect is not followed; the transport takes it from the task.
    @Test func aRedirectWithoutLocationIsAStatusFailureWithProgressToo() async throws {
        try await withSocketServer(Self.routes) { server in
            let task = HTTPClient(baseURL: server.baseURL).task(for: Request<Data>(path: "/no-location"))
            for await _ in task.progress {}
            do throws(HTTPError) {
                let response = try await task.response
                Issue.record("expected a status failure, got \(response.status)")
            } catch {
                #expect(error.status?.code == 302, "\(error)")
                #expect(error.attempts == 1)
            }
            #expect(server.log.requests.count == 1)
        }
    }
}
