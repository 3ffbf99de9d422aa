import Dispatch
import Synchronization
import TetherSync

/// Moves the disk tier's writes off the request path: one serial background queue writes the entries the client
/// stores, while reads see the entries still waiting.
///
/// Ordering guarantees:
/// - Operations on one key take effect in the order they were made: a write queued before a removal (or before a
///   synchronous ``write(_:)``) of the same key never lands after it. A queued write is skipped when a later
///   operation on its key superseded it; one already writing finishes first (the tier's lock orders them).
/// - ``pendingRecord(for:)`` returns the newest queued write of a key until it is on disk, so a read right after a
///   store sees it even with the memory tier off.
/// - ``flush()`` returns once every write queued before it has landed or failed. A failed write only sets
///   ``DiskCacheTier/lastError`` (it never reaches the request that stored the response); the entry is then a miss.
///
/// Thread safety: every method may be called from any thread. The pending map is one `Locked`, taken inside the
/// tier's lock by a queued write (never the other way round).
final class DiskCacheWriter: Sendable {
    private struct Pending {
        /// The sequence number of the latest queued write per key, until it lands or is superseded.
        var latest: [String: UInt64] = [:]
        /// Queued writes not yet on disk, by key.
        var records: [String: CacheEntryCodec.Record] = [:]
        var nextSequence: UInt64 = 0
    }

    let tier: DiskCacheTier
    /// The serial queue the writes run on (internal: tests suspend it to hold writes pending).
    let queue = DispatchQueue(label: "tether.cache.disk-writer", qos: .utility)
    private let pending = Locked(Pending())

    init(tier: DiskCacheTier) {
        self.tier = tier
    }

    /// Queues `record` to be written; returns at once.
    ///
    /// - Complexity: O(1) on the calling thread; the encoding and the file write run on the writer's queue.
    func enqueue(_ record: CacheEntryCodec.Record) {
        let sequence = pending.withLock { pending -> UInt64 in
            pending.nextSequence += 1
            pending.latest[record.key] = pending.nextSequence
            pending.records[record.key] = record
            return pending.nextSequence
        }
        queue.async { [self] in
            tier.save(record, if: { isLatest(sequence, for: record.key) })
            pending.withLock { pending in
                if pending.latest[record.key] == sequence {
                    pending.latest.removeValue(forKey: record.key)
                    pending.records.removeValue(forKey: record.key)
                }
            }
        }
    }

    /// Writes `record` now, on the calling thread, superseding any queued write of its key; returns whether it was
    /// written.
    @discardableResult
    func write(_ record: CacheEntryCodec.Record) -> Bool {
        supersede(record.key)
        return tier.save(record)
    }

    /// Removes the entry for `key` now, superseding any queued write of it.
    func remove(_ key: String) {
        supersede(key)
        tier.remove(key)
    }

    /// Removes every entry now, superseding every queued write.
    func removeAll() {
        pending.withLock { pending in
            pending.latest.removeAll()
            pending.records.removeAll()
        }
        tier.removeAll()
    }

    /// Removes every entry whose key `matches` now, superseding their queued writes.
    func removeAll(where matches: (String) -> Bool) {
        pending.withLock { pending in
            for key in pending.records.keys where matches(key) {
                pending.latest.removeValue(forKey: key)
                pending.records.removeValue(forKey: key)
            }
        }
        tier.removeAll(where: matches)
    }

    /// The newest queued write for `key` not yet on disk, if any.
    func pendingRecord(for key: String) -> CacheEntryCodec.Record? {
        pending.withLock { $0.records[key] }
    }

    /// The record for `key`: a queued write, else the file.
    func load(_ key: String) -> CacheEntryCodec.Record? {
        pendingRecord(for: key) ?? tier.load(key)
    }

    /// Blocks until every write queued so far has landed or failed.
    func flush() {
        queue.sync {}
    }

    /// Makes any queued write of `key` stale: it will not be written (its check fails) nor read.
    private func supersede(_ key: String) {
        pending.withLock { pending in
            pending.latest.removeValue(forKey: key)
            pending.records.removeValue(forKey: key)
        }
    }

    private func isLatest(_ sequence: UInt64, for key: String) -> Bool {
        pending.withLock { $0.latest[key] == sequence }
    }
}
