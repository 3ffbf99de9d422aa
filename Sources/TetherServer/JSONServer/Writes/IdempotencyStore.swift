import TetherHTTP1

/// The first response to each `Idempotency-Key`, so a retried write is answered the same and applied once.
///
/// Each entry keeps a fingerprint of the request (method, target and body). A retry with the same key and
/// fingerprint gets the stored response; the same key with another request is a client error. The store is
/// bounded: past ``capacity`` keys the oldest is forgotten.
///
/// - Thread safety: a plain value, owned by the ``JSONDatabase`` actor.
struct IdempotencyStore: Sendable {
    struct Entry: Sendable {
        var fingerprint: UInt64
        var response: HTTPResponse
    }

    /// The most keys remembered.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var head = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of keys remembered.
    var count: Int { entries.count }

    subscript(key: String) -> Entry? { entries[key] }

    /// Remembers the response for `key`, forgetting the oldest key when full.
    mutating func store(_ key: String, fingerprint: UInt64, response: HTTPResponse) {
        guard entries[key] == nil else { return }
        entries[key] = Entry(fingerprint: fingerprint, response: response)
        order.append(key)
        while entries.count > capacity {
            entries[order[head]] = nil
            head += 1
        }
        if head > capacity {
            order.removeFirst(head)
            head = 0
        }
    }
}
