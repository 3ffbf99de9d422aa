import Foundation
import Testing

@testable import TetherHTTP

@Suite struct MemoryCacheTierTests {
    func response(_ path: String, bodySize: Int) -> CachedResponse {
        cachedResponse(
            ["Cache-Control": "max-age=60"], body: String(repeating: "x", count: bodySize),
            url: URL(string: "http://127.0.0.1:8080/\(path)")!)
    }

    @Test func costIsBodyBytesPlusAHeaderEstimate() {
        let cache = HTTPCache.memoryOnly()
        let stored = response("a", bodySize: 1000)
        #expect(cache.store(stored, method: .get, requestHeaders: [:]))
        #expect(cache.memoryCost > 1000)
        #expect(cache.memoryCost < 1000 + 1024)
    }

    @Test func evictsTheLeastRecentlyUsedWhenOverTheCostLimit() {
        let probe = HTTPCache.memoryOnly()
        #expect(probe.store(response("a", bodySize: 1000), method: .get, requestHeaders: [:]))
        let oneEntry = probe.memoryCost
        let cache = HTTPCache.memoryOnly { $0.memoryCostLimit = oneEntry * 3 }
        for path in ["a", "b", "c"] {
            #expect(cache.store(response(path, bodySize: 1000), method: .get, requestHeaders: [:]))
        }
        // Using "a" makes "b" the least recently used.
        #expect(cache.get(url: URL(string: "http://127.0.0.1:8080/a")!, at: cacheTime(1)).freshResponse != nil)
        #expect(cache.store(response("d", bodySize: 1000), method: .get, requestHeaders: [:]))

        #expect(cache.memoryKeysOldestFirst.map { $0.split(separator: "/").last! } == ["c", "a", "d"])
        #expect(cache.get(url: URL(string: "http://127.0.0.1:8080/b")!, at: cacheTime(1)).isMiss)
        #expect(cache.memoryCost <= oneEntry * 3)
    }

    @Test func anEntryLargerThanTheLimitIsNotKeptAndReplacesNothing() {
        let cache = HTTPCache.memoryOnly { $0.memoryCostLimit = 4096 }
        #expect(cache.store(response("a", bodySize: 100), method: .get, requestHeaders: [:]))
        #expect(!cache.store(response("a", bodySize: 10_000), method: .get, requestHeaders: [:]))
        #expect(cache.get(url: URL(string: "http://127.0.0.1:8080/a")!, at: cacheTime(1)).isMiss)
        #expect(cache.memoryCost == 0)
    }

    @Test func concurrentUseFromManyTasksStaysConsistent() async {
        let cache = HTTPCache.memoryOnly { $0.memoryCostLimit = 64 * 1024 }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        let path = "t\(task)/\(i % 20)"
                        _ = cache.store(response(path, bodySize: 500), method: .get, requestHeaders: [:])
                        _ = cache.get(url: URL(string: "http://127.0.0.1:8080/\(path)")!, at: cacheTime(1))
                    }
                }
            }
        }
        #expect(cache.memoryCost <= 64 * 1024)
        #expect(cache.memoryCost > 0)
    }
}
