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
        /// The entry's member of the file's ``IdempotencyStore/fileKey`` object, written once when the key is
        /// stored (`"key": {…}`, indented for its place), so that saving the file copies it instead of writing
        /// every remembered response again; `nil` for a response without a body in memory, and when the store keeps
        /// no file text (``keepsFileText``).
        var fileText: [UInt8]?
    }

    /// The database file's member that holds the keys.
    static let fileKey = "_tether_idempotency"
    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 3600

    /// The most keys remembered.
    let capacity: Int
    /// Whether entries keep their text for the file (``Entry/fileText``): only a database that writes a file needs
    /// it, and making it costs about as much as answering the write.
    let keepsFileText: Bool
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var head = 0

    init(capacity: Int, keepsFileText: Bool = true) {
        self.capacity = max(1, capacity)
        self.keepsFileText = keepsFileText
    }

    /// The number of keys remembered.
    var count: Int { entries.count }

    subscript(key: String) -> Entry? {
        guard let entry = entries[key], Date().timeIntervalSince(entry.createdAt) < Self.lifetime else { return nil }
        return entry
    }

    /// Remembers the response for `key`, forgetting the oldest key when full.
    mutating func store(_ key: String, fingerprint: UInt64, response: HTTPResponse, at date: Date = Date()) {
        guard entries[key] == nil else { return }
        entries[key] = Entry(
            fingerprint: fingerprint, response: response, createdAt: date,
            fileText: keepsFileText
                ? Self.fileText(key: key, fingerprint: fingerprint, response: response, at: date) : nil)
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
                let value = Self.fileJSON(fingerprint: entry.fingerprint, response: entry.response, at: entry.createdAt)
            else { continue }
            object[key] = value
        }
        return .object(object)
    }

    /// Adds the keys to `file`, the pretty-printed text of the database's root object (two spaces per level, as
    /// the server writes it), as its last member ``fileKey``: the same text as writing ``json(now:)`` in that
    /// member, made from each entry's text kept since it was stored.
    ///
    /// - Complexity: O(n) in the length of the file; no response is written again.
    func appendMember(to file: inout [UInt8], now: Date = Date()) {
        var member: [UInt8] = []
        for key in order[head...] {
            guard let entry = entries[key], now.timeIntervalSince(entry.createdAt) < Self.lifetime,
                let text = entry.fileText
            else { continue }
            member.append(contentsOf: member.isEmpty ? Array("{\n    ".utf8) : Array(",\n    ".utf8))
            member.append(contentsOf: text)
        }
        guard !member.isEmpty else { return }
        member.append(contentsOf: Array("\n  }".utf8))
        // The root's closing brace, and what stands before it: its last member or its opening brace.
        guard let close = file.lastIndex(of: UInt8(ascii: "}")) else { return }
        var end = close
        while end > file.startIndex, [0x20, 0x0A, 0x0D, 0x09].contains(file[end - 1]) { end -= 1 }
        let isEmpty = end > file.startIndex && file[end - 1] == UInt8(ascii: "{")
        file.removeSubrange(end...)
        file.append(contentsOf: Array((isEmpty ? "\n  " : ",\n  ").utf8))
        file.append(contentsOf: JSONServerBody.bytes(.string(Self.fileKey)))
        file.append(contentsOf: Array(": ".utf8))
        file.append(contentsOf: member)
        file.append(contentsOf: Array("\n}".utf8))
    }

    /// An entry as the file keeps it; `nil` for a response without a body in memory.
    private static func fileJSON(fingerprint: UInt64, response: HTTPResponse, at date: Date) -> JSON? {
        guard case .bytes(let body) = response.body else { return nil }
        return .object([
            "fingerprint": .string(String(fingerprint, radix: 16)),
            "at": .number(JSON.Number(date.timeIntervalSince1970)),
            "status": .number(JSON.Number(response.status.code)),
            "headers": .array(response.headers.map { .array([.string($0.name), .string($0.value)]) }),
            "body": .string(Data(body).base64EncodedString()),
        ])
    }

    /// The entry's member text in the file: `"key": {…}`, pretty-printed, its lines indented for the third level
    /// (the first line's indentation is the caller's). A JSON text's strings never hold a raw line break, so
    /// every line break in it starts a line to indent.
    private static func fileText(key: String, fingerprint: UInt64, response: HTTPResponse, at date: Date)
        -> [UInt8]?
    {
        guard let value = fileJSON(fingerprint: fingerprint, response: response, at: date) else { return nil }
        var text = JSONServerBody.bytes(.string(key))
        text.append(contentsOf: Array(": ".utf8))
        for byte in JSONServerBody.bytes(value) {
            text.append(byte)
            if byte == UInt8(ascii: "\n") { text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 4)) }
        }
        return text
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
