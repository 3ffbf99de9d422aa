import Foundation
import Testing

@testable import TetherHTTP

/// Purging: by host and by URL prefix, from both tiers, queued disk writes included, and across a restart.
@Suite struct CachePurgeTests {
    let urls = [
        "https://api.example.com/v1/users/1", "https://api.example.com/v1/users/1?page=2",
        "https://API.example.com:8443/v1/notes/3", "https://images.example.com/a.png", "http://other.test/v1/users/1",
    ].map { URL(string: $0)! }

    func fill(_ cache: HTTPCache, inBackground: Bool) {
        for url in urls {
            cache.store(
                cachedResponse(["Cache-Control": "max-age=600"], url: url), method: .get, requestHeaders: [:],
                writesInBackground: inBackground)
        }
    }

    func stored(_ cache: HTTPCache) -> [String] {
        urls.filter { !cache.get(url: $0, at: cacheTime(1)).isMiss }.map(\.absoluteString)
    }

    @Test(arguments: [0, 1 << 20])
    func byHostRemovesThatHostOnlyFromBothTiers(memoryLimit: Int) throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = HTTPCache(configuration: .init(memoryCostLimit: memoryLimit, directory: directory.url))
        // Half of the writes still queued when the purge comes.
        fill(cache, inBackground: true)
        cache.removeResponses(host: "api.EXAMPLE.com")
        #expect(stored(cache) == ["https://images.example.com/a.png", "http://other.test/v1/users/1"])
        cache.flush()
        // A new cache on the directory (a restart) finds the same.
        let reopened = HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory.url))
        #expect(stored(reopened) == ["https://images.example.com/a.png", "http://other.test/v1/users/1"])
    }

    @Test func byPrefixRemovesTheURLsThatStartWithIt() throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = HTTPCache(configuration: .init(directory: directory.url))
        fill(cache, inBackground: false)
        cache.removeResponses(withPrefix: URL(string: "https://api.example.com/v1/users/")!)
        #expect(
            stored(cache) == [
                "https://API.example.com:8443/v1/notes/3", "https://images.example.com/a.png",
                "http://other.test/v1/users/1",
            ])
        cache.removeResponses(withPrefix: URL(string: "https://nothing.example")!)
        #expect(stored(cache).count == 3)
        cache.removeAll()
        #expect(stored(cache).isEmpty)
    }
}
