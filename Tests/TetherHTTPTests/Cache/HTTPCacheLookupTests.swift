import Foundation
import Testing

@testable import TetherHTTP

@Suite struct HTTPCacheLookupTests {
    let cache = HTTPCache.memoryOnly()

    @Test func nothingStoredIsAMiss() {
        #expect(cache.get(at: cacheTime(0)).isMiss)
    }

    @Test func freshByMaxAgeUntilTheLifetimeEnds() throws {
        let response = cachedResponse(["Cache-Control": "max-age=60"])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).freshResponse == response.aged(0))
        #expect(cache.get(at: cacheTime(59.5)).freshResponse == response.aged(59))
        #expect(cache.get(at: cacheTime(60)).staleResponse == response)
    }

    @Test func freshByExpiresAndDate() {
        let response = cachedResponse(["Expires": HTTPDateParser.format(cacheTime(30))])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(29)).freshResponse != nil)
        #expect(cache.get(at: cacheTime(31)).staleResponse != nil)
    }

    @Test func theAgeHeaderShortensTheRemainingFreshness() {
        let response = cachedResponse(["Cache-Control": "max-age=60", "Age": "50"])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(9)).freshResponse != nil)
        #expect(cache.get(at: cacheTime(11)).staleResponse != nil)
    }

    @Test func freshResponsesAreServedWithTheirCurrentAgeAndTheStoredOneIsUnchanged() throws {
        let response = cachedResponse(["Cache-Control": "max-age=600", "Age": "100"])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        let served = try #require(cache.get(at: cacheTime(20)).freshResponse)
        #expect(served.headers.values(for: "Age") == ["120"])
        #expect(cache.get(["Cache-Control": "no-cache"], at: cacheTime(20)).staleResponse == response)
    }

    @Test func staleResponsesCarryTheirValidators() {
        let lastModified = HTTPDateParser.format(cacheTime(-500))
        let response = cachedResponse(["Cache-Control": "max-age=10", "ETag": #""v1""#, "Last-Modified": lastModified])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        let lookup = cache.get(at: cacheTime(11))
        #expect(lookup.staleResponse == response)
        #expect(lookup.validators == ["If-None-Match": #""v1""#, "If-Modified-Since": lastModified])
    }

    @Test func onlyLastModifiedGivesIfModifiedSince() {
        let lastModified = HTTPDateParser.format(cacheTime(-500))
        #expect(cache.store(cachedResponse(["Last-Modified": lastModified]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).validators == ["If-Modified-Since": lastModified])
    }

    @Test func aStaleEntryWithoutValidatorsIsStaleWithEmptyValidators() {
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=5"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(6)).validators == [:])
    }

    @Test func responseNoStoreIsNotStored() {
        #expect(
            !cache.store(cachedResponse(["Cache-Control": "no-store, max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).isMiss)
    }

    @Test func requestNoStoreIsNeitherStoredNorAnswered() {
        let noStore: HTTPHeaders = ["Cache-Control": "no-store"]
        #expect(!cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: noStore))
        #expect(cache.get(at: cacheTime(0)).isMiss)
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(noStore, at: cacheTime(0)).isMiss)
        #expect(cache.get(at: cacheTime(0)).freshResponse != nil)
    }

    @Test func responseNoCacheIsAlwaysRevalidated() {
        let response = cachedResponse(["Cache-Control": "no-cache, max-age=600", "ETag": #""n""#])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).validators == ["If-None-Match": #""n""#])
        #expect(cache.get(["Cache-Control": "max-stale"], at: cacheTime(0)).validators != nil)
    }

    @Test func responseNoCacheWithoutValidatorsIsNotStored() {
        #expect(
            !cache.store(cachedResponse(["Cache-Control": "no-cache, max-age=600"]), method: .get, requestHeaders: [:]))
    }

    @Test func requestNoCacheAndMaxAgeZeroForceRevalidation() {
        #expect(
            cache.store(
                cachedResponse(["Cache-Control": "max-age=600", "ETag": #""e""#]), method: .get, requestHeaders: [:]))
        #expect(cache.get(["Cache-Control": "no-cache"], at: cacheTime(1)).validators == ["If-None-Match": #""e""#])
        #expect(cache.get(["Pragma": "no-cache"], at: cacheTime(1)).staleResponse != nil)
        #expect(cache.get(["Cache-Control": "max-age=0"], at: cacheTime(0)).staleResponse != nil)
        #expect(cache.get(["Cache-Control": "max-age=10"], at: cacheTime(5)).freshResponse != nil)
        #expect(cache.get(["Cache-Control": "max-age=10"], at: cacheTime(15)).staleResponse != nil)
        #expect(cache.get(["Cache-Control": "min-fresh=100"], at: cacheTime(550)).staleResponse != nil)
        #expect(cache.get(at: cacheTime(550)).freshResponse != nil)
    }

    @Test func maxStaleAcceptsStaleUnlessMustRevalidate() {
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=10"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(["Cache-Control": "max-stale=5"], at: cacheTime(14)).freshResponse != nil)
        #expect(cache.get(["Cache-Control": "max-stale=5"], at: cacheTime(16)).staleResponse != nil)
        #expect(cache.get(["Cache-Control": "max-stale"], at: cacheTime(10_000)).freshResponse != nil)

        let strict = cachedResponse(["Cache-Control": "max-age=10, must-revalidate", "ETag": #""m""#])
        #expect(cache.store(strict, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(5)).freshResponse != nil)
        #expect(cache.get(["Cache-Control": "max-stale"], at: cacheTime(11)).validators == ["If-None-Match": #""m""#])
    }

    @Test func privateResponsesAreStoredAndSharedCacheMaxAgeIsIgnored() {
        #expect(
            cache.store(
                cachedResponse(["Cache-Control": "private, max-age=60, s-maxage=0"]), method: .get, requestHeaders: [:])
        )
        #expect(cache.get(at: cacheTime(30)).freshResponse != nil)
    }

    @Test func varyMatchesOnTheNamedRequestHeaders() {
        let response = cachedResponse(["Cache-Control": "max-age=60", "Vary": "Accept-Language, accept"])
        let english: HTTPHeaders = ["Accept-Language": "en", "Accept": "application/json"]
        #expect(cache.store(response, method: .get, requestHeaders: english))
        #expect(
            cache.get(["accept-language": " en ", "ACCEPT": "application/json", "X-Other": "1"], at: cacheTime(1))
                .freshResponse != nil)
        #expect(cache.get(["Accept-Language": "ja", "Accept": "application/json"], at: cacheTime(1)).isMiss)
        #expect(cache.get(["Accept": "application/json"], at: cacheTime(1)).isMiss)
    }

    @Test func varyOnAHeaderTheRequestLackedMatchesOnlyRequestsLackingIt() {
        let response = cachedResponse(["Cache-Control": "max-age=60", "Vary": "Authorization"])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(1)).freshResponse != nil)
        #expect(cache.get(["Authorization": "Bearer x"], at: cacheTime(1)).isMiss)
    }

    @Test func aResponseVaryingDifferentlyReplacesTheStoredOne() {
        let vary: HTTPHeaders = ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]
        #expect(cache.store(cachedResponse(vary, body: "en"), method: .get, requestHeaders: ["Accept-Language": "en"]))
        #expect(cache.store(cachedResponse(vary, body: "ja"), method: .get, requestHeaders: ["Accept-Language": "ja"]))
        #expect(cache.get(["Accept-Language": "en"], at: cacheTime(1)).isMiss)
        #expect(cache.get(["Accept-Language": "ja"], at: cacheTime(1)).freshResponse?.body == Data("ja".utf8))
    }

    @Test func varyStarIsNeverStored() {
        #expect(
            !cache.store(
                cachedResponse(["Cache-Control": "max-age=60", "Vary": "Accept, *"]), method: .get, requestHeaders: [:])
        )
        #expect(cache.get(at: cacheTime(0)).isMiss)
    }

    // RFC 9111 §3: a final status outside the heuristically cacheable ones is stored when the response has
    // explicit freshness (`max-age`, `Expires`) or says `public` / `private`, and served while fresh.
    @Test(arguments: [302, 303, 307, 400, 401, 403, 500, 502, 503, 599])
    func anyFinalStatusWithExplicitFreshnessIsStored(status: Int) {
        for headers: HTTPHeaders in [
            ["Cache-Control": "max-age=60"], ["Expires": "Tue, 14 Nov 2023 22:14:20 GMT"],
            ["Cache-Control": "public", "ETag": #""x""#], ["Cache-Control": "private", "ETag": #""x""#],
        ] {
            let cache = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
            #expect(cache.store(cachedResponse(status: status, headers), method: .get, requestHeaders: [:]))
            #expect(!cache.get(at: cacheTime(0)).isMiss)
        }
    }

    @Test(arguments: [302, 303, 307, 400, 401, 403, 500, 502, 503])
    func otherStatusesWithoutExplicitFreshnessAreNotStored(status: Int) {
        #expect(
            !cache.store(
                cachedResponse(status: status, ["ETag": #""x""#, "Last-Modified": "Tue, 14 Nov 2023 20:00:00 GMT"]),
                method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).isMiss)
    }

    @Test(arguments: [101, 206, 304])
    func interimPartialAndNotModifiedAreNeverStored(status: Int) {
        #expect(
            !cache.store(
                cachedResponse(status: status, ["Cache-Control": "max-age=60", "ETag": #""x""#]), method: .get,
                requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).isMiss)
    }

    // RFC 9111 §5.2.2.3: `must-understand` overrides `no-store` for a status the cache understands, and keeps a
    // status it does not understand out.
    @Test func mustUnderstandStoresUnderstoodStatusesDespiteNoStoreAndNoOthers() {
        let directives: HTTPHeaders = ["Cache-Control": "max-age=3600, no-store, must-understand"]
        #expect(cache.store(cachedResponse(status: 200, directives), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(1)).freshResponse != nil)
        let other = HTTPCache(configuration: .init(memoryCostLimit: 1 << 20))
        #expect(!other.store(cachedResponse(status: 599, directives), method: .get, requestHeaders: [:]))
        #expect(
            !other.store(
                cachedResponse(status: 200, ["Cache-Control": "max-age=3600, no-store"]), method: .get,
                requestHeaders: [:]))
    }

    @Test(arguments: [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501])
    func heuristicallyCacheableStatusesAreStored(status: Int) {
        #expect(
            cache.store(
                cachedResponse(status: status, ["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).freshResponse?.status == status)
    }

    @Test func aResponseWithoutFreshnessOrValidatorsIsNotStoredWithoutATimeToLive() {
        #expect(!cache.store(cachedResponse(), method: .get, requestHeaders: [:]))
        #expect(
            !cache.store(
                cachedResponse(["Expires": HTTPDateParser.format(cacheTime(-1))]), method: .get, requestHeaders: [:]))
    }

    @Test func aFixedTimeToLiveCoversAPIsWithoutCacheHeaders() {
        let cache = HTTPCache.memoryOnly { $0.defaultTimeToLive = .seconds(30) }
        #expect(cache.store(cachedResponse(), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(29)).freshResponse != nil)
        #expect(cache.get(at: cacheTime(31)).validators == [:])
    }

    @Test func headIsAnsweredFromTheStoredGetAndNeverStored() {
        #expect(!cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .head, requestHeaders: [:]))
        #expect(cache.lookup(method: .head, url: cacheTestURL, requestHeaders: [:], now: cacheTime(0)).isMiss)
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(
            cache.lookup(method: .head, url: cacheTestURL, requestHeaders: [:], now: cacheTime(0)).freshResponse != nil)
    }

    @Test func otherMethodsAndSeveralRangesAreMisses() {
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(cache.lookup(method: .post, url: cacheTestURL, requestHeaders: [:], now: cacheTime(0)).isMiss)
        #expect(cache.get(["Range": "bytes=0-1, 3-4"], at: cacheTime(0)).isMiss)
        #expect(cache.get(["Range": "bytes=0-10"], at: cacheTime(0)).freshResponse?.status == 206)
        #expect(!cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .post, requestHeaders: [:]))
        // A 200 to a range request (the server sent the whole) is a complete response, stored as any other.
        #expect(
            cache.store(
                cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: ["Range": "bytes=0-1"]))
    }

    @Test func theKeyIsTheWholeURLWithoutItsFragment() {
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(
            cache.get(url: URL(string: "http://127.0.0.1:8080/posts/1#top")!, at: cacheTime(0)).freshResponse != nil)
        #expect(cache.get(url: URL(string: "http://127.0.0.1:8080/posts/1?a=1")!, at: cacheTime(0)).isMiss)
        #expect(cache.get(url: URL(string: "http://127.0.0.1:8080/posts/2")!, at: cacheTime(0)).isMiss)
    }

    @Test func aSuccessfulResponseThatCannotBeStoredRemovesTheOldEntry() {
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(!cache.store(cachedResponse(["Cache-Control": "no-store"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).isMiss)
        #expect(cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(!cache.store(cachedResponse(status: 503), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).freshResponse != nil)
    }

    @Test func hopByHopFieldsAreNotStored() {
        let response = cachedResponse([
            "Cache-Control": "max-age=60", "Connection": "X-Trace", "X-Trace": "1", "Keep-Alive": "timeout=5",
            "Transfer-Encoding": "chunked", "Content-Type": "application/json",
        ])
        #expect(cache.store(response, method: .get, requestHeaders: [:]))
        let stored = cache.get(at: cacheTime(0)).freshResponse
        #expect(stored?.headers["Content-Type"] == "application/json")
        for name in ["Connection", "X-Trace", "Keep-Alive", "Transfer-Encoding"] {
            #expect(stored?.headers[name] == nil)
        }
    }

    @Test func aDisabledMemoryTierWithoutADiskTierStoresNothing() {
        let cache = HTTPCache.memoryOnly { $0.memoryCostLimit = 0 }
        #expect(!cache.store(cachedResponse(["Cache-Control": "max-age=60"]), method: .get, requestHeaders: [:]))
        #expect(cache.get(at: cacheTime(0)).isMiss)
        #expect(!cache.hasDiskTier)
        #expect(cache.diskError == nil)
    }
}
