import TetherHTTP1
import TetherSync

/// The responses already computed for reads of one ``DatabaseState``, so that a repeated `GET` (the same item,
/// the same page) is answered with the bytes and `ETag` serialized the first time.
///
/// Each published state gets a new, empty cache (see ``DatabaseState/invalidateReads()``), so an entry can never
/// outlive the data it was computed from: a write publishes a new state and with it a new cache. The key must
/// determine the response completely for that state; ``JSONServerResponder`` uses the request target (the query
/// is part of it) and the `Host` header (which `Link` URLs repeat).
///
/// Bounded: at most ``maximumEntries`` responses and ``maximumBytes`` of bodies; an insertion beyond either limit
/// empties the cache first, so a client that never repeats a query costs a little memory and no lookups that hit.
///
/// - Thread safety: every method may be called from any thread; the lock is held only for the dictionary
///   operation, never while a response is computed.
final class ReadCache: Sendable {
    static let maximumEntries = 4096
    static let maximumBytes = 32 * 1024 * 1024

    private struct State {
        var responses: [String: HTTPResponse] = [:]
        var bytes = 0
    }

    private let state = Locked(State())

    /// The response stored for `key`, if any.
    func response(for key: String) -> HTTPResponse? {
        state.withLock { $0.responses[key] }
    }

    /// Stores `response` for `key`; a response whose body is a stream, or larger than the byte limit, is not
    /// stored.
    func store(_ response: HTTPResponse, for key: String) {
        guard let body = response.bodyBytes, body.count + key.utf8.count <= Self.maximumBytes else { return }
        let size = body.count + key.utf8.count
        state.withLock { state in
            if state.responses.count >= Self.maximumEntries || state.bytes + size > Self.maximumBytes {
                state.responses.removeAll()
                state.bytes = 0
            }
            let replaced = state.responses.updateValue(response, forKey: key)
            state.bytes += size - (replaced.map { ($0.bodyBytes?.count ?? 0) + key.utf8.count } ?? 0)
        }
    }

    /// The number of stored responses.
    var count: Int { state.withLock { $0.responses.count } }
}
