/// The parts of an origin-form request target: `/path/segments?name=value&name=value`.
///
/// Percent-escapes are decoded as UTF-8; in the query `+` means a space, as HTML forms and Express's `qs` read it.
/// An absolute-form target (`http://host/path?q`) is reduced to its path and query.
public struct HTTPTarget: Sendable, Hashable {
    /// The target as sent.
    public let raw: String

    public init(_ raw: String) { self.raw = raw }

    private var pathAndQuery: Substring {
        var text = Substring(raw)
        if !text.hasPrefix("/"), let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let rest = text[text.index(colon, offsetBy: 3)...]
            text = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        return text
    }

    /// The raw (still escaped) path.
    public var rawPath: Substring {
        let text = pathAndQuery
        return text.firstIndex(of: "?").map { text[..<$0] } ?? text
    }

    /// The raw (still escaped) query, without the `?`; `nil` when there is none.
    public var rawQuery: Substring? {
        let text = pathAndQuery
        return text.firstIndex(of: "?").map { text[text.index(after: $0)...] }
    }

    /// The decoded path, or `nil` when an escape is malformed or decodes to invalid UTF-8.
    public var path: String? { HTTPTarget.percentDecode(rawPath, plusIsSpace: false) }

    /// The decoded path segments, without empty ones: `/posts/1/` → `["posts", "1"]`.
    public var pathSegments: [String]? {
        var segments: [String] = []
        for part in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = HTTPTarget.percentDecode(part, plusIsSpace: false) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The query items in order, decoded; a malformed escape leaves that item's text as sent.
    public var queryItems: [(name: String, value: String)] {
        guard let query = rawQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            return (
                HTTPTarget.percentDecode(name, plusIsSpace: true) ?? String(name),
                HTTPTarget.percentDecode(value, plusIsSpace: true) ?? String(value)
            )
        }
    }

    /// Decodes `%XX` escapes (and `+` when asked) as UTF-8; `nil` on a malformed escape or invalid UTF-8.
    public static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Encodes `text` for a path segment or query value: everything but RFC 3986 unreserved characters is
    /// percent-encoded as UTF-8 (so `+` becomes `%2B` and a space `%20`).
    public static func percentEncode(_ text: some StringProtocol) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
