import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer

/// Per-host rate limits: callers queue for their turn, so a server that enforces a rate never answers 429.
@Suite("Rate limit over sockets", .timeLimit(.minutes(1)))
struct RateLimitOverSocketsTests {
    static let searchPath = "/services/api/IchibaItem/Search/20220601"

    static func search(_ applicationID: String, keyword: String) -> Request<JSON> {
        Request<JSON>(path: searchPath, query: [("applicationId", applicationID), ("keyword", keyword)])
    }

    @Test func threeRequestsAtFivePerSecondAreSpaced() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.rateLimits["127.0.0.1"] = .perSecond(5) }
            let start = ContinuousClock.now
            let results = await client.send(all: (1...3).map { Request<Data>(path: "/item/\($0)") })
            let waits = try results.map { try $0.get().metrics.rateLimitWait }.sorted()
            #expect(waits[0] == .zero, "the first caller finds a token")
            // Turns come 200 ms apart from the first one, which came after `start`; requests arrive in the order
            // of their turns.
            let waitByPath = Dictionary(
                uniqueKeysWithValues: try results.map { result in
                    let response = try result.get()
                    return (response.url.path, response.metrics.rateLimitWait)
                })
            let arrived = server.log.requests.sorted { $0.arrival < $1.arrival }
            try #require(arrived.count == 3)
            #expect(arrived[2].arrival - start >= .milliseconds(400))
            #expect(arrived.map { waitByPath[$0.path] } == waits.map { Optional($0) })
        }
    }

    @Test func aLimitForAnotherHostDoesNotDelay() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.rateLimits["api.example.com"] = RateLimit(requests: 1, per: .seconds(30))
            }
            let results = await client.send(all: (1...3).map { Request<Data>(path: "/item/\($0)") })
            let waits = try results.map { try $0.get().metrics.rateLimitWait }
            #expect(waits == [.zero, .zero, .zero])
        }
    }

    @Test func withoutAClientLimitTheRakutenServerAnswers429() async throws {
        try await withSocketApp(rakutenRateLimit: true) { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL) {
                $0.retryPolicy = .never
                $0.apiErrorDecoder = .json(RakutenErrorBody.self)
            }
            let results = await client.send(all: [
                Self.search("limit-test", keyword: "tea"), Self.search("limit-test", keyword: "coffee"),
            ])
            let failures = results.compactMap { result -> HTTPError? in
                if case .failure(let error) = result { return error }
                return nil
            }
            #expect(failures.count == 1)
            #expect(failures.first?.status?.code == 429)
            #expect((failures.first?.statusFailure?.apiError as? RakutenErrorBody)?.error == "too_many_requests")
        }
    }

    @Test func callersWaitForTheirTurnInsteadOfGetting429() async throws {
        // The server admits one request per 100 ms per application; the client spaces them 1.5 s apart, so a
        // request may arrive up to 1.4 s late (a loaded machine, a first connection under ThreadSanitizer) and
        // still find its turn.
        try await withRakutenSearch(rateLimit: .milliseconds(100)) { baseURL in
            let client = HTTPClient(baseURL: baseURL) {
                $0.retryPolicy = .never
                $0.rateLimits["127.0.0.1"] = RateLimit(requests: 1, per: .milliseconds(1500))
            }
            let keywords = ["tea", "coffee", "rice"]
            let results = await client.send(all: keywords.map { Self.search("patient-app", keyword: $0) })
            for result in results {
                let response = try result.get()
                #expect(response.status.code == 200)
                #expect(response.value["count"].int != nil)
            }
        }
    }

    @Test func aRetryWaitsForItsTurnToo() async throws {
        let routes: Routes = { _, hit in
            hit == 1
                ? .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "0"])
                : .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.rateLimits["127.0.0.1"] = RateLimit(requests: 1, per: .seconds(2))
            }
            let start = ContinuousClock.now
            let response = try await client.send(Request<Data>(path: "/again"))
            #expect(response.attempts == 2)
            // The retry's turn comes 2 s after the first attempt's, which came after `start`.
            let arrivals = server.log.requests(for: "/again").map(\.arrival)
            try #require(arrivals.count == 2)
            #expect(arrivals[1] - start >= .seconds(2))
        }
    }
}

/// Serves Rakuten item search alone (a small catalog) with the given per-application rate limit on an ephemeral
/// port; runs `body` with its base URL and stops it, also when `body` throws.
private func withRakutenSearch<Value>(
    rateLimit: Duration, _ body: (URL) async throws -> Value
) async throws -> Value {
    let search = RakutenSearchResponder(
        catalog: RakutenCatalog(count: 200), configuration: .init(rateLimit: rateLimit))
    let server = HTTPServer(configuration: .init(shutdownGracePeriod: .milliseconds(200)), responders: [search])
    let port = try await server.start()
    let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
    do {
        let value = try await body(baseURL)
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}
