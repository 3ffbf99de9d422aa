import Testing
import TetherSync

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

    /// Seeded, so a failure names a sequence that can be replayed.
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func survivesManyMixedOperationsAgainstAReferenceModel(seed: UInt64) {
        var list = LRUList<Int, Int>()
        var model: [Int] = []  // keys, oldest first
        var generator = SplitMix64(seed: seed)
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
