/// The `Cache-Control` directives (RFC 9111 §5.2) of a request or a response, as this private cache reads them.
///
/// Every `Cache-Control` field of the message is read, directives are separated by commas, names compare
/// case-insensitively and values are tokens or quoted strings. Rules for odd input, each the conservative choice
/// RFC 9111 allows:
/// - a repeated directive keeps its first value;
/// - a `max-age` (or `min-fresh`) value that is not delta-seconds counts as `0`, so the response is stale;
/// - delta-seconds beyond 2^31 are capped at 2^31 (RFC 9111 §1.2.2);
/// - the qualified forms `no-cache="field"` and `private="field"` act as the unqualified directives;
/// - unknown directives and `s-maxage`, `proxy-revalidate` (shared-cache directives) are ignored; `public` only
///   makes a response storable whatever its status.
///
/// A request with `Pragma: no-cache` and no `Cache-Control` field gets `noCache` (RFC 9111 §5.4).
///
/// - Complexity: O(n) in the length of the fields.
struct CacheControl: Sendable, Equatable {
    /// `max-age=N`: in a response, its freshness lifetime; in a request, the oldest response the client accepts.
    var maxAge: Int?
    /// `no-store`: never store this response (or the response to this request).
    var noStore = false
    /// `no-cache`: a stored response must be validated with the origin before each use.
    var noCache = false
    /// `must-revalidate`: once stale, the response is never served without a successful validation.
    var mustRevalidate = false
    /// `private`: stored all the same, since this is a private cache; it makes a response storable whatever its
    /// status (§3).
    var isPrivate = false
    /// `public`: a response that may be stored whatever its status (§3).
    var isPublic = false
    /// `must-understand` (§5.2.2.3): store only when the status's caching rules are understood, and then despite
    /// `no-store`.
    var mustUnderstand = false
    /// `max-stale[=N]` (request): the client accepts a response stale by up to N seconds, `Int.max` when no N.
    var maxStale: Int?
    /// `min-fresh=N` (request): the client wants a response that stays fresh for at least N more seconds.
    var minFresh: Int?
    /// `stale-while-revalidate=N` (response, RFC 5861 §3): once stale, served for N more seconds while a
    /// revalidation runs in the background.
    var staleWhileRevalidate: Int?
    /// `stale-if-error=N` (response or request, RFC 5861 §4): once stale, served for N more seconds when the
    /// server fails (no answer, or 500, 502, 503, 504).
    var staleIfError: Int?

    /// The largest delta-seconds value kept (RFC 9111 §1.2.2).
    static let deltaSecondsCap = 1 << 31

    init() {}

    /// The directives of the `Cache-Control` fields in `headers`; with `isRequest`, `Pragma: no-cache` counts too.
    init(_ headers: HTTPHeaders, isRequest: Bool = false) {
        let fields = headers.values(for: "Cache-Control")
        if fields.isEmpty {
            if isRequest, CacheText.listElements(of: "Pragma", in: headers).contains(where: { isNoCache($0) }) {
                noCache = true
            }
            return
        }
        var seen: Set<String> = []
        for field in fields {
            for (name, value) in Self.directives(in: field) where seen.insert(name).inserted {
                apply(name, value)
            }
        }
    }

    private func isNoCache(_ element: String) -> Bool { CacheText.equalsIgnoringCase(element, "no-cache") }

    private mutating func apply(_ name: String, _ value: String?) {
        switch name {
        case "max-age": maxAge = Self.deltaSeconds(value) ?? 0
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "must-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-understand": mustUnderstand = true
        case "max-stale": maxStale = value == nil ? Int.max : Self.deltaSeconds(value) ?? 0
        case "min-fresh": minFresh = Self.deltaSeconds(value) ?? 0
        case "stale-while-revalidate": staleWhileRevalidate = Self.deltaSeconds(value)
        case "stale-if-error": staleIfError = Self.deltaSeconds(value)
        default: break
        }
    }

    /// Delta-seconds (RFC 9111 §1.2.2): one or more digits, capped; `nil` when `text` is not that.
    static func deltaSeconds(_ text: String?) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), deltaSecondsCap)
        }
        return value
    }

    /// The `(lowercased name, value)` pairs of one field value; quoted values are unquoted.
    static func directives(in field: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        let bytes = Array(field.utf8)
        var i = 0
        func skipWhitespace() {
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == 0x09 { i += 1 }
        }
        while i < bytes.count {
            skipWhitespace()
            let nameStart = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ",") { i += 1 }
            let name = CacheText.lowercased(CacheText.trimmed(String(decoding: bytes[nameStart..<i], as: UTF8.self)))
            var value: String?
            if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                    i += 1
                    var unquoted: [UInt8] = []
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                        if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count { i += 1 }
                        unquoted.append(bytes[i])
                        i += 1
                    }
                    i += 1  // The closing quote, if any.
                    while i < bytes.count, bytes[i] != UInt8(ascii: ",") { i += 1 }
                    value = String(decoding: unquoted, as: UTF8.self)
                } else {
                    let valueStart = i
                    while i < bytes.count, bytes[i] != UInt8(ascii: ",") { i += 1 }
                    value = CacheText.trimmed(String(decoding: bytes[valueStart..<i], as: UTF8.self))
                }
            }
            if !name.isEmpty { result.append((name, value)) }
            i += 1  // The comma.
        }
        return result
    }
}
