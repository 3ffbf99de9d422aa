import Foundation
import Testing

@testable import TetherHTTP

@Suite struct HTTPCacheRefreshTests {
    let cache = HTTPCache.memoryOnly()
    let original = cachedResponse(
        [
            "Cache-Control": "max-age=10", "ETag": #""v1""#, "Content-Type": "application/json",
            "Content-Length": "8", "X-Old": "kept", "X-Multi": "a", "x-multi": "b",
        ],
        body: #"{"id":1}"#)

    @Test func a304MergesNewHeadersKeepsTheBodyAndRenewsFreshness() throws {
        #expect(cache.store(original, method: .get, requestHeaders: [:]))
        let stale = try #require(cache.get(at: cacheTime(20)).staleResponse)
        let notModified: HTTPHeaders = [
            "Cache-Control": "max-age=100", "ETag": #""v2""#, "Date": HTTPDateParser.format(cacheTime(21)),
            "Content-Length": "0", "X-Multi": "c", "X-New": "added", "Connection": "close",
        ]

        let merged = cache.refresh(
            stale, with: notModified, method: .get, requestHeaders: [:], requestTime: cacheTime(20),
            responseTime: cacheTime(21))

        #expect(merged.body == original.body)
        #expect(merged.status == 200)
        #expect(merged.headers["Cache-Control"] == "max-age=100")
        #expect(merged.headers["ETag"] == #""v2""#)
        #expect(merged.headers["Date"] == HTTPDateParser.format(cacheTime(21)))
        #expect(merged.headers.values(for: "X-Multi") == ["c"])
        #expect(merged.headers["X-Old"] == "kept")
        #expect(merged.headers["X-New"] == "added")
        #expect(merged.headers["Content-Type"] == "application/json")
        #expect(merged.headers["Content-Length"] == "8")
        #expect(merged.headers["Connection"] == nil)
        #expect(merged.requestTime == cacheTime(20))
        #expect(merged.responseTime == cacheTime(21))

        // The response delay (1 s) counts towards its age: fresh until 120, not 121.
        #expect(cache.get(at: cacheTime(119)).freshResponse == merged.aged(99))
        #expect(cache.get(at: cacheTime(120)).validators == ["If-None-Match": #""v2""#])
    }

    @Test func a304WithNoStoreRemovesTheEntryButIsStillServed() throws {
        #expect(cache.store(original, method: .get, requestHeaders: [:]))
        let stale = try #require(cache.get(at: cacheTime(20)).staleResponse)
        let merged = cache.refresh(
            stale, with: ["Cache-Control": "no-store"], method: .get, requestHeaders: [:], requestTime: cacheTime(20),
            responseTime: cacheTime(20))
        #expect(merged.body == original.body)
        #expect(cache.get(at: cacheTime(20)).isMiss)
    }

    @Test func aHeadRevalidationRefreshesTheStoredGet() throws {
        #expect(cache.store(original, method: .get, requestHeaders: [:]))
        let lookup = cache.lookup(method: .head, url: cacheTestURL, requestHeaders: [:], now: cacheTime(30))
        let stale = try #require(lookup.staleResponse)
        _ = cache.refresh(
            stale, with: ["Date": HTTPDateParser.format(cacheTime(30))], method: .head, requestHeaders: [:],
            requestTime: cacheTime(30), responseTime: cacheTime(30))
        #expect(cache.get(at: cacheTime(35)).freshResponse?.body == original.body)
    }

    @Test func refreshRecordsTheNewRequestsVaryValues() throws {
        let varying = cachedResponse(["Cache-Control": "max-age=10", "ETag": #""v""#, "Vary": "Accept-Language"])
        #expect(cache.store(varying, method: .get, requestHeaders: ["Accept-Language": "en"]))
        let stale = try #require(cache.get(["Accept-Language": "en"], at: cacheTime(11)).staleResponse)
        _ = cache.refresh(
            stale, with: ["Date": HTTPDateParser.format(cacheTime(11))], method: .get,
            requestHeaders: ["Accept-Language": "ja"], requestTime: cacheTime(11), responseTime: cacheTime(11))
        #expect(cache.get(["Accept-Language": "ja"], at: cacheTime(12)).freshResponse != nil)
        #expect(cache.get(["Accept-Language": "en"], at: cacheTime(12)).isMiss)
    }
}

@Suite struct HTTPCacheInvalidationTests {
    let cache = HTTPCache.memoryOnly()
    let list = URL(string: "http://127.0.0.1:8080/posts")!
    let other = URL(string: "http://example.com/posts/1")!

    func storeAll() {
        for url in [cacheTestURL, list, other] {
            #expect(
                cache.store(
                    cachedResponse(["Cache-Control": "max-age=60"], url: url), method: .get, requestHeaders: [:]))
        }
    }

    func isStored(_ url: URL) -> Bool { cache.get(url: url, at: cacheTime(1)).freshResponse != nil }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, "PURGE"])
    func unsafeMethodsWithSuccessInvalidateTheTarget(method: HTTPMethod) {
        storeAll()
        cache.invalidate(afterResponseTo: method, url: cacheTestURL, status: 200, headers: [:])
        #expect(!isStored(cacheTestURL))
        #expect(isStored(list))
    }

    @Test func locationAndContentLocationOfTheSameOriginAreInvalidatedToo() {
        storeAll()
        cache.invalidate(
            afterResponseTo: .post, url: list, status: 201,
            headers: ["Location": "/posts/1", "Content-Location": "http://example.com/posts/1"])
        #expect(!isStored(list))
        #expect(!isStored(cacheTestURL))
        #expect(isStored(other))
    }

    @Test(arguments: [400, 404, 409, 500, 503])
    func failedUnsafeRequestsInvalidateNothing(status: Int) {
        storeAll()
        cache.invalidate(afterResponseTo: .delete, url: cacheTestURL, status: status, headers: [:])
        #expect(isStored(cacheTestURL))
    }

    @Test(arguments: [HTTPMethod.get, .head, .options, "TRACE"])
    func safeMethodsInvalidateNothing(method: HTTPMethod) {
        storeAll()
        cache.invalidate(afterResponseTo: method, url: cacheTestURL, status: 200, headers: [:])
        #expect(isStored(cacheTestURL))
    }

    @Test func invalidateAndRemoveResponsesAndRemoveAll() {
        storeAll()
        cache.invalidate(url: cacheTestURL)
        #expect(!isStored(cacheTestURL))
        cache.removeResponses(for: list)
        #expect(!isStored(list))
        #expect(isStored(other))
        cache.removeAll()
        #expect(!isStored(other))
        #expect(cache.memoryCost == 0)
    }
}
