import Foundation
import Testing
import TetherHTTPTesting
import TetherSync

@testable import TetherHTTP

/// RFC 5861 in the client: `stale-while-revalidate` and `stale-if-error` from the response's own headers, the
/// client's `maximumStaleOnError`, and the flags on `Response` that say what was served.
@Suite struct StaleResponseTests {
    /// A stub that answers the first GET with `headers` and every later one as `later` says.
    func stub(_ headers: HTTPHeaders, later: @escaping @Sendable () -> StubResponse) -> StubTransport {
        let calls = Locked(0)
        return StubTransport { _ in
            let call = calls.withLock { value -> Int in
                value += 1
                return value
            }
            return call == 1 ? .json(#"{"v": 1}"#, headers: headers) : later()
        }
    }

    func client(_ stub: StubTransport, maximumStaleOnError: Duration? = nil) -> HTTPClient {
        makeClient(stub) {
            $0.cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
            $0.retryPolicy = .never
            $0.maximumStaleOnError = maximumStaleOnError
        }
    }

    @Test func withinStaleWhileRevalidateTheStoredResponseComesAtOnceAndOneRevalidationRefreshesIt() async throws {
        let stub = stub(["Cache-Control": "max-age=0, stale-while-revalidate=600", "ETag": #""1""#]) {
            .json(#"{"v": 2}"#, headers: ["Cache-Control": "max-age=600", "ETag": #""2""#])
        }
        let client = client(stub)
        let first = try await client.send(Request<Data>(path: "/a"))
        #expect(!first.isStale && !first.isRevalidating && first.source == .network)
        let second = try await client.send(Request<Data>(path: "/a"))
        #expect(second.source == .cache)
        #expect(second.isStale)
        #expect(second.isRevalidating)
        #expect(second.data == Data(#"{"v": 1}"#.utf8))
        #expect(second.headers["Age"] != nil)
        // The background revalidation lands; the next request is served its fresh result from the cache.
        try await client.waitUntilFresh()
        let third = try await client.send(Request<Data>(path: "/a"))
        #expect(third.data == Data(#"{"v": 2}"#.utf8))
        #expect(!third.isStale)
        #expect(stub.requests.count == 2)
        #expect(stub.requests[1].headers["If-None-Match"] == #""1""#)
    }

    @Test func aBurstOfStaleHitsStartsOneRevalidation() async throws {
        let released = Locked(false)
        let calls = Locked(0)
        let stub = StubTransport { _ in
            let call = calls.withLock { value -> Int in
                value += 1
                return value
            }
            if call == 1 {
                return .json(
                    "{}", headers: ["Cache-Control": "max-age=0, stale-while-revalidate=600", "ETag": #""1""#])
            }
            // The revalidation waits until the burst is over.
            while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
            return .status(304, headers: ["Cache-Control": "max-age=600", "ETag": #""1""#])
        }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        for _ in 0..<20 {
            let response = try await client.send(Request<Data>(path: "/a"))
            #expect(response.isStale && response.isRevalidating)
        }
        released.withLock { $0 = true }
        try await client.waitUntilFresh()
        #expect(stub.requests.count == 2)
        let fresh = try await client.send(Request<Data>(path: "/a"))
        #expect(!fresh.isStale && !fresh.isRevalidating)
    }

    @Test(arguments: [503, 500, 502, 504])
    func withinStaleIfErrorAServerErrorIsAnsweredWithTheStoredResponse(status: Int) async throws {
        let stub = stub(["Cache-Control": "max-age=0, stale-if-error=600"]) { .status(status) }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        let response = try await client.send(Request<Data>(path: "/a"))
        #expect(response.status.code == 200)
        #expect(response.isStale)
        #expect(!response.isRevalidating)
        #expect(response.source == .cache)
        #expect(response.attempts == 1)
        #expect(stub.requests.count == 2)
    }

    @Test func withinStaleIfErrorNoAnswerIsAnsweredWithTheStoredResponse() async throws {
        let stub = stub(["Cache-Control": "max-age=0, stale-if-error=600"]) {
            .failure(URLError(.cannotConnectToHost))
        }
        let response = try await client(stub).sendTwice()
        #expect(response.isStale)
        #expect(response.data == Data(#"{"v": 1}"#.utf8))
    }

    @Test func otherFailuresAndOtherStatusesAreNotHidden() async throws {
        // A 404 is an answer, not a failure of the server.
        let notFound = stub(["Cache-Control": "max-age=0, stale-if-error=600"]) { .status(404) }
        await #expect(throws: HTTPError.self) { try await client(notFound).sendTwice() }
        // Outside the window.
        let expired = stub(["Cache-Control": "max-age=0, stale-if-error=0", "Age": "100"]) { .status(503) }
        await #expect(throws: HTTPError.self) { try await client(expired).sendTwice() }
    }

    @Test(arguments: ["must-revalidate", "no-cache"])
    func mustRevalidateAndNoCacheAreNeverServedStale(directive: String) async throws {
        let failing = stub([
            "Cache-Control": "max-age=0, stale-if-error=600, stale-while-revalidate=600, \(directive)",
            "ETag": #""1""#,
        ]) { .failure(URLError(.cannotConnectToHost)) }
        await #expect(throws: HTTPError.self) {
            try await client(failing, maximumStaleOnError: .seconds(3600)).sendTwice()
        }
    }

    @Test func theClientsMaximumStaleOnErrorServesAnyStoredResponseWithinIt() async throws {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=0", "ETag": #""1""#]
        let without = stub(headers) { .failure(URLError(.cannotConnectToHost)) }
        await #expect(throws: HTTPError.self) { try await client(without).sendTwice() }
        let within = stub(headers) { .status(502) }
        let response = try await client(within, maximumStaleOnError: .seconds(3600)).sendTwice()
        #expect(response.isStale)
        #expect(response.status.code == 200)
        let beyond = stub(["Cache-Control": "max-age=0", "ETag": #""1""#, "Age": "7200"]) { .status(502) }
        await #expect(throws: HTTPError.self) {
            try await client(beyond, maximumStaleOnError: .seconds(3600)).sendTwice()
        }
    }
}

extension HTTPClient {
    /// Waits (up to 30 s) until the cache holds a fresh response for GET /a: a background revalidation landed.
    fileprivate func waitUntilFresh() async throws {
        let cache = try #require(configuration.cache)
        let url = URL(string: stubBase.absoluteString + "/a")!
        let deadline = ContinuousClock.now + .seconds(30)
        while cache.lookup(method: .get, url: url, requestHeaders: [:], now: Date()).freshResponse == nil,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Sends GET /a twice and returns the second response.
    fileprivate func sendTwice() async throws -> Response<Data> {
        _ = try await send(Request<Data>(path: "/a"))
        return try await send(Request<Data>(path: "/a"))
    }
}
