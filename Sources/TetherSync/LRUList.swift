/// Values by key in order of use, each with a cost: the one eviction order of the package's caches (the HTTP
/// cache's tiers, decoded images in memory, the server's encoded images).
///
/// A dictionary from key to slot plus a doubly linked list threaded through an array of slots (freed slots are
/// reused), so every operation is O(1) on average and no node is allocated separately.
///
/// - Thread safety: a value type with no locking; each cache keeps it behind its `Locked`.
package struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int
        var older: Int
    }

    package init() {}

    private var slots: [Node?] = []
    private var freeSlots: [Int] = []
    private var positions: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    /// The sum of the costs of the values.
    package private(set) var totalCost = 0

    package var count: Int { positions.count }

    /// The value for `key`, which becomes the most recently used. O(1).
    package mutating func value(for key: Key) -> Value? {
        guard let slot = positions[key] else { return nil }
        moveToNewest(slot)
        return slots[slot]!.value
    }

    /// The value for `key` without changing the order. O(1).
    package func peek(_ key: Key) -> Value? { positions[key].map { slots[$0]!.value } }

    /// Stores `value` for `key` as the most recently used, replacing any value there. O(1).
    package mutating func set(_ value: Value, cost: Int, for key: Key) {
        if let slot = positions[key] {
            totalCost += cost - slots[slot]!.cost
            slots[slot]!.value = value
            slots[slot]!.cost = cost
            moveToNewest(slot)
            return
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = node
        } else {
            slot = slots.count
            slots.append(node)
        }
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        positions[key] = slot
        totalCost += cost
    }

    /// Removes the value for `key` and returns it. O(1).
    @discardableResult
    package mutating func removeValue(for key: Key) -> Value? {
        guard let slot = positions.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let node = slots[slot]!
        slots[slot] = nil
        freeSlots.append(slot)
        totalCost -= node.cost
        return node.value
    }

    /// Removes the least recently used value and returns it with its key. O(1).
    package mutating func removeOldest() -> (key: Key, value: Value)? {
        guard oldest >= 0, let node = slots[oldest] else { return nil }
        removeValue(for: node.key)
        return (node.key, node.value)
    }

    package mutating func removeAll() { self = LRUList() }

    /// The keys from least to most recently used. O(n).
    package var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var slot = oldest
        while slot >= 0, let node = slots[slot] {
            keys.append(node.key)
            slot = node.newer
        }
        return keys
    }

    private mutating func unlink(_ slot: Int) {
        let node = slots[slot]!
        if node.newer >= 0 { slots[node.newer]!.older = node.older } else { newest = node.older }
        if node.older >= 0 { slots[node.older]!.newer = node.newer } else { oldest = node.newer }
        slots[slot]!.newer = -1
        slots[slot]!.older = -1
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot]!.older = newest
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
