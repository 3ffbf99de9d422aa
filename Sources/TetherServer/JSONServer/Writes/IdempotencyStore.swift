import Foundation
import TetherHTTP1
import TetherJSON

/// The first response to each `Idempotency-Key`, so a retried write is answered the same and applied once.
///
/// Each entry keeps a fingerprint of the request (method, target and body). A retry with the same key and
/// fingerprint gets the stored response; the same key with another request is a client error. The store is
/// bounded: past ``capacity`` keys the oldest is forgotten; and a key is kept for ``lifetime`` (24 hours, as
/// Stripe keeps them).
///
/// In persistent mode the keys are saved in the database file with the write they belong to (one atomic file
/// replacement, under the top-level member ``fileKey``, which no route serves), so a retry after a restart, or
/// after a kill -9, is still answered from the record and not applied again.
///
/// - Thread safety: a plain value, owned by the ``JSONDatabase`` actor.
struct IdempotencyStore: Sendable {
    struct Entry: Sendable {
        var fingerprint: UInt64
        var response: HTTPResponse
        var createdAt: Date
    }

    /// The database file's member that holds the keys.
    static let fileKey = "_tether_idempotency"
    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 3600

    /// The most keys remembered.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var head = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of keys remembered.
    var count: Int { entries.count }

    subscript(key: String) -> Entry? {
        guard let entry = entries[key], Date().timeIntervalSince(entry.createdAt) < Self.lifetime else { return nil }
        return entry
    }

    /// Remembers the response for `key`, forgetting the oldest key when full.
    mutating func store(_ key: String, fingerprint: UInt64, response: HTTPResponse, at date: Date = Date()) {
        guard entries[key] == nil else { return }
        entries[key] = Entry(fingerprint: fingerprint, response: response, createdAt: date)
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

    /// Forgets `key` (its write was not saved after all).
    mutating func remove(_ key: String) {
        entries[key] = nil
        if let index = order[head...].firstIndex(of: key) { order.remove(at: index) }
    }

    /// The keys as a JSON object for the database file, oldest first, the expired ones left out.
    func json(now: Date = Date()) -> JSON {
        var object = JSON.Object()
        for key in order[head...] {
            guard let entry = entries[key], now.timeIntervalSince(entry.createdAt) < Self.lifetime,
                case .bytes(let body) = entry.response.body
            else { continue }
            object[key] = .object([
                "fingerprint": .string(String(entry.fingerprint, radix: 16)),
                "at": .number(JSON.Number(entry.createdAt.timeIntervalSince1970)),
                "status": .number(JSON.Number(entry.response.status.code)),
                "headers": .array(entry.response.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "body": .string(Data(body).base64EncodedString()),
            ])
        }
        return .object(object)
    }

    /// Reads the keys saved by ``json(now:)``, skipping expired and unreadable ones.
    mutating func load(_ json: JSON, now: Date = Date()) {
        guard case .object(let object) = json else { return }
        for (key, value) in object {
            guard let fingerprint = value["fingerprint"]?.string.flatMap({ UInt64($0, radix: 16) }),
                let at = value["at"]?.double, let status = value["status"]?.int,
                let body = value["body"]?.string.flatMap({ Data(base64Encoded: $0) })
            else { continue }
            let date = Date(timeIntervalSince1970: at)
            guard now.timeIntervalSince(date) < Self.lifetime else { continue }
            var headers = HTTPHeaders()
            for pair in value["headers"]?.array ?? [] {
                if let name = pair[0]?.string, let field = pair[1]?.string { headers.add(name, field) }
            }
            let response = HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array(body))
            store(key, fingerprint: fingerprint, response: response, at: date)
        }
    }
}
