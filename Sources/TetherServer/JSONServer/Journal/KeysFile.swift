import Foundation

/// The keys file beside a database file: every remembered `Idempotency-Key` with its response, one
/// ``JournalRecord/key(_:_:)`` record each after the magic `TETHERK1`, rewritten whole (atomically) at every
/// fold. The keys of the writes since the fold are in the journal.
enum KeysFile {
    /// The bytes of a keys file holding `records` (framed key records).
    static func bytes(_ records: [[UInt8]]) -> [UInt8] {
        var bytes = JournalRecord.keysMagic
        bytes.reserveCapacity(records.reduce(bytes.count) { $0 + $1.count })
        for record in records { bytes.append(contentsOf: record) }
        return bytes
    }

    /// The keys in `bytes`, in order.
    ///
    /// - Throws: ``JournalCodec/Failure`` when the file is damaged.
    static func keys(in bytes: [UInt8]) throws(JournalCodec.Failure) -> [(key: String, entry: IdempotencyStore.Entry)] {
        let decoded = try JournalCodec.decode(bytes, magic: JournalRecord.keysMagic)
        var keys: [(key: String, entry: IdempotencyStore.Entry)] = []
        keys.reserveCapacity(decoded.frames.count)
        for frame in decoded.frames {
            guard case .key(let key, let entry) = try JournalRecord(frame: frame) else {
                throw .corrupt(offset: frame.offset, reason: "a record that is not a key")
            }
            keys.append((key, entry))
        }
        return keys
    }
}
