import Foundation

/// Builds the absolute URL of a request from the base URL, its path and its query items.
enum URLBuilder {
    /// The URL for `path` (relative to `baseURL`, or absolute) with `query` appended to any query it already has.
    ///
    /// Spaces and non-ASCII characters in the path are percent-encoded (`/tags/ノート` works); `%` escapes already in
    /// it are kept. Relative paths are appended to the base URL's path (`/api` + `posts/1` and `/api` + `/posts/1` both give
    /// `/api/posts/1`), as most REST clients do, rather than resolved per RFC 3986 (which would drop `/api`).
    ///
    /// - Throws: a reason, when the path or base URL does not make a valid `http`/`https` URL.
    static func url(
        baseURL: URL?, path: String, query: [(name: String, value: String?)]
    ) throws(RequestProblem) -> URL {
        let base: String
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            base = path
        } else if let baseURL {
            var root = baseURL.absoluteString
            while root.hasSuffix("/") { root.removeLast() }
            if path.isEmpty {
                base = root
            } else {
                base = root + (path.hasPrefix("/") || path.hasPrefix("?") ? path : "/" + path)
            }
        } else {
            throw RequestProblem("'\(path)' is not an absolute URL and the client has no base URL")
        }
        // One pass over the bytes finds control characters and what needs encoding (UTF-8 bytes below 0x80 are
        // ASCII characters, so this matches a pass over the scalars).
        var needsEncoding = false
        for byte in base.utf8 {
            if byte < 0x20 || byte == 0x7F {
                throw RequestProblem(
                    "the path contains the control character U+\(String(byte, radix: 16, uppercase: true))")
            }
            if byte == 0x20 || byte >= 0x80 { needsEncoding = true }
        }
        // Spaces and non-ASCII characters in the path are percent-encoded as UTF-8; existing escapes are kept.
        var text: String
        if needsEncoding {
            text = ""
            for scalar in base.unicodeScalars {
                if scalar.value == 0x20 || scalar.value > 0x7F {
                    text += PercentEncoding.encode(String(scalar))
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        } else {
            text = base
        }
        if !query.isEmpty {
            var encoded = ""
            for (index, item) in query.enumerated() {
                if index > 0 { encoded += "&" }
                encoded += PercentEncoding.encode(item.name)
                if let value = item.value { encoded += "=" + PercentEncoding.encode(value) }
            }
            if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
            text += (text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?") + encoded
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw RequestProblem("'\(text)' is not a valid http or https URL")
        }
        return url
    }
}

/// Why a request could not be built; becomes ``HTTPError/Kind/invalidRequest(reason:)``.
struct RequestProblem: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
