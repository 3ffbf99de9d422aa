import TetherSync

/// The memory tier: entries by key, least recently used evicted first once their total cost passes the limit.
///
/// Cost is ``CacheEntry/cost`` (body bytes plus an estimate of headers, URL and bookkeeping). An entry that alone
/// costs more than the limit is not kept.
///
/// - Complexity: every operation is O(1) on average, plus O(k) for k evicted entries.
/// - Thread safety: a value type; ``HTTPCache`` keeps it behind a `Locked`.
struct MemoryCacheTier {
    let costLimit: Int
    private var entries = LRUList<String, CacheEntry>()

    init(costLimit: Int) { self.costLimit = max(0, costLimit) }

    var isEnabled: Bool { costLimit > 0 }
    var cost: Int { entries.totalCost }
    var keysOldestFirst: [String] { entries.keysOldestFirst }

    /// The entry for `key`, which becomes the most recently used.
    mutating func entry(for key: String) -> CacheEntry? { entries.value(for: key) }

    /// Keeps `entry` as the most recently used, replacing the one with its key, then evicts down to the limit.
    /// Returns whether the entry was kept.
    @discardableResult
    mutating func insert(_ entry: CacheEntry) -> Bool {
        let cost = entry.cost
        guard cost <= costLimit else {
            entries.removeValue(for: entry.key)
            return false
        }
        entries.set(entry, cost: cost, for: entry.key)
        while entries.totalCost > costLimit, entries.removeOldest() != nil {}
        return true
    }

    mutating func remove(_ key: String) { entries.removeValue(for: key) }

    mutating func removeAll() { entries.removeAll() }

    /// Removes the entries whose key `matches`.
    mutating func removeAll(where matches: (String) -> Bool) {
        for key in entries.keysOldestFirst where matches(key) { entries.removeValue(for: key) }
    }
}
