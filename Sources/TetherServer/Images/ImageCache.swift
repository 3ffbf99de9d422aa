import Synchronization
import TetherSync

/// A bounded cache of encoded images, keyed by id and size; the least recently stored entry goes first.
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

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) { self.capacity = max(capacity, 0) }

    func entry(for key: Key) -> Entry? { state.withLock { $0.entries[key] } }

    func store(_ entry: Entry, for key: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: key) == nil { state.order.append(key) }
            while state.order.count > capacity { state.entries[state.order.removeFirst()] = nil }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
