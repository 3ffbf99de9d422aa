import Foundation

/// The disk tier's binary file format, version 1: one entry per file.
///
/// All integers are little-endian; a string is a UInt32 byte count and UTF-8 bytes.
///
/// | field | encoding |
/// |---|---|
/// | magic | the 4 bytes `TTHC` |
/// | version | UInt16, `1` |
/// | flags | UInt16, `0` (reserved) |
/// | key | string |
/// | URL | string |
/// | status | UInt16 |
/// | request time, response time | Float64 seconds since 1970, as UInt64 bit patterns |
/// | headers | UInt32 count, then name and value strings |
/// | vary fields | UInt32 count, then a name string, a UInt8 presence flag and, if `1`, a value string |
/// | body | UInt64 byte count and the bytes |
/// | checksum | UInt64 FNV-1a of every byte before it |
///
/// Decoding checks the magic, version, every length against the bytes left, UTF-8, the URL, that nothing follows
/// the checksum, and the checksum itself, so a truncated or altered file decodes as `nil` rather than as a wrong
/// response.
///
/// - Complexity: O(n) in the size of the entry, both ways.
enum CacheEntryCodec {
    static let magic: [UInt8] = Array("TTHC".utf8)
    static let version: UInt16 = 1

    /// What a file holds: the rest of a ``CacheEntry`` is derived from it.
    struct Record: Sendable, Equatable {
        var key: String
        var response: CachedResponse
        var varyFields: [CacheEntry.VaryField]
    }

    static func encode(_ record: Record) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(record.response.body.count + 512)
        out += magic
        append(version, to: &out)
        append(UInt16(0), to: &out)
        append(record.key, to: &out)
        append(record.response.url.absoluteString, to: &out)
        append(UInt16(clamping: record.response.status), to: &out)
        append(record.response.requestTime.timeIntervalSince1970.bitPattern, to: &out)
        append(record.response.responseTime.timeIntervalSince1970.bitPattern, to: &out)
        append(UInt32(record.response.headers.count), to: &out)
        for field in record.response.headers {
            append(field.name, to: &out)
            append(field.value, to: &out)
        }
        append(UInt32(record.varyFields.count), to: &out)
        for field in record.varyFields {
            append(field.name, to: &out)
            if let value = field.value {
                out.append(1)
                append(value, to: &out)
            } else {
                out.append(0)
            }
        }
        append(UInt64(record.response.body.count), to: &out)
        out += record.response.body
        append(CacheKey.fnv1a64(out), to: &out)
        return out
    }

    /// The record in `bytes`, or `nil` when they are not a complete, intact version 1 entry.
    static func decode(_ bytes: [UInt8]) -> Record? {
        guard bytes.count >= magic.count + 4 + 8, bytes.starts(with: magic) else { return nil }
        let payloadEnd = bytes.count - 8
        var checksumReader = Reader(bytes: bytes, position: payloadEnd, end: bytes.count)
        guard let checksum = checksumReader.integer(UInt64.self),
            checksum == CacheKey.fnv1a64(bytes[..<payloadEnd])
        else { return nil }

        var reader = Reader(bytes: bytes, position: magic.count, end: payloadEnd)
        guard reader.integer(UInt16.self) == version, reader.integer(UInt16.self) != nil,
            let key = reader.string(), let urlText = reader.string(), let url = URL(string: urlText),
            let status = reader.integer(UInt16.self),
            let requestTime = reader.integer(UInt64.self), let responseTime = reader.integer(UInt64.self),
            let headerCount = reader.integer(UInt32.self)
        else { return nil }
        var headers = HTTPHeaders()
        for _ in 0..<headerCount {
            guard let name = reader.string(), let value = reader.string() else { return nil }
            headers.add(name, value)
        }
        guard let varyCount = reader.integer(UInt32.self) else { return nil }
        var varyFields: [CacheEntry.VaryField] = []
        for _ in 0..<varyCount {
            guard let name = reader.string(), let flag = reader.byte(), flag <= 1 else { return nil }
            var value: String?
            if flag == 1 {
                guard let text = reader.string() else { return nil }
                value = text
            }
            varyFields.append(.init(name: name, value: value))
        }
        guard let bodyCount = reader.integer(UInt64.self), let body = reader.bytes(count: bodyCount),
            reader.isAtEnd
        else { return nil }
        let response = CachedResponse(
            status: Int(status), headers: headers, body: Data(body), url: url,
            requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestTime)),
            responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseTime)))
        return Record(key: key, response: response, varyFields: varyFields)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        var little = value.littleEndian
        withUnsafeBytes(of: &little) { out += $0 }
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        append(UInt32(text.utf8.count), to: &out)
        out += text.utf8
    }

    /// A bounds-checked cursor; every read returns `nil` past `end`.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        let end: Int

        var isAtEnd: Bool { position == end }

        mutating func byte() -> UInt8? {
            guard position < end else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard end - position >= size else { return nil }
            var value: T = 0
            for i in 0..<size { value |= T(bytes[position + i]) << (8 * i) }
            position += size
            return value
        }

        mutating func bytes(count: some FixedWidthInteger) -> ArraySlice<UInt8>? {
            guard count >= 0, UInt64(count) <= UInt64(end - position) else { return nil }
            let start = position
            position += Int(count)
            return bytes[start..<position]
        }

        mutating func string() -> String? {
            guard let count = integer(UInt32.self), let utf8 = bytes(count: count) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}
