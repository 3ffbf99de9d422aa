import Foundation
import TetherHTTP1
import TetherJSON

/// The first response to each `Idempotency-Key`, so a retried write is answered the same and applied once.
///
/// Each entry keeps a fingerprint of the request (method, target and body). A retry with the same key and
/// fingerprint gets the stored response; the same key with another request is a client error.
///
/// A key is remembered for ``lifetime`` (24 hours, as Stripe keeps them), however many writes come in between.
/// ``capacity`` is only a guard against abuse (``defaultCapacity``, a million keys, far above any honest load):
/// past it the oldest key is forgotten early, and ``forgottenCount`` counts those so the database can report it.
///
/// In persistent mode the keys are saved in the server's own files beside the database file (see
/// ``JournalStorage``): each in the journal record of the write it belongs to, and all of them in the keys file
/// rewritten at every fold. ``Entry/record`` keeps each key's record for that file, made once.
///
/// - Thread safety: a plain value, owned by the ``JSONDatabase`` actor.
struct IdempotencyStore: Sendable {
    struct Entry: Sendable {
        var fingerprint: UInt64
        var response: HTTPResponse
        var createdAt: Date
        /// The key's framed record in the keys file, made when the key is stored; `nil` when the store keeps no
        /// records (``keepsRecords``) or the response has no body in memory.
        var record: [UInt8]? = nil
        /// The number of the key's journal record (see ``JournalStorage/write(_:)``), while it may not be durable
        /// yet (a replay waits for it); `nil` for keys read at start.
        var journalEnd: Int? = nil
    }

    /// The database file's member that held the keys before they moved to the keys file; still read, to move
    /// them out.
    static let legacyFileKey = "_tether_idempotency"
    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 3600
    /// The guard on the number of keys unless the database is given another: far above any honest load.
    static let defaultCapacity = 1_000_000

    /// The most keys remembered (a guard against abuse).
    let capacity: Int
    /// Whether entries keep their record for the keys file (``Entry/record``): only a database that writes files
    /// needs it.
    let keepsRecords: Bool
    private var entries: [String: Entry] = [:]
    /// The keys in the order they were stored; `order[head...]` are live or removed since.
    private var order: [String] = []
    private var head = 0
    /// The keys forgotten before their 24 hours because the store was full.
    private(set) var forgottenCount = 0

    init(capacity: Int = defaultCapacity, keepsRecords: Bool = true) {
        self.capacity = max(1, capacity)
        self.keepsRecords = keepsRecords
    }

    /// The number of keys remembered.
    var count: Int { entries.count }

    subscript(key: String) -> Entry? {
        guard let entry = entries[key], Date().timeIntervalSince(entry.createdAt) < Self.lifetime else { return nil }
        return entry
    }

    /// Remembers the response for `key` (unless it is known or already expired), forgetting expired keys at the
    /// old end and, when full, the oldest key.
    ///
    /// - Returns: how many keys were forgotten early because the store was full (0 in any honest use).
    @discardableResult
    mutating func store(
        _ key: String, fingerprint: UInt64, response: HTTPResponse, at date: Date = Date(), now: Date = Date()
    ) -> Int {
        guard entries[key] == nil, now.timeIntervalSince(date) < Self.lifetime else { return 0 }
        var entry = Entry(fingerprint: fingerprint, response: response, createdAt: date)
        if keepsRecords { entry.record = Self.record(key: key, entry: entry) }
        entries[key] = entry
        order.append(key)
        var forgotten = 0
        while head < order.count {
            let oldest = order[head]
            guard let stored = entries[oldest] else {
                head += 1
                continue
            }
            let expired = now.timeIntervalSince(stored.createdAt) >= Self.lifetime
            guard expired || entries.count > capacity else { break }
            if !expired { forgotten += 1 }
            entries[oldest] = nil
            head += 1
        }
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        forgottenCount += forgotten
        return forgotten
    }

    /// Notes the number of the journal record of `key` (see ``Entry/journalEnd``).
    mutating func setJournalEnd(_ end: Int, for key: String) {
        entries[key]?.journalEnd = end
    }

    /// Forgets `key` (its write was not saved after all).
    mutating func remove(_ key: String) {
        entries[key] = nil
        if let index = order[head...].lastIndex(of: key) { order.remove(at: index) }
    }

    /// Forgets every expired key.
    mutating func removeExpired(now: Date = Date()) {
        order = order[head...].filter { key in
            guard let entry = entries[key] else { return false }
            if now.timeIntervalSince(entry.createdAt) < Self.lifetime { return true }
            entries[key] = nil
            return false
        }
        head = 0
    }

    /// The keys file's records of the live keys, oldest first (see ``KeysFile``).
    func records(now: Date = Date()) -> [[UInt8]] {
        order[head...].compactMap { key in
            guard let entry = entries[key], now.timeIntervalSince(entry.createdAt) < Self.lifetime else { return nil }
            return entry.record ?? Self.record(key: key, entry: entry)
        }
    }

    /// The keys as a JSON object, oldest first, the expired ones left out: `{"key": {entry}}`.
    func json(now: Date = Date()) -> JSON {
        var object = JSON.Object()
        for key in order[head...] {
            guard let entry = entries[key], now.timeIntervalSince(entry.createdAt) < Self.lifetime,
                let value = Self.json(of: entry)
            else { continue }
            object[key] = value
        }
        return .object(object)
    }

    /// Reads keys saved as ``json(now:)`` writes them (the old `_tether_idempotency` member of a database
    /// file), skipping expired and unreadable ones.
    mutating func load(_ json: JSON, now: Date = Date()) {
        guard case .object(let object) = json else { return }
        for (key, value) in object {
            guard let entry = Self.entry(json: value) else { continue }
            store(key, fingerprint: entry.fingerprint, response: entry.response, at: entry.createdAt, now: now)
        }
    }
}

extension IdempotencyStore {
    /// An entry as JSON: `{"fingerprint": hex, "at": seconds since 1970, "status": n, "headers": [[name, value]],
    /// "body": base64}`; `nil` for a response without a body in memory.
    static func json(of entry: Entry) -> JSON? {
        guard case .bytes(let body) = entry.response.body else { return nil }
        return .object([
            "fingerprint": .string(String(entry.fingerprint, radix: 16)),
            "at": .number(JSON.Number(entry.createdAt.timeIntervalSince1970)),
            "status": .number(JSON.Number(entry.response.status.code)),
            "headers": .array(entry.response.headers.map { .array([.string($0.name), .string($0.value)]) }),
            "body": .string(Data(body).base64EncodedString()),
        ])
    }

    /// The entry ``json(of:)`` wrote, or `nil` when `json` is not one.
    static func entry(json value: JSON) -> Entry? {
        guard let fingerprint = value["fingerprint"]?.string.flatMap({ UInt64($0, radix: 16) }),
            let at = value["at"]?.double, let status = value["status"]?.int,
            let body = value["body"]?.string.flatMap({ Data(base64Encoded: $0) })
        else { return nil }
        var headers = HTTPHeaders()
        for pair in value["headers"]?.array ?? [] {
            if let name = pair[0]?.string, let field = pair[1]?.string { headers.add(name, field) }
        }
        let response = HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array(body))
        return Entry(fingerprint: fingerprint, response: response, createdAt: Date(timeIntervalSince1970: at))
    }

    /// The key's framed record in the keys file: ``JournalRecord/key(_:_:)``'s bytes.
    static func record(key: String, entry: Entry) -> [UInt8]? {
        guard json(of: entry) != nil else { return nil }
        return JournalRecord.key(key, entry).framed
    }
}
