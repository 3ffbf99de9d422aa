import Testing

@testable import TetherHTTP

@Suite struct CacheControlTests {
    @Test func readsDirectivesAcrossFieldsCaseInsensitively() {
        let directives = CacheControl(["Cache-Control": "Max-Age=60, PRIVATE", "cache-control": "must-revalidate"])
        #expect(directives.maxAge == 60)
        #expect(directives.isPrivate)
        #expect(directives.mustRevalidate)
        #expect(!directives.noStore)
        #expect(!directives.noCache)
    }

    @Test func quotedValuesMayHoldCommas() {
        let directives = CacheControl(["Cache-Control": #"no-cache="Set-Cookie, X-A", max-age="30", no-store"#])
        #expect(directives.noCache)
        #expect(directives.maxAge == 30)
        #expect(directives.noStore)
    }

    @Test func theFirstOfRepeatedDirectivesWins() {
        #expect(CacheControl(["Cache-Control": "max-age=10, max-age=99"]).maxAge == 10)
    }

    @Test func invalidDeltaSecondsMeanStale() {
        #expect(CacheControl(["Cache-Control": "max-age=abc"]).maxAge == 0)
        #expect(CacheControl(["Cache-Control": "max-age"]).maxAge == 0)
        #expect(CacheControl(["Cache-Control": "max-age=-5"]).maxAge == 0)
    }

    @Test func hugeDeltaSecondsAreCapped() {
        #expect(CacheControl(["Cache-Control": "max-age=99999999999999999999999"]).maxAge == 1 << 31)
    }

    @Test func requestDirectives() {
        let directives = CacheControl(["Cache-Control": "max-stale, min-fresh=5, no-cache"], isRequest: true)
        #expect(directives.maxStale == Int.max)
        #expect(directives.minFresh == 5)
        #expect(directives.noCache)
        #expect(CacheControl(["Cache-Control": "max-stale=7"], isRequest: true).maxStale == 7)
    }

    @Test func pragmaNoCacheCountsOnlyForRequestsWithoutCacheControl() {
        #expect(CacheControl(["Pragma": "no-cache"], isRequest: true).noCache)
        #expect(!CacheControl(["Pragma": "no-cache"]).noCache)
        #expect(!CacheControl(["Pragma": "no-cache", "Cache-Control": "max-age=5"], isRequest: true).noCache)
    }

    @Test func sharedCacheAndUnknownDirectivesAreIgnored() {
        let directives = CacheControl(["Cache-Control": "s-maxage=100, proxy-revalidate, x-thing=1"])
        #expect(directives == CacheControl())
    }

    @Test func publicAndMustUnderstandAreRead() {
        let directives = CacheControl(["Cache-Control": "PUBLIC, must-understand"])
        #expect(directives.isPublic)
        #expect(directives.mustUnderstand)
    }

    @Test func emptyAndMalformedFieldsParseToNothing() {
        #expect(CacheControl(["Cache-Control": ""]) == CacheControl())
        #expect(CacheControl(["Cache-Control": ", ,="]) == CacheControl())
        #expect(CacheControl(["Cache-Control": #"no-cache="unterminated"#]).noCache)
    }
}
