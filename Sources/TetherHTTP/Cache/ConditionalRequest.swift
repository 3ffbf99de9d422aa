import Foundation

/// A client's own conditional GET or HEAD (`If-None-Match`, `If-Modified-Since`), answered by the cache from the
/// response it is about to serve (RFC 9111 §4.3.2): a fresh stored response, a stored response the server just
/// confirmed, or a new one.
///
/// The precedence of RFC 9110 §13.2.2: when `If-None-Match` is present, `If-Modified-Since` is ignored.
/// - `If-None-Match` (§13.1.2): `*` matches any response with an `ETag`; otherwise each listed entity tag is
///   compared with the response's `ETag` by weak comparison (§8.8.3.2: `W/` set aside, the opaque tags equal).
/// - `If-Modified-Since` (§13.1.3): not modified when the response's `Last-Modified` (else its `Date`, else the
///   time it was received, as RFC 9111 §4.3.2 says) is not later than the date given; a value that is not an HTTP
///   date is ignored.
///
/// Only a 2xx other than 206 is turned into a 304; any other response is served as it is.
enum ConditionalRequest {
    /// Whether `requestHeaders` make the request conditional on the cache's answer.
    static func isConditional(_ requestHeaders: HTTPHeaders) -> Bool {
        requestHeaders.contains("If-None-Match") || requestHeaders.contains("If-Modified-Since")
    }

    /// Whether the request's conditions say the response is not modified for the client.
    static func isNotModified(
        status: Int, headers: HTTPHeaders, responseTime: Date, requestHeaders: HTTPHeaders
    ) -> Bool {
        guard (200..<300).contains(status), status != 206 else { return false }
        if requestHeaders.contains("If-None-Match") {
            guard let etag = headers["ETag"].map({ CacheText.trimmed($0) }) else { return false }
            let tags = entityTags(in: requestHeaders.values(for: "If-None-Match"))
            return tags.contains { $0 == "*" || weaklyEqual($0, etag) }
        }
        guard let since = requestHeaders["If-Modified-Since"].flatMap({ HTTPDateParser.parse($0) }) else {
            return false
        }
        let modified =
            headers["Last-Modified"].flatMap { HTTPDateParser.parse($0) }
            ?? headers["Date"].flatMap { HTTPDateParser.parse($0) } ?? responseTime
        return modified <= since
    }

    /// The 304 that answers the request in place of `headers`' response: its fields without those describing the
    /// body (`Content-Length`, `Content-Type`, `Content-Encoding`, `Content-Language`, `Content-Range`), as RFC 9110
    /// §15.4.5 has a 304 carry the fields a 200 would (`ETag`, `Cache-Control`, `Expires`, `Vary`, `Date`, …).
    static func notModifiedHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        let bodyFields: Set<String> = [
            "content-length", "content-type", "content-encoding", "content-language", "content-range",
        ]
        var result = HTTPHeaders()
        for field in headers where !bodyFields.contains(CacheText.lowercased(field.name)) {
            result.add(field.name, field.value)
        }
        return result
    }

    /// The entity tags of `If-None-Match` lines: comma-separated, a comma inside a quoted tag kept.
    static func entityTags(in lines: [String]) -> [String] {
        lines.flatMap { CacheText.listMembers($0) }
    }

    /// Weak comparison (RFC 9110 §8.8.3.2): equal opaque tags, either or both marked weak.
    static func weaklyEqual(_ a: String, _ b: String) -> Bool {
        func opaque(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag) }
        return opaque(a) == opaque(b)
    }
}
