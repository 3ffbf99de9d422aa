import Foundation
import Testing
import TetherAPIs
import TetherHTTP1
import TetherServer
import TetherSync

/// The client for Rakuten's 2026 gateway against the local server: the gateway's path and version, the access
/// key as a bearer token (never in the URL), `Origin`/`Referer`, and the gateway's error shape as a message.
@Suite struct RakutenGatewayClientTests {
    /// What the server saw: targets and headers.
    final class Seen: Sendable {
        let requests = Locked<[HTTPRequest]>([])
    }

    /// Records each request, then lets the real search (or `answer`) respond.
    struct Recording: HTTPResponder {
        let seen: Seen
        let search: RakutenSearchResponder
        let answer: (@Sendable (HTTPRequest) -> HTTPResponse?)?

        func respond(to request: HTTPRequest) async -> HTTPResponse? {
            seen.requests.withLock { $0.append(request) }
            if let answer, let response = answer(request) { return response }
            return await search.respond(to: request)
        }
    }

    private func withGateway<Value>(
        answer: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil, origins: Set<String>? = nil,
        _ body: (URL, Seen) async throws -> Value
    ) async throws -> Value {
        let seen = Seen()
        let search = RakutenSearchResponder(
            catalog: .builtIn, configuration: .init(rateLimit: nil, gatewayOrigins: origins))
        let server = HTTPServer(
            configuration: .init(shutdownGracePeriod: .milliseconds(200)),
            responders: [Recording(seen: seen, search: search, answer: answer)])
        let port = try await server.start()
        do {
            let value = try await body(URL(string: "http://127.0.0.1:\(port)")!, seen)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func searchesGoToTheGatewayWithTheKeyAsABearerToken() async throws {
        try await withGateway { base, seen in
            let client = HTTPClient.rakuten(
                applicationID: testApplicationID, accessKey: "pk_secret", origin: "https://shop.example", baseURL: base
            ) {
                $0.rateLimits = [:]
                $0.retryPolicy = .never
            }
            let page = try await client.send(RakutenItemSearch(keyword: "カメラ", hits: 3).request()).value
            #expect(page.items.count == 3)
            let request = try #require(seen.requests.withLock { $0.first })
            #expect(request.path == "/ichibams/api/IchibaItem/Search/20260701")
            #expect(request.queryItems.contains { $0.name == "applicationId" && $0.value == testApplicationID })
            #expect(!request.target.contains("pk_secret"))
            #expect(request.headers["Authorization"] == "Bearer pk_secret")
            #expect(request.headers["Origin"] == "https://shop.example")
            #expect(request.headers["Referer"] == "https://shop.example/")
        }
    }

    @Test func theGatewaysErrorShapeIsAClearMessage() async throws {
        let refused = HTTPResponse(
            status: HTTPStatus(code: 403),
            headers: ["Content-Type": "application/json"],
            body: Array(
                #"{"errors":{"errorCode":403,"errorMessage":"REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING"}}"#.utf8))
        let answer: @Sendable (HTTPRequest) -> HTTPResponse? = { _ in refused }
        try await withGateway(answer: answer) { base, _ in
            let client = HTTPClient.rakuten(applicationID: testApplicationID, accessKey: "pk_secret", baseURL: base) {
                $0.rateLimits = [:]
                $0.retryPolicy = .never
            }
            do throws(HTTPError) {
                _ = try await client.send(RakutenItemSearch(keyword: "カメラ").request())
                Issue.record("the search succeeded")
            } catch {
                #expect(error.message.contains("REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING"))
                guard case .status(let failure) = error.kind else {
                    Issue.record("not a status failure: \(error)")
                    return
                }
                let apiError = try #require(failure.apiError as? RakutenAPIError)
                #expect(apiError.code == "403")
                #expect(!"\(error)".contains("pk_secret"))
            }
        }
    }

    @Test func aWebApplicationNeedsItsOrigin() async throws {
        try await withGateway(origins: ["https://shop.example"]) { base, _ in
            func search(origin: String?) async -> Result<Int, HTTPError> {
                let client = HTTPClient.rakuten(
                    applicationID: testApplicationID, accessKey: "pk_1", origin: origin, baseURL: base
                ) {
                    $0.rateLimits = [:]
                    $0.retryPolicy = .never
                }
                do throws(HTTPError) {
                    return .success(
                        try await client.send(RakutenItemSearch(keyword: "カメラ", hits: 2).request()).value.items.count)
                } catch {
                    return .failure(error)
                }
            }
            let allowed = await search(origin: "https://shop.example")
            #expect((try? allowed.get()) == 2, "\(allowed)")
            guard case .failure(let error) = await search(origin: nil) else {
                Issue.record("a search without an origin succeeded")
                return
            }
            #expect(error.message.contains("REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING"))
            guard case .failure = await search(origin: "https://other.example") else {
                Issue.record("a search from another origin succeeded")
                return
            }
        }
    }
}
