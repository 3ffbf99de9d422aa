import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTestSupport

/// The HTTP cache case by case against servers that send exact caching headers, counting what reaches them.
@Suite("Cache over sockets", .timeLimit(.minutes(1)))
struct CacheOverSocketsTests {
    /// `{"n": <hit number>}` with `headers`.
    static func numbered(_ hit: Int, _ headers: HTTPHeaders) -> HTTPResponse {
        .json(text: #"{"n": \#(hit)}"#, headers: headers)
    }

    func client(_ server: SocketTestServer, cache: HTTPCache = HTTPCache()) -> HTTPClient {
        HTTPClient(baseURL: server.baseURL) { $0.cache = cache }
    }

    @Test func aFreshResponseIsServedWithoutAskingTheServer() async throws {
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "max-age=60"]) }
        try await withSocketServer(routes) { server in
            let client = client(server)
            let first = try await client.send(Request<JSON>(path: "/fresh"))
            let second = try await client.send(Request<JSON>(path: "/fresh"))
            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.attempts == 0)
            #expect(second.value["n"].int == 1)
            #expect(second.status.code == 200)
            #expect(server.log.count("/fresh") == 1)
        }
    }

    @Test func aStaleResponseIsRevalidatedWithItsETag() async throws {
        let routes: Routes = { request, hit in
            let headers: HTTPHeaders = ["Cache-Control": "max-age=0", "ETag": #""v1""#]
            if request.headers["If-None-Match"] == #""v1""# {
                return HTTPResponse(status: .notModified, headers: headers)
            }
            return Self.numbered(hit, headers)
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/tagged"))
            let second = try await client.send(Request<JSON>(path: "/tagged"))
            #expect(second.source == .revalidated)
            #expect(second.status.code == 200)
            #expect(second.value["n"].int == 1)
            #expect(second.attempts == 1)
            let requests = server.log.requests(for: "/tagged")
            #expect(requests.count == 2)
            #expect(requests.first?.headers["If-None-Match"] == nil)
            #expect(requests.last?.headers["If-None-Match"] == #""v1""#)
        }
    }

    @Test func aLastModifiedResponseIsRevalidatedWithItsDate() async throws {
        let date = "Tue, 01 Dec 2026 09:00:00 GMT"
        let routes: Routes = { request, hit in
            if request.headers["If-Modified-Since"] == date {
                return HTTPResponse(status: .notModified, headers: ["Last-Modified": date])
            }
            return Self.numbered(hit, ["Last-Modified": date])
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/dated"))
            let second = try await client.send(Request<JSON>(path: "/dated"))
            #expect(second.source == .revalidated)
            #expect(second.value["n"].int == 1)
            #expect(server.log.requests(for: "/dated").last?.headers["If-Modified-Since"] == date)
        }
    }

    @Test func aStaleResponseIsReplacedByA200() async throws {
        let routes: Routes = { _, hit in
            Self.numbered(hit, ["Cache-Control": "max-age=0", "ETag": #""v\#(hit)""#])
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/changing"))
            let second = try await client.send(Request<JSON>(path: "/changing"))
            #expect(second.source == .network)
            #expect(second.value["n"].int == 2)
            _ = try await client.send(Request<JSON>(path: "/changing"))
            let sent = server.log.requests(for: "/changing").map { $0.headers["If-None-Match"] }
            #expect(sent == [nil, #""v1""#, #""v2""#])
        }
    }

    @Test func jsonServerETagsRevalidateOverTheRealServer() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL) { $0.cache = HTTPCache() }
            let first = try await client.send(Request<SocketPost>(path: "/posts/1"))
            let second = try await client.send(Request<SocketPost>(path: "/posts/1"))
            #expect(first.source == .network)
            #expect(first.headers["ETag"] != nil)
            #expect(second.source == .revalidated)
            #expect(second.value == first.value)
        }
    }

    @Test func noStoreIsNeverStored() async throws {
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "no-store", "ETag": #""x""#]) }
        try await withSocketServer(routes) { server in
            let cache = HTTPCache()
            let client = client(server, cache: cache)
            let first = try await client.send(Request<JSON>(path: "/secret"))
            let second = try await client.send(Request<JSON>(path: "/secret"))
            #expect(first.source == .network && second.source == .network)
            #expect(second.value["n"].int == 2)
            #expect(server.log.requests(for: "/secret").allSatisfy { $0.headers["If-None-Match"] == nil })
            #expect(cache.memoryCost == 0)
            var cached = Request<JSON>(path: "/secret")
            cached.cachePolicy = .cacheOnly
            let error = try #require(await sendExpectingError(cached, on: client))
            guard case .notCached = error.kind else {
                Issue.record("expected notCached, got \(error)")
                return
            }
        }
    }

    @Test func aVaryMismatchMisses() async throws {
        let routes: Routes = { request, hit in
            .json(
                text: #"{"n": \#(hit), "lang": "\#(request.headers["Accept-Language"] ?? "")"}"#,
                headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"])
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            func get(_ language: String) async throws -> Response<JSON> {
                try await client.send(Request<JSON>(path: "/greeting", headers: ["Accept-Language": language]))
            }
            #expect(try await get("en").source == .network)
            #expect(try await get("en").source == .cache)
            let japanese = try await get("ja")
            #expect(japanese.source == .network)
            #expect(japanese.value["lang"].string == "ja")
            #expect(try await get("ja").source == .cache)
            #expect(server.log.count("/greeting") == 2)
        }
    }

    @Test func theDiskTierServesANewClient() async throws {
        let directory = try SocketScratchDirectory()
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "max-age=60"]) }
        try await withSocketServer(routes) { server in
            let first = HTTPCache(configuration: .init(directory: directory.url))
            let before = try await client(server, cache: first).send(Request<JSON>(path: "/kept"))
            #expect(before.source == .network)
            // Disk writes land in the background: flush before another cache opens the directory.
            first.flush()
            #expect(!directory.files.isEmpty)

            let after = try await client(server, cache: HTTPCache(configuration: .init(directory: directory.url)))
                .send(Request<JSON>(path: "/kept"))
            #expect(after.source == .cache)
            #expect(after.value["n"].int == 1)
            #expect(server.log.count("/kept") == 1)
        }
    }

    @Test func aCorruptDiskEntryIsDiscardedAndTheNetworkAsked() async throws {
        let directory = try SocketScratchDirectory()
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "max-age=60"]) }
        try await withSocketServer(routes) { server in
            // Each send goes through a new cache on the directory, flushed before the next one opens it (disk
            // writes land in the background).
            func send() async throws -> Response<JSON> {
                let cache = HTTPCache(configuration: .init(directory: directory.url))
                defer { cache.flush() }
                return try await client(server, cache: cache).send(Request<JSON>(path: "/fragile"))
            }
            _ = try await send()
            let files = directory.files
            try #require(!files.isEmpty)
            for file in files { try Data("garbage, not a cache entry\n".utf8).write(to: file) }

            let afterCorruption = try await send()
            #expect(afterCorruption.source == .network)
            #expect(afterCorruption.value["n"].int == 2)
            #expect(server.log.count("/fragile") == 2)

            // The new response replaced the corrupt file.
            let later = try await send()
            #expect(later.source == .cache)
            #expect(later.value["n"].int == 2)
        }
    }

    @Test func aSuccessfulWriteInvalidatesTheStoredResponse() async throws {
        let routes: Routes = { request, hit in
            request.method == .get
                ? Self.numbered(hit, ["Cache-Control": "max-age=60"]) : .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/notes/1"))
            #expect(try await client.send(Request<JSON>(path: "/notes/1")).source == .cache)
            _ = try await client.send(Request<JSON>(path: "/notes/1", method: .patch, body: .json(["t": "x"] as JSON)))
            let after = try await client.send(Request<JSON>(path: "/notes/1"))
            #expect(after.source == .network)
            #expect(server.log.requests(for: "/notes/1").map(\.method) == ["GET", "PATCH", "GET"])
        }
    }

    @Test func cachePoliciesOverAStaleEntry() async throws {
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "max-age=0", "ETag": #""e\#(hit)""#]) }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/policy"))
            var request = Request<JSON>(path: "/policy")

            request.cachePolicy = .returnCacheElseLoad
            let stale = try await client.send(request)
            #expect(stale.source == .cache)
            #expect(stale.value["n"].int == 1)

            request.cachePolicy = .cacheOnly
            #expect(try await client.send(request).source == .cache)
            #expect(server.log.count("/policy") == 1)

            request.cachePolicy = .reload
            let reloaded = try await client.send(request)
            #expect(reloaded.source == .network)
            #expect(reloaded.value["n"].int == 2)
            #expect(server.log.requests(for: "/policy").last?.headers["If-None-Match"] == nil)
        }
    }

    @Test func staleWhileRevalidateServesTheStaleOneAndRefreshesInTheBackground() async throws {
        let routes: Routes = { _, hit in
            hit == 1
                ? Self.numbered(hit, ["Cache-Control": "max-age=0", "ETag": #""v1""#])
                : Self.numbered(hit, ["Cache-Control": "max-age=60", "ETag": #""v2""#])
        }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/swr"))
            var request = Request<JSON>(path: "/swr")
            request.cachePolicy = .staleWhileRevalidate
            let stale = try await client.send(request)
            #expect(stale.source == .cache)
            #expect(stale.value["n"].int == 1)
            #expect(await server.log.wait(for: 2, on: "/swr"))
            #expect(server.log.requests(for: "/swr").last?.headers["If-None-Match"] == #""v1""#)
            // Once the background request has stored its answer, it is served fresh.
            let refreshed = await eventually {
                let value = try? await client.send(Request<JSON>(path: "/swr")).value["n"].int
                return value == 2
            }
            #expect(refreshed)
            #expect(server.log.count("/swr") == 2)
        }
    }

    @Test func aHEADIsAnsweredFromTheStoredGET() async throws {
        let routes: Routes = { _, hit in Self.numbered(hit, ["Cache-Control": "max-age=60"]) }
        try await withSocketServer(routes) { server in
            let client = client(server)
            _ = try await client.send(Request<JSON>(path: "/headed"))
            let head = try await client.send(Request<Void>(path: "/headed", method: .head))
            #expect(head.source == .cache)
            #expect(head.status.code == 200)
            #expect(server.log.count("/headed") == 1)
        }
    }
}
