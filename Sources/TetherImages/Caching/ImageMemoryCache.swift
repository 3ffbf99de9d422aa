public import Foundation
import Synchronization
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

    private struct Node {
        var image: RGBAImage
        var previous: Key?
        var next: Key?
    }

    private struct State {
        var nodes: [Key: Node] = [:]
        /// The most recently used key, and the least.
        var head: Key?
        var tail: Key?
        var cost = 0

        mutating func unlink(_ key: Key) {
            guard let node = nodes[key] else { return }
            if let previous = node.previous { nodes[previous]?.next = node.next } else { head = node.next }
            if let next = node.next { nodes[next]?.previous = node.previous } else { tail = node.previous }
        }

        mutating func linkFirst(_ key: Key) {
            nodes[key]?.previous = nil
            nodes[key]?.next = head
            if let head { nodes[head]?.previous = key }
            head = key
            if tail == nil { tail = key }
        }

        mutating func remove(_ key: Key) {
            guard let node = nodes[key] else { return }
            unlink(key)
            nodes[key] = nil
            cost -= node.image.cost
        }
    }

    /// The most the cache holds, in bytes of pixels.
    public let costLimit: Int
    private let state = Locked(State())

    public init(costLimit: Int) { self.costLimit = max(costLimit, 0) }

    /// The image stored under `key`, which becomes the most recently used; `nil` on a miss.
    public func image(for key: Key) -> RGBAImage? {
        state.withLock { state in
            guard let node = state.nodes[key] else { return nil }
            if state.head != key {
                state.unlink(key)
                state.linkFirst(key)
            }
            return node.image
        }
    }

    /// Stores `image` under `key`, replacing what was there, then evicts the least recently used entries until the
    /// cost is within the limit.
    public func store(_ image: RGBAImage, for key: Key) {
        guard image.cost <= costLimit else { return }
        state.withLock { state in
            state.remove(key)
            state.nodes[key] = Node(image: image)
            state.linkFirst(key)
            state.cost += image.cost
            while state.cost > costLimit, let tail = state.tail { state.remove(tail) }
        }
    }

    /// Removes every entry.
    public func removeAll() { state.withLock { $0 = State() } }

    /// The bytes of pixels held now.
    public var totalCost: Int { state.withLock { $0.cost } }

    /// The number of entries.
    public var count: Int { state.withLock { $0.nodes.count } }
}
