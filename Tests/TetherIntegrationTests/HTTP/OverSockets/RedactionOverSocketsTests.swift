import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTestSupport

/// Secrets (the Rakuten `applicationId`, `Authorization`, cookies) reach the server but never the texts a client
/// produces about requests: error descriptions and messages, ``ConsoleLogger`` lines, `curl` descriptions.
@Suite("Redaction over sockets", .timeLimit(.minutes(1)))
struct RedactionOverSocketsTests {
    static let applicationID = "app-id-7f3e9c"
    static let token = "token-51d0aa"
    static let searchPath = "/services/api/IchibaItem/Search/20220601"

    /// Every text the client produced, checked for the secrets.
    func expectNoSecrets(in texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!texts.isEmpty, sourceLocation: sourceLocation)
        for text in texts {
            #expect(!text.contains(Self.applicationID), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains(Self.token), "\(text)", sourceLocation: sourceLocation)
        }
    }

    func texts(of error: HTTPError) -> [String] {
        [error.description, error.message, "\(error)", error.request.description, error.request.url]
    }

    @Test func aFailedRakutenSearchKeepsTheApplicationIdOutOfErrorsAndLogs() async throws {
        try await withSocketApp { baseURL, _ in
            let lines = SocketLines()
            let client = HTTPClient(baseURL: baseURL) {
                $0.monitors = [lines.logger]
                $0.retryPolicy = .never
                $0.apiErrorDecoder = .json(RakutenErrorBody.self)
            }
            let request = Request<JSON>(
                path: Self.searchPath, query: [("applicationId", Self.applicationID), ("keyword", "")],
                headers: ["Authorization": "Bearer \(Self.token)"])
            let error = try #require(await sendExpectingError(request, on: client))
            #expect(error.status?.code == 400)
            #expect(error.request.url.contains("applicationId=<redacted>"))
            let curl = client.curlDescription(for: request)
            #expect(curl.contains("Authorization: <redacted>"))
            expectNoSecrets(in: texts(of: error) + lines.lines + [curl])
            #expect(lines.lines.contains { $0.hasPrefix("✗") && $0.contains("<redacted>") })
        }
    }

    @Test func aSuccessfulSearchLogsTheRequestWithoutTheApplicationId() async throws {
        try await withSocketApp { baseURL, _ in
            let lines = SocketLines()
            let client = HTTPClient(baseURL: baseURL) { $0.monitors = [lines.logger] }
            let request = Request<JSON>(
                path: Self.searchPath, query: [("applicationId", Self.applicationID), ("keyword", "tea")])
            let response = try await client.send(request)
            #expect(response.status.code == 200)
            expectNoSecrets(in: lines.lines + [client.curlDescription(for: request)])
            #expect(lines.lines.contains { $0.hasPrefix("✓") && $0.contains("applicationId=<redacted>") })
        }
    }

    @Test func retriesAndFailuresOverTheWireStayRedacted() async throws {
        let routes: Routes = { _, hit in
            hit == 1
                ? .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "0"])
                : .json(text: #"{"error": "nope"}"#, status: .forbidden)
        }
        try await withSocketServer(routes) { server in
            let lines = SocketLines()
            let client = HTTPClient(baseURL: server.baseURL) { $0.monitors = [lines.logger] }
            let request = Request<Data>(
                path: "/search", query: [("applicationId", Self.applicationID), ("page", "2")],
                headers: ["Authorization": "Bearer \(Self.token)", "Cookie": "session=\(Self.token)"])
            let error = try #require(await sendExpectingError(request, on: client))
            #expect(error.status?.code == 403)
            #expect(lines.lines.contains { $0.hasPrefix("↻") })
            expectNoSecrets(in: texts(of: error) + lines.lines + [client.curlDescription(for: request)])
            // The secrets did go out, twice.
            let received = server.log.requests(for: "/search")
            #expect(received.count == 2)
            #expect(received.allSatisfy { $0.target.contains(Self.applicationID) })
            #expect(received.allSatisfy { $0.headers["Authorization"] == "Bearer \(Self.token)" })
        }
    }

    /// A transport failure for a request whose URL carries the application id, and the logger's lines.
    func transportFailure() async throws -> (HTTPError, [String]) {
        let port = try closedLoopbackPort()
        let lines = SocketLines()
        let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!) {
            $0.monitors = [lines.logger]
            $0.retryPolicy = .never
        }
        let request = Request<Data>(path: "/search", query: [("applicationId", Self.applicationID)])
        let error = try #require(await sendExpectingError(request, on: client))
        #expect(error.isTransport)
        return (error, lines.lines)
    }

    @Test func aTransportErrorsSummaryAndMessageKeepTheApplicationIdOut() async throws {
        let (error, _) = try await transportFailure()
        expectNoSecrets(in: [error.message, error.request.description, error.request.url])
    }

    @Test
    func aTransportErrorsDescriptionAndLogLinesKeepTheApplicationIdOut() async throws {
        let (error, lines) = try await transportFailure()
        expectNoSecrets(in: [error.description, "\(error)"] + lines)
    }

    @Test func aDecoratorsSecretReachesTheServerButNotTheLogs() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let lines = SocketLines()
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.monitors = [lines.logger]
                $0.interceptors = [
                    RequestDecorator.queryItem("applicationId", Self.applicationID),
                    RequestDecorator.header("Authorization", "Bearer \(Self.token)"),
                ]
            }
            _ = try await client.send(Request<Data>(path: "/decorated", query: [("keyword", "tea")]))
            expectNoSecrets(in: lines.lines)
            let received = try #require(server.log.requests(for: "/decorated").first)
            #expect(received.target == "/decorated?keyword=tea&applicationId=\(Self.applicationID)")
            #expect(received.headers["Authorization"] == "Bearer \(Self.token)")
        }
    }
}
