/// Which header fields a stored response keeps (RFC 9111 §3.1) and how a 304 updates them (§3.2, §4.3.4).
enum StoredHeaders {
    /// Fields that describe one connection, never stored or merged.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// `headers` without hop-by-hop fields and without the fields `Connection` names.
    ///
    /// - Complexity: O(n) in the number of fields.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        let excluded = hopByHop.union(CacheText.listElements(of: "Connection", in: headers).map(CacheText.lowercased))
        return HTTPHeaders(
            headers.filter { !excluded.contains(CacheText.lowercased($0.name)) }.map { ($0.name, $0.value) })
    }

    /// `stored` updated with the fields of a 304 response: each field the 304 carries replaces every stored field of
    /// that name (in the position of the first), others are appended; hop-by-hop fields and `Content-Length` (which
    /// describes the stored body, not the empty 304) are left alone.
    ///
    /// - Complexity: O(n × m) for n stored and m new fields.
    static func merging(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        var merged = stored
        let update = storable(notModified)
        var replaced: Set<String> = []
        for field in update {
            let name = CacheText.lowercased(field.name)
            guard name != "content-length" else { continue }
            if replaced.insert(name).inserted {
                merged.set(field.name, field.value)
            } else {
                merged.add(field.name, field.value)
            }
        }
        return merged
    }
}
