import Foundation
import Testing
import TetherHTTPTesting

@testable import TetherHTTP

/// Behaviours of the cache written from RFC 9111 and RFC 9110, each a rule the HTTP WG's cache-tests suite checks
/// too (its test ids in the comments), tested through the client over a stub transport.
@Suite struct CacheConformanceTests {
    static let lastModified = "Tue, 14 Nov 2023 20:00:00 GMT"

    func client(_ stub: StubTransport) -> HTTPClient {
        makeClient(stub) {
            $0.cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
            $0.acceptableStatuses = 100..<600
            $0.retryPolicy = .never
        }
    }

    // conditional-etag-strong-respond, conditional-304-etag, conditional-etag-weak-respond,
    // conditional-etag-strong-respond-multiple-*, conditional-etag-precedence (RFC 9111 §4.3.2, RFC 9110 §13.2.2)
    @Test(arguments: [
        (#""abc""#, #""abc""#, true), (#"W/"abc""#, #"W/"abc""#, true), (#""abc""#, #"W/"abc""#, true),
        (#""abc""#, #""1", "abc", "2""#, true), (#""abc""#, "*", true), (#""abc""#, #""abd""#, false),
        (#""abc""#, #""a,bc""#, false),
    ])
    func anIfNoneMatchTheStoredETagMeetsIsAnswered304FromTheCache(etag: String, ifNoneMatch: String, matches: Bool)
        async throws
    {
        let stub = StubTransport { _ in .json("{}", headers: ["Cache-Control": "max-age=600", "ETag": etag]) }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        // If-Modified-Since far in the past is ignored once If-None-Match is there.
        let response = try await client.send(
            Request<Data>(
                path: "/a",
                headers: ["If-None-Match": ifNoneMatch, "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(response.source == .cache)
        #expect(stub.requests.count == 1)
        #expect(response.status.code == (matches ? 304 : 200))
        if matches {
            #expect(response.data.isEmpty)
            #expect(response.headers["ETag"] == etag)
            #expect(response.headers["Content-Type"] == nil)
        }
    }

    // conditional-lm-fresh, conditional-lm-fresh-earlier, conditional-lm-fresh-rfc850
    @Test func anIfModifiedSinceNotEarlierThanLastModifiedIsAnswered304() async throws {
        let stub = StubTransport { _ in
            .json("{}", headers: ["Cache-Control": "max-age=600", "Last-Modified": Self.lastModified])
        }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        for since in [Self.lastModified, "Tuesday, 14-Nov-23 20:00:00 GMT", "Tue, 14 Nov 2023 21:00:00 GMT"] {
            let response = try await client.send(Request<Data>(path: "/a", headers: ["If-Modified-Since": since]))
            #expect(response.status.code == 304, "\(since)")
        }
        let earlier = try await client.send(
            Request<Data>(path: "/a", headers: ["If-Modified-Since": "Tue, 14 Nov 2023 19:59:59 GMT"]))
        #expect(earlier.status.code == 200)
        let invalid = try await client.send(Request<Data>(path: "/a", headers: ["If-Modified-Since": "yesterday"]))
        #expect(invalid.status.code == 200)
        #expect(stub.requests.count == 1)
    }

    // conditional-lm-stale: a stale response is validated with the server first, then the client's own condition
    // is answered from the confirmed response.
    @Test func aStaleResponseConfirmedByTheServerAnswersTheClientsConditionWith304() async throws {
        let stub = StubTransport { request in
            if request.headers["If-Modified-Since"] != nil {
                return .status(304, headers: ["Cache-Control": "max-age=0"])
            }
            return .json("{}", headers: ["Cache-Control": "max-age=0", "Last-Modified": Self.lastModified])
        }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        let response = try await client.send(
            Request<Data>(path: "/a", headers: ["If-Modified-Since": Self.lastModified]))
        #expect(response.status.code == 304)
        #expect(response.source == .revalidated)
        #expect(stub.requests.count == 2)
    }

    // A request that is not conditional still gets the body; a non-2xx is never turned into a 304.
    @Test func onlyAConditionalRequestForA2xxGetsA304() async throws {
        let stub = StubTransport { _ in
            .json("{}", status: 404, headers: ["Cache-Control": "max-age=600", "ETag": #""x""#])
        }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a"))
        let plain = try await client.send(Request<Data>(path: "/a"))
        #expect(plain.status.code == 404)
        let conditional = try await client.send(Request<Data>(path: "/a", headers: ["If-None-Match": #""x""#]))
        #expect(conditional.status.code == 404)
        #expect(conditional.source == .cache)
    }

    // vary-normalise-combine, vary-normalise-space, vary-normalise-lang-case, vary-normalise-lang-space
    @Test(arguments: [
        ("Foo", ["1, 2"], ["1", "2"], true), ("Foo", ["1,2"], [" 1, 2 "], true), ("Foo", ["a"], ["A"], false),
        ("Accept-Language", ["en, de"], ["eN, De"], true), ("Accept-Language", ["en, de"], [" en ,   de"], true),
        ("Accept-Language", ["en, de"], ["de, en"], false), ("Foo", [#""a,b", c"#], [#""a,b",c"#], true),
        ("Foo", ["1"], [], false),
    ])
    func equivalentValuesOfAVariedFieldMatchOneStoredResponse(
        field: String, stored: [String], asked: [String], matches: Bool
    ) async throws {
        let stub = StubTransport { _ in .json("{}", headers: ["Cache-Control": "max-age=600", "Vary": field]) }
        let client = client(stub)
        var first = HTTPHeaders()
        for value in stored { first.add(field, value) }
        _ = try await client.send(Request<Data>(path: "/a", headers: first))
        var second = HTTPHeaders()
        for value in asked { second.add(field, value) }
        let response = try await client.send(Request<Data>(path: "/a", headers: second))
        #expect((response.source == .cache) == matches)
    }

    // age-parse-suffix, age-parse-prefix: the first member of the first Age line is the age.
    @Test func theFirstMemberOfAgeIsTheAge() async throws {
        for (age, fresh) in [("7200, 0", false), ("0, 7200", true), ("7200", false), ("abc", true)] {
            let stub = StubTransport { _ in .json("{}", headers: ["Cache-Control": "max-age=3600", "Age": age]) }
            let client = client(stub)
            _ = try await client.send(Request<Data>(path: "/a"))
            let second = try await client.send(Request<Data>(path: "/a"))
            #expect((second.source == .cache) == fresh, "Age: \(age)")
        }
    }

    // method-POST (RFC 9110 §9.3.3): a POST response with explicit freshness and its own URL as Content-Location
    // answers a later GET; without either, the POST only invalidates.
    @Test(
        arguments: [
            (["Cache-Control": "max-age=3600", "Content-Location": "/v1/a"], true),
            (["Cache-Control": "max-age=3600", "Content-Location": "https://api.example.com/v1/a"], true),
            (["Cache-Control": "max-age=3600", "Content-Location": "/v1/b"], false),
            (["Content-Location": "/v1/a", "ETag": #""p""#], false),
        ] as [(HTTPHeaders, Bool)])
    func aFreshPostResponseForItsOwnURLAnswersALaterGet(headers: HTTPHeaders, reused: Bool) async throws {
        let stub = StubTransport { request in
            request.method == .post ? .json(#"{"posted": true}"#, headers: headers) : .json(#"{"got": true}"#)
        }
        let client = client(stub)
        _ = try await client.send(Request<Data>(path: "/a", method: .post, body: .data(Data("x".utf8))))
        let response = try await client.send(Request<Data>(path: "/a"))
        #expect((response.source == .cache) == reused)
        #expect(String(decoding: response.data, as: UTF8.self).contains("posted") == reused)
    }
}
