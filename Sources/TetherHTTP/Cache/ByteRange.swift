import Foundation

/// A request's single byte range (RFC 9110 §14.1.2) and the 206 (Partial Content) the cache answers it with from a
/// stored response (RFC 9111 §3.4, §4): a complete stored 200 serves any satisfiable range; a stored 206 serves the
/// ranges inside the bytes it holds.
///
/// Only one range is served from the cache (`bytes=0-1`, `bytes=5-`, `bytes=-3`); a request for several ranges,
/// another unit, or a range the stored bytes do not cover goes to the server as it is.
struct ByteRange: Sendable, Equatable {
    /// `first-last`, `first-` (to the end) or `-suffixLength` (the last bytes).
    enum Spec: Sendable, Equatable {
        case from(Int, through: Int?)
        case suffix(Int)
    }

    var spec: Spec

    /// The one byte range of a `Range` field, or `nil` when there is none, several, or the field is not one.
    init?(requestHeaders: HTTPHeaders) {
        let lines = requestHeaders.values(for: "Range")
        guard lines.count == 1, let line = lines.first else { return nil }
        let text = CacheText.trimmed(line)
        guard text.utf8.count > 6, CacheText.equalsIgnoringCase(text.prefix(6), "bytes=") else { return nil }
        let set = CacheText.trimmed(text.dropFirst(6))
        guard !set.contains(","), let dash = set.firstIndex(of: "-") else { return nil }
        let first = CacheText.trimmed(set[..<dash])
        let last = CacheText.trimmed(set[set.index(after: dash)...])
        if first.isEmpty {
            guard let length = CacheControl.deltaSeconds(last), length > 0 else { return nil }
            spec = .suffix(length)
        } else {
            guard let start = CacheControl.deltaSeconds(first) else { return nil }
            if last.isEmpty {
                spec = .from(start, through: nil)
            } else {
                guard let end = CacheControl.deltaSeconds(last), end >= start else { return nil }
                spec = .from(start, through: end)
            }
        }
    }

    /// A stored 206's `Content-Range`: the first and last byte it holds and the complete length, when known.
    struct ContentRange: Sendable, Equatable {
        var first: Int
        var last: Int
        var completeLength: Int?

        init?(_ headers: HTTPHeaders) {
            guard let text = headers["Content-Range"].map({ CacheText.trimmed($0) }),
                CacheText.equalsIgnoringCase(text.prefix(6), "bytes "), let slash = text.firstIndex(of: "/")
            else { return nil }
            let range = CacheText.trimmed(text[text.index(text.startIndex, offsetBy: 6)..<slash])
            let parts = range.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let first = CacheControl.deltaSeconds(String(parts[0])),
                let last = CacheControl.deltaSeconds(String(parts[1])), last >= first
            else { return nil }
            self.first = first
            self.last = last
            completeLength = CacheControl.deltaSeconds(CacheText.trimmed(text[text.index(after: slash)...]))
        }
    }

    /// The 206 answering this range from `stored` (a complete 200, or a 206 holding the bytes asked for), or `nil`
    /// when it cannot. Its fields are the stored ones, with `Content-Range` for the bytes served and no
    /// `Content-Length` (the transport sets it).
    func partialResponse(from stored: CachedResponse) -> CachedResponse? {
        let body = stored.body
        let slice: (first: Int, offsets: Range<Int>, length: Int?)
        switch stored.status {
        case 200:
            let length = body.count
            guard length > 0 else { return nil }
            switch spec {
            case .from(let first, let last):
                guard first < length else { return nil }
                slice = (first, first..<(min(last ?? length - 1, length - 1) + 1), length)
            case .suffix(let count):
                let first = max(0, length - count)
                slice = (first, first..<length, length)
            }
        case 206:
            guard let held = ContentRange(stored.headers), !body.isEmpty else { return nil }
            let heldLast = held.first + body.count - 1
            switch spec {
            case .from(let first, let last):
                guard first >= held.first, first <= heldLast else { return nil }
                if let last, let complete = held.completeLength, last > heldLast, last < complete - 1 { return nil }
                let end = min(last ?? heldLast, heldLast)
                slice = (first, (first - held.first)..<(end - held.first + 1), held.completeLength)
            case .suffix(let count):
                // The last bytes, when the stored part is the representation's end.
                guard let complete = held.completeLength, held.last == complete - 1, count <= body.count else {
                    return nil
                }
                slice = (complete - count, (body.count - count)..<body.count, complete)
            }
        default:
            return nil
        }
        var response = stored
        response.status = 206
        let start = body.startIndex
        response.body = Data(body[(start + slice.offsets.lowerBound)..<(start + slice.offsets.upperBound)])
        response.headers.remove("Content-Length")
        let last = slice.first + slice.offsets.count - 1
        response.headers.set("Content-Range", "bytes \(slice.first)-\(last)/\(slice.length.map(String.init) ?? "*")")
        return response
    }

    /// Two stored parts of one representation combined (RFC 9111 §3.4): `part` and `other` are 206s with the same
    /// strong `ETag` and complete length, whose bytes overlap or touch. The result is one part holding both (the
    /// newer `part`'s bytes and fields win where they overlap), or a complete 200 when together they hold every
    /// byte. `nil` when they cannot be combined: the newer part then replaces the older.
    static func combine(_ part: CachedResponse, with other: CachedResponse) -> CachedResponse? {
        guard part.status == 206, other.status == 206, let new = ContentRange(part.headers),
            let old = ContentRange(other.headers), let complete = new.completeLength, old.completeLength == complete,
            let etag = part.headers["ETag"], !etag.hasPrefix("W/"), other.headers["ETag"] == etag,
            !part.body.isEmpty, !other.body.isEmpty
        else { return nil }
        let newLast = new.first + part.body.count - 1
        let oldLast = old.first + other.body.count - 1
        // Overlapping or adjacent.
        guard new.first <= oldLast + 1, old.first <= newLast + 1 else { return nil }
        let first = min(new.first, old.first)
        let last = max(newLast, oldLast)
        var bytes = [UInt8](repeating: 0, count: last - first + 1)
        for (range, body) in [(old.first, other.body), (new.first, part.body)] {
            for (offset, byte) in body.enumerated() { bytes[range - first + offset] = byte }
        }
        var combined = part
        combined.body = Data(bytes)
        combined.headers.remove("Content-Length")
        if first == 0, last == complete - 1 {
            combined.status = 200
            combined.headers.remove("Content-Range")
        } else {
            combined.headers.set("Content-Range", "bytes \(first)-\(last)/\(complete)")
        }
        return combined
    }
}
