import CZlib

/// Decodes `gzip` and `deflate` response bodies with zlib.
///
/// Only a body with exactly one of those codings is decoded; any other `Content-Encoding` (`br`, `zstd`, a chain
/// of codings) is left as it is, for the caller to handle.
enum ContentDecoding {
    /// A body that says it is gzip or deflate but is not.
    struct Failure: Error, CustomStringConvertible {
        let coding: String
        let detail: String
        var description: String { "The response body is not valid \(coding): \(detail)." }
    }

    /// The value sent as `Accept-Encoding`.
    static let acceptEncoding = "gzip, deflate"

    /// The coding to undo for `contentEncoding`, when it is one this decoder knows.
    enum Coding {
        case gzip, deflate
    }

    static func coding(for contentEncoding: String?) -> Coding? {
        guard let value = contentEncoding?.lowercased() else { return nil }
        let codings = value.split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
        guard codings.count == 1 else { return nil }
        switch codings[0] {
        case "gzip", "x-gzip": return .gzip
        case "deflate": return .deflate
        default: return nil
        }
    }

    /// Inflates `body`; at most `limit` bytes come out, else ``Failure`` reports a body too large (the caller checks
    /// the size with ``isTooLarge(_:)``).
    static func decode(_ body: [UInt8], coding: Coding, limit: Int) throws -> [UInt8] {
        switch coding {
        case .gzip:
            return try inflate(body, windowBits: 15 + 16, name: "gzip", limit: limit)
        case .deflate:
            // RFC 9110 means the zlib format; some servers send raw deflate, which is tried next.
            do {
                return try inflate(body, windowBits: 15, name: "deflate", limit: limit)
            } catch let failure as Failure where failure.detail != tooLarge {
                return try inflate(body, windowBits: -15, name: "deflate", limit: limit)
            }
        }
    }

    static let tooLarge = "the decoded body is over the size limit"

    static func isTooLarge(_ error: any Error) -> Bool {
        (error as? Failure)?.detail == tooLarge
    }

    private static func inflate(_ input: [UInt8], windowBits: Int32, name: String, limit: Int) throws -> [UInt8] {
        if input.isEmpty { return [] }
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(coding: name, detail: "zlib did not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(16 * 1024, min(input.count * 4, 1 << 20)))
        var status: Int32 = Z_OK
        try input.withUnsafeBufferPointer { inputBytes in
            stream.next_in = UnsafeMutablePointer(mutating: inputBytes.baseAddress)
            stream.avail_in = uInt(inputBytes.count)
            while status != Z_STREAM_END {
                let produced = chunk.withUnsafeMutableBufferPointer { out -> Int in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END {
                    let detail = status == Z_BUF_ERROR ? "the data ends early" : "zlib error \(status)"
                    throw Failure(coding: name, detail: detail)
                }
                if output.count + produced > limit { throw Failure(coding: name, detail: tooLarge) }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                    throw Failure(coding: name, detail: "the data ends early")
                }
            }
        }
        return output
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
