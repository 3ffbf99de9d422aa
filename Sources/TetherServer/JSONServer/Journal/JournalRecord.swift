import Foundation
import TetherJSON

/// What the server's own files hold, one framed record each (see ``JournalCodec``), with a JSON payload.
///
/// The journal starts with a ``base(_:)`` record, then holds one ``write(changes:key:entry:)`` record per write
/// (its changes and its `Idempotency-Key` result together, so one sync makes both durable) and a
/// ``foldIntent(_:)`` before each fold. The keys file holds one ``key(_:_:)`` record per remembered key.
///
/// Pure: encoding and decoding only.
enum JournalRecord: Sendable {
    /// The database file as the journal's records start from: its size and checksum when the journal was made
    /// (at the last fold, or when the server first wrote), so a file edited by hand since is recognised.
    case base(FileStamp)
    /// One write: what it changed (nothing for a keyed write that changed nothing, a 404 say) and, when it had
    /// an `Idempotency-Key`, the response to replay.
    case write(changes: [DatabaseChange], key: String?, entry: IdempotencyStore.Entry?)
    /// A fold is about to replace the database file with this content: once the file has it, the records
    /// before this one are in the file.
    case foldIntent(FileStamp)
    /// One remembered key, in the keys file.
    case key(String, IdempotencyStore.Entry)

    /// The magic of the journal and of the keys file.
    static let journalMagic = Array("TETHERJ1".utf8)
    static let keysMagic = Array("TETHERK1".utf8)

    private enum Kind: UInt8 {
        case base = 1
        case write = 2
        case foldIntent = 3
        case key = 4
    }

    private static let writer = JSONWriter(options: [.withoutEscapingSlashes])

    /// The record's bytes, framed.
    var framed: [UInt8] {
        let kind: Kind
        let payload: JSON
        switch self {
        case .base(let stamp):
            kind = .base
            payload = stamp.json
        case .foldIntent(let stamp):
            kind = .foldIntent
            payload = stamp.json
        case .write(let changes, let key, let entry):
            kind = .write
            var object: JSON.Object = ["changes": .array(changes.map(\.json))]
            if let key, let entry, let value = IdempotencyStore.json(of: entry) {
                object["key"] = .string(key)
                object["entry"] = value
            }
            payload = .object(object)
        case .key(let key, let entry):
            kind = .key
            payload = ["key": .string(key), "entry": IdempotencyStore.json(of: entry) ?? nil]
        }
        let bytes = (try? Self.writer.bytes(payload)) ?? Array("null".utf8)
        return JournalCodec.encode(kind: kind.rawValue, payload: bytes)
    }

    /// The record a frame holds.
    ///
    /// - Throws: ``JournalCodec/Failure/corrupt(offset:reason:)`` for a frame whose checksum held but whose kind
    ///   or payload cannot be read (a file written by another version, or damaged with its checksum).
    init(frame: JournalCodec.Frame) throws(JournalCodec.Failure) {
        let json: JSON
        do {
            json = try JSON(parsing: frame.payload)
        } catch {
            throw .corrupt(offset: frame.offset, reason: "a record that is not JSON: \(error.message)")
        }
        let record: JournalRecord? =
            switch Kind(rawValue: frame.kind) {
            case .base?: FileStamp(json: json).map { .base($0) }
            case .foldIntent?: FileStamp(json: json).map { .foldIntent($0) }
            case .write?: Self.write(json)
            case .key?:
                if let key = json["key"]?.string, let entry = json["entry"].flatMap(IdempotencyStore.entry(json:)) {
                    .key(key, entry)
                } else {
                    nil
                }
            case nil: nil
            }
        guard let record else {
            throw .corrupt(offset: frame.offset, reason: "a record of kind \(frame.kind) that cannot be read")
        }
        self = record
    }

    private static func write(_ json: JSON) -> JournalRecord? {
        guard let parts = json["changes"]?.array else { return nil }
        var changes: [DatabaseChange] = []
        changes.reserveCapacity(parts.count)
        for part in parts {
            guard let change = DatabaseChange(json: part) else { return nil }
            changes.append(change)
        }
        guard let key = json["key"]?.string else { return .write(changes: changes, key: nil, entry: nil) }
        guard let entry = json["entry"].flatMap(IdempotencyStore.entry(json:)) else { return nil }
        return .write(changes: changes, key: key, entry: entry)
    }
}

/// A file's size and CRC-32: how the journal recognises the database file it was folded into.
struct FileStamp: Hashable, Sendable, CustomStringConvertible {
    var size: Int
    var crc: UInt32

    init(size: Int, crc: UInt32) {
        self.size = size
        self.crc = crc
    }

    /// The stamp of `bytes`.
    init(of bytes: [UInt8]) {
        self.init(size: bytes.count, crc: JournalCodec.crc32(bytes))
    }

    var json: JSON { ["size": .number(JSON.Number(size)), "crc": .number(JSON.Number(Int(crc)))] }

    init?(json: JSON) {
        guard let size = json["size"]?.int, let crc = json["crc"]?.int.flatMap({ UInt32(exactly: $0) }) else {
            return nil
        }
        self.init(size: size, crc: crc)
    }

    var description: String { "\(size) bytes, CRC-32 \(String(crc, radix: 16))" }
}
