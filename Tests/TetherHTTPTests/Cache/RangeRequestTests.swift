import Foundation
import Testing
import TetherHTTPTesting

@testable import TetherHTTP

/// Range requests and the cache (RFC 9111 §3.4, RFC 9110 §14): a stored complete response serves single byte
/// ranges as 206; a stored 206 serves the ranges it holds; a part never replaces a complete response nor answers a
/// request for the whole. (cache-tests: partial-store-*, partial-use-*.)
@Suite struct RangeRequestTests {
    func client(_ stub: StubTransport) -> HTTPClient {
        makeClient(stub) {
            $0.cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
            $0.retryPolicy = .never
            $0.acceptableStatuses = 200..<500
        }
    }

    func get(_ client: HTTPClient, range: String? = nil) async throws -> Response<Data> {
        try await client.send(Request<Data>(path: "/file", headers: range.map { ["Range": $0] } ?? [:]))
    }

    @Test(
        arguments: [
            ("bytes=0-1", "01", "bytes 0-1/11"), ("bytes=1-", "1234567890", "bytes 1-10/11"),
            ("bytes=-1", "0", "bytes 10-10/11"), ("bytes=3-3", "3", "bytes 3-3/11"),
            ("bytes=8-100", "890", "bytes 8-10/11"), ("BYTES = 0-1", nil, nil), ("bytes=20-", nil, nil),
            ("bytes=0-1, 3-4", nil, nil), ("items=0-1", nil, nil), ("bytes=2-1", nil, nil),
        ] as [(String, String?, String?)])
    func aStoredCompleteResponseServesOneByteRange(range: String, body: String?, contentRange: String?) async throws {
        let stub = StubTransport { request in
            request.headers["Range"] == nil
                ? StubResponse(
                    status: 200, headers: ["Cache-Control": "max-age=3600", "A": "1"], body: Data("01234567890".utf8))
                : StubResponse(status: 416, headers: [:], body: Data())
        }
        let client = client(stub)
        _ = try await get(client)
        let response = try await get(client, range: range)
        if let body {
            #expect(response.status.code == 206)
            #expect(response.source == .cache)
            #expect(String(decoding: response.data, as: UTF8.self) == body)
            #expect(response.headers["Content-Range"] == contentRange)
            #expect(response.headers["A"] == "1")
            #expect(stub.requests.count == 1)
        } else {
            #expect(response.source == .network)
            #expect(stub.requests.count == 2)
        }
    }

    @Test(
        arguments: [
            ("bytes=-5", "01234"), ("bytes=6-8", "234"), ("bytes=6-", "234"), ("bytes=-1", "4"), ("bytes=4-4", "0"),
            ("bytes=0-3", nil), ("bytes=-7", nil),
        ] as [(String, String?)])
    func aStoredPartServesTheRangesItHolds(range: String, body: String?) async throws {
        let stub = StubTransport { _ in
            StubResponse(
                status: 206, headers: ["Cache-Control": "max-age=3600", "Content-Range": "bytes 4-9/10"],
                body: Data("01234".utf8))
        }
        let client = client(stub)
        _ = try await get(client, range: "bytes=-5")
        let response = try await get(client, range: range)
        #expect((response.source == .cache) == (body != nil))
        if let body { #expect(String(decoding: response.data, as: UTF8.self) == body) }
        // A request for the whole representation is not answered with a part.
        let whole = try await get(client)
        #expect(whole.source == .network)
    }

    @Test func aPartNeverReplacesAStoredCompleteResponse() {
        let cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
        let url = URL(string: "https://api.example.com/v1/file")!
        cache.store(
            CachedResponse(
                status: 200, headers: ["Cache-Control": "max-age=3600"], body: Data("0123456789".utf8), url: url,
                requestTime: Date(), responseTime: Date()), method: .get, requestHeaders: [:])
        #expect(
            !cache.store(
                CachedResponse(
                    status: 206, headers: ["Cache-Control": "max-age=3600", "Content-Range": "bytes 0-1/10"],
                    body: Data("01".utf8), url: url, requestTime: Date(), responseTime: Date()), method: .get,
                requestHeaders: ["Range": "bytes=0-1"]))
        #expect(cache.lookup(method: .get, url: url, requestHeaders: [:], now: Date()).freshResponse?.body.count == 10)
        // A part without a usable Content-Range is not stored.
        let other = URL(string: "https://api.example.com/v1/other")!
        #expect(
            !cache.store(
                CachedResponse(
                    status: 206, headers: ["Cache-Control": "max-age=3600", "Content-Type": "multipart/byteranges"],
                    body: Data("--x".utf8), url: other, requestTime: Date(), responseTime: Date()), method: .get,
                requestHeaders: ["Range": "bytes=0-1, 4-5"]))
    }

    /// Parts of one representation (same strong ETag) are combined as they come; once they hold every byte the
    /// cache has the complete response.
    @Test func partsWithTheSameStrongETagAreCombinedIntoTheCompleteResponse() {
        let cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
        let url = URL(string: "https://api.example.com/v1/file")!
        func part(_ range: String, _ body: String, etag: String = #""v1""#) -> CachedResponse {
            CachedResponse(
                status: 206, headers: ["Cache-Control": "max-age=3600", "ETag": etag, "Content-Range": range],
                body: Data(body.utf8), url: url, requestTime: Date(), responseTime: Date())
        }
        func lookup(_ headers: HTTPHeaders = [:]) -> CachedResponse? {
            cache.lookup(method: .get, url: url, requestHeaders: headers, now: Date()).freshResponse
        }
        #expect(cache.store(part("bytes 0-3/10", "0123"), method: .get, requestHeaders: ["Range": "bytes=0-3"]))
        #expect(cache.store(part("bytes 4-6/10", "456"), method: .get, requestHeaders: ["Range": "bytes=4-6"]))
        #expect(lookup(["Range": "bytes=2-5"]).map { String(decoding: $0.body, as: UTF8.self) } == "2345")
        #expect(lookup() == nil)
        // A part of another version replaces the parts held, it is not mixed with them.
        #expect(cache.store(part("bytes 8-9/10", "XY", etag: #""v2""#), method: .get, requestHeaders: [:]))
        #expect(lookup(["Range": "bytes=0-1"]) == nil)
        #expect(cache.store(part("bytes 0-7/10", "abcdefgh", etag: #""v2""#), method: .get, requestHeaders: [:]))
        let complete = lookup()
        #expect(complete?.status == 200)
        #expect(complete.map { String(decoding: $0.body, as: UTF8.self) } == "abcdefghXY")
        #expect(complete?.headers["Content-Range"] == nil)
        // Weak validators never combine.
        let weak = URL(string: "https://api.example.com/v1/weak")!
        for (range, body) in [("bytes 0-4/10", "01234"), ("bytes 5-9/10", "56789")] {
            cache.store(
                CachedResponse(
                    status: 206,
                    headers: ["Cache-Control": "max-age=3600", "ETag": #"W/"w""#, "Content-Range": range],
                    body: Data(body.utf8), url: weak, requestTime: Date(), responseTime: Date()), method: .get,
                requestHeaders: [:])
        }
        #expect(cache.lookup(method: .get, url: weak, requestHeaders: [:], now: Date()).freshResponse == nil)
    }
}
