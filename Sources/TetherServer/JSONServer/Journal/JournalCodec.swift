import CZlib

/// The framing of the server's own files (the journal and the keys file beside a database file): an 8-byte
/// magic, then records, each `length` (UInt32, little-endian: the bytes after this 8-byte header), `crc`
/// (UInt32, little-endian: zlib's CRC-32 of those bytes), then a kind byte and the payload.
///
/// Pure: bytes in, bytes or records out; no file is touched here (see ``JournalFile``).
///
/// Decoding tells a torn tail from corruption. A process killed while appending (or a machine losing power)
/// leaves the last record short, or with its end zeroed: that record was never acknowledged, so
/// ``decode(_:magic:)`` stops before it and reports how many bytes to drop. A record that fails its checksum
/// while whole records follow it cannot come from an interrupted append: that is corruption, and decoding
/// throws ``Failure`` rather than dropping acknowledged writes silently.
enum JournalCodec {
    /// The bytes before each record's kind: length and CRC-32.
    static let headerSize = 8
    /// The longest record accepted (1 GiB); a longer length field is read as damage.
    static let maximumLength = 1 << 30

    /// One framed record, as read.
    struct Frame: Equatable, Sendable {
        var kind: UInt8
        var payload: [UInt8]
        /// Where the record starts in the file, and where the next one does.
        var offset: Int
        var end: Int
    }

    /// What ``decode(_:magic:)`` read.
    struct Decoded: Equatable, Sendable {
        /// The whole records, in order.
        var frames: [Frame]
        /// The length of the file up to the end of the last whole record.
        var validLength: Int
        /// The bytes after ``validLength``: a torn last record, to be truncated away (0 for a clean file).
        var tornBytes: Int
    }

    /// Why a file cannot be read.
    enum Failure: Error, Equatable {
        /// The file does not start with the expected magic (and is not a torn first write of it).
        case badMagic
        /// A record in the middle fails its checksum or framing: `offset` is where it starts.
        case corrupt(offset: Int, reason: String)
    }

    /// The bytes of one record.
    static func encode(kind: UInt8, payload: [UInt8]) -> [UInt8] {
        var body = [UInt8]()
        body.reserveCapacity(payload.count + 1)
        body.append(kind)
        body.append(contentsOf: payload)
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerSize + body.count)
        appendLittleEndian(UInt32(body.count), to: &bytes)
        appendLittleEndian(crc32(body), to: &bytes)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// Reads `bytes`, which must start with `magic`.
    ///
    /// - Returns: the whole records and the length of the torn tail, if any. A file shorter than the magic
    ///   whose bytes are a prefix of it (a creation cut short) reads as empty, all of it torn.
    /// - Throws: ``Failure/badMagic`` or ``Failure/corrupt(offset:reason:)`` for damage a crash cannot explain.
    static func decode(_ bytes: [UInt8], magic: [UInt8]) throws(Failure) -> Decoded {
        if bytes.count < magic.count {
            guard Array(magic.prefix(bytes.count)) == bytes else { throw .badMagic }
            return Decoded(frames: [], validLength: 0, tornBytes: bytes.count)
        }
        guard Array(bytes[0..<magic.count]) == magic else { throw .badMagic }
        var frames: [Frame] = []
        var offset = magic.count
        while offset < bytes.count {
            let remaining = bytes.count - offset
            if remaining < headerSize { break }
            let length = Int(readLittleEndian(bytes, at: offset))
            let crc = readLittleEndian(bytes, at: offset + 4)
            if length > remaining - headerSize { break }
            let start = offset + headerSize
            let end = start + length
            let body = bytes[start..<end]
            var damage: String?
            if length < 1 || length > maximumLength {
                damage = "a record of length \(length)"
            } else if crc32(body) != crc {
                damage = "a record that fails its checksum"
            }
            if let damage {
                // The last record, or nothing but zeros to the end (space the file system allocated for an
                // append it never completed): a torn tail. Anything else cannot come from a crash.
                if end == bytes.count || bytes[offset...].allSatisfy({ $0 == 0 }) { break }
                throw .corrupt(offset: offset, reason: damage)
            }
            frames.append(Frame(kind: body[start], payload: Array(body.dropFirst()), offset: offset, end: end))
            offset = end
        }
        return Decoded(frames: frames, validLength: offset, tornBytes: bytes.count - offset)
    }

    /// zlib's CRC-32 of `bytes`.
    static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        if let result { return result }
        return crc32(Array(bytes))
    }

    static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
        return value
    }
}
