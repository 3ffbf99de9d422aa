public import Foundation
import TetherSync

/// Decoded images in memory, keyed by URL and size, evicted least recently used first past a cost limit.
///
/// The cost of an entry is its pixel bytes (``RGBAImage/cost``). An image costing more than the whole limit is not
/// kept. A limit of 0 turns the cache off.
///
/// - Threading: safe from any thread; the state is behind one `Locked`, held only for dictionary work.
/// - Complexity: lookups, stores and evictions are O(1) each.
public final class ImageMemoryCache: Sendable {
    /// What an entry is stored under.
    public struct Key: Sendable, Hashable {
        public var url: URL
        public var size: ImageSize

        public init(url: URL, size: ImageSize) {
            self.url = url
            self.size = size
        }
    }

    /// The most the cache holds, in bytes of pixels.
    public let costLimit: Int
    private let state = Locked(LRUList<Key, RGBAImage>())

    public init(costLimit: Int) { self.costLimit = max(costLimit, 0) }

    /// The image stored under `key`, which becomes the most recently used; `nil` on a miss.
    public func image(for key: Key) -> RGBAImage? {
        state.withLock { $0.value(for: key) }
    }

    /// Stores `image` under `key`, replacing what was there, then evicts the least recently used entries until the
    /// cost is within the limit.
    public func store(_ image: RGBAImage, for key: Key) {
        guard image.cost <= costLimit else { return }
        state.withLock { images in
            images.set(image, cost: image.cost, for: key)
            while images.totalCost > costLimit, images.removeOldest() != nil {}
        }
    }

    /// Removes every entry.
    public func removeAll() { state.withLock { $0.removeAll() } }

    /// The bytes of pixels held now.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of entries.
    public var count: Int { state.withLock { $0.count } }
}
