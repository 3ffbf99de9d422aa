/// Whether a response may be stored (RFC 9111 §3), as a private cache decides it.
///
/// A response is stored when all of these hold:
/// - the request method is GET (a HEAD is answered from the stored GET, never stored itself);
/// - the status is final and not 304 (it refreshes a stored response); a 206 only with a single `Content-Range`
///   (§3.4), and never in place of a complete stored response (``HTTPCache/store(_:method:requestHeaders:writesInBackground:)``);
/// - neither the request nor the response says `no-store`; with `must-understand`
///   (§5.2.2.3), a response whose status this cache understands (``understoodStatuses``) is stored despite its
///   `no-store`, and one whose status it does not understand is never stored;
/// - the response's `Vary` does not contain `*`;
/// - the status is heuristically cacheable (RFC 9110 §15.1: 200, 203, 204, 300, 301, 308, 404, 405, 410, 414,
///   501), or the response has explicit freshness or says it may be stored: `max-age`, `Expires`, `public` or
///   `private` (§3, so a `500` with `max-age=60` is stored and served while fresh);
/// - it can be used: it has a validator, or it is not `no-cache` and is fresh on arrival or has a
///   `stale-while-revalidate` or `stale-if-error` window (RFC 5861) it can be served in.
///
/// `private` responses are stored: this is a private cache. For the same reason a response to a request with
/// `Authorization` is stored (§3.5 restricts shared caches only).
enum CacheStorability {
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The statuses whose caching requirements this cache implements, for `must-understand`: the final statuses
    /// RFC 9110 defines, except 304 (never stored itself).
    static let understoodStatuses: Set<Int> = Set(
        [200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 305, 307, 308]
            + Array(400...417) + [421, 422, 426] + Array(500...505))

    static func allows(_ entry: CacheEntry, method: HTTPMethod, requestHeaders: HTTPHeaders) -> Bool {
        let status = entry.response.status
        guard method == .get, status >= 200, status != 304, !entry.varyIsWildcard else { return false }
        // A part is stored when it says which bytes it holds (one range, not multipart/byteranges).
        if status == 206, ByteRange.ContentRange(entry.response.headers) == nil { return false }
        let directives = entry.directives
        if directives.mustUnderstand {
            guard understoodStatuses.contains(status) else { return false }
        } else if directives.noStore {
            return false
        }
        guard !CacheControl(requestHeaders, isRequest: true).noStore else { return false }
        let explicitlyStorable =
            directives.maxAge != nil || entry.response.headers.contains("Expires") || directives.isPublic
            || directives.isPrivate
        guard heuristicallyCacheableStatuses.contains(status) || status == 206 || explicitlyStorable else {
            return false
        }
        if Freshness.hasValidators(entry.response.headers) { return true }
        let freshness = entry.freshness
        guard !freshness.requiresValidation else { return false }
        // Stale on arrival, it can still be served within a `stale-while-revalidate` or `stale-if-error` window.
        let servableStale =
            !freshness.mustRevalidate && (directives.staleWhileRevalidate ?? 0 > 0 || directives.staleIfError ?? 0 > 0)
        return servableStale || freshness.lifetime > freshness.currentAge(at: entry.response.responseTime)
    }
}
