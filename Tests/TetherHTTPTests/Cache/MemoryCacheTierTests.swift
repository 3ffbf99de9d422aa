import Foundation
import Testing

@testable import TetherHTTP

@Suite struct LRUListTests {
    @Test func keepsOrderOfUseAndTotalCost() {
        var list = LRUList<String, Int>()
        list.set(1, cost: 10, for: "a")
        list.set(2, cost: 20, for: "b")
        list.set(3, cost: 30, for: "c")
        #expect(list.keysOldestFirst == ["a", "b", "c"])
        #expect(list.totalCost == 60)
        #expect(list.value(for: "a") == 1)
        #expect(list.keysOldestFirst == ["b", "c", "a"])
        #expect(list.peek("b") == 2)
        #expect(list.keysOldestFirst == ["b", "c", "a"])
        list.set(22, cost: 5, for: "b")
        #expect(list.keysOldestFirst == ["c", "a", "b"])
        #expect(list.totalCost == 45)
        #expect(list.removeOldest()?.key == "c")
        #expect(list.removeValue(for: "b") == 22)
        #expect(list.removeValue(for: "zzz") == nil)
        #expect(list.keysOldestFirst == ["a"])
        #expect(list.totalCost == 10)
        list.set(4, cost: 1, for: "d")
        #expect(list.keysOldestFirst == ["a", "d"])
        #expect(list.count == 2)
        list.removeAll()
        #expect(list.count == 0)
        #expect(list.removeOldest() == nil)
    }

    @Test func survivesManyMixedOperationsAgainstAReferenceModel() {
        var list = LRUList<Int, Int>()
        var model: [Int] = []  // keys, oldest first
        var generator = SystemRandomNumberGenerator()
        for step in 0..<2_000 {
            let key = Int.random(in: 0..<40, using: &generator)
            switch step % 4 {
            case 0, 1:
                list.set(step, cost: 1, for: key)
                model.removeAll { $0 == key }
                model.append(key)
            case 2:
                if list.value(for: key) != nil {
                    model.removeAll { $0 == key }
                    model.append(key)
                }
            default:
                if list.removeValue(for: key) != nil { model.removeAll { $0 == key } }
            }
            #expect(list.keysOldestFirst == model)
        }
        #expect(list.totalCost == model.count)
    }
}

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
