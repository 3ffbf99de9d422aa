import TetherSync

/// A bounded cache of encoded images, keyed by id and size; the least recently used entry goes first.
///
/// - Thread safety: safe from any thread; state is behind a `Locked`.
final class ImageCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: String
        var width: Int
        var height: Int
    }

    struct Entry: Sendable {
        /// The encoded image.
        var bytes: [UInt8]
        /// `image/jpeg` or `image/png`.
        var contentType: String
        var etag: String
    }

    /// The most entries it holds.
    let capacity: Int
    /// Each entry costs 1, so the list's total cost is its count.
    private let state = Locked(LRUList<Key, Entry>())

    init(capacity: Int) { self.capacity = max(capacity, 0) }

    /// The entry for `key`, which becomes the most recently used.
    func entry(for key: Key) -> Entry? { state.withLock { $0.value(for: key) } }

    func store(_ entry: Entry, for key: Key) {
        guard capacity > 0 else { return }
        state.withLock { entries in
            entries.set(entry, cost: 1, for: key)
            while entries.count > capacity, entries.removeOldest() != nil {}
        }
    }

    var count: Int { state.withLock { $0.count } }
}
