import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The read cache: repeated reads are served from the bytes computed first, and every write starts afresh.
@Suite("Server: reads cached per database version")
struct ServerReadCacheTests {
    static func makeResponder() throws -> JSONServerResponder {
        var posts: [JSON] = []
        for id in 1...25 { posts.append(["id": .number(.init(id)), "title": .string("post \(id)")]) }
        let database = try JSONDatabase(["posts": .array(posts), "profile": ["name": "typicode"]])
        return JSONServerResponder(database: database)
    }

    @Test func aRepeatedReadIsServedFromTheCacheWithTheSameBytesAndTag() async throws {
        let responder = try Self.makeResponder()
        let first = try await responder.get("/posts/1")
        let entries = responder.database.snapshot.reads.count
        let second = try await responder.get("/posts/1")
        #expect(first.status == 200)
        #expect(second.body == first.body)
        #expect(second["ETag"] == first["ETag"])
        #expect(entries == 1)
        #expect(responder.database.snapshot.reads.count == 1)
        _ = try await responder.get("/posts?_page=2")
        _ = try await responder.get("/posts/999")
        #expect(responder.database.snapshot.reads.count == 3)
    }

    @Test func aWriteInvalidatesTheCachedItemAndPages() async throws {
        let responder = try Self.makeResponder()
        let before = try await responder.get("/posts/1")
        let pageBefore = try await responder.get("/posts?_page=1")
        let patched = try await responder.send(.patch, "/posts/1", body: #"{"title": "changed"}"#)
        #expect(patched.status == 200)
        #expect(responder.database.snapshot.reads.count == 0)
        let after = try await responder.get("/posts/1")
        let pageAfter = try await responder.get("/posts?_page=1")
        #expect(after.json?["title"].string == "changed")
        #expect(after["ETag"] != before["ETag"])
        #expect(after["ETag"] == patched["ETag"])
        #expect(pageAfter.json?[0]["title"].string == "changed")
        #expect(pageAfter["ETag"] != pageBefore["ETag"])
        // A singular resource too.
        _ = try await responder.get("/profile")
        _ = try await responder.send(.put, "/profile", body: #"{"name": "other"}"#)
        #expect(try await responder.get("/profile").json?["name"].string == "other")
    }

    @Test func theHostIsPartOfTheKeyBecauseLinkURLsRepeatIt() async throws {
        let responder = try Self.makeResponder()
        let one = try await responder.send(.get, "/posts?_page=2", host: "one.test")
        let two = try await responder.send(.get, "/posts?_page=2", host: "two.test")
        #expect(one["Link"]?.contains("http://one.test/posts?_page=1") == true)
        #expect(two["Link"]?.contains("http://two.test/posts?_page=1") == true)
        #expect(responder.database.snapshot.reads.count == 2)
    }

    @Test func theCacheEmptiesItselfInsteadOfGrowingPastItsBounds() {
        let cache = ReadCache()
        let response = HTTPResponse(body: Array("{}".utf8))
        for index in 0..<ReadCache.maximumEntries { cache.store(response, for: "/posts/\(index)") }
        #expect(cache.count == ReadCache.maximumEntries)
        #expect(cache.response(for: "/posts/0") != nil)
        cache.store(response, for: "/one/more")
        #expect(cache.count == 1)
        #expect(cache.response(for: "/posts/0") == nil)
        #expect(cache.response(for: "/one/more")?.bodyBytes == Array("{}".utf8))

        let big = HTTPResponse(body: [UInt8](repeating: 0, count: ReadCache.maximumBytes / 2 + 1))
        cache.store(big, for: "a")
        cache.store(big, for: "b")  // over the byte limit: the cache starts again with this one
        #expect(cache.count == 1)
        #expect(cache.response(for: "b") != nil)
        cache.store(HTTPResponse(body: [UInt8](repeating: 0, count: ReadCache.maximumBytes + 1)), for: "huge")
        #expect(cache.response(for: "huge") == nil)
    }
}
