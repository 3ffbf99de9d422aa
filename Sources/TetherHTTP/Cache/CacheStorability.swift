/// Whether a response may be stored (RFC 9111 §3), as a private cache decides it.
///
/// A response is stored when all of these hold:
/// - the request method is GET (a HEAD is answered from the stored GET, never stored itself);
/// - the status is heuristically cacheable (RFC 9110 §15.1: 200, 203, 204, 300, 301, 308, 404, 405, 410, 414,
///   501), so partial content (206), redirects the client follows (302, 303, 307) and errors are not;
/// - neither the request nor the response says `no-store`, and the request has no `Range`;
/// - the response's `Vary` does not contain `*`;
/// - it can be used: it has a validator, or it is fresh on arrival and not `no-cache`.
///
/// `private` responses are stored: this is a private cache.
enum CacheStorability {
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    static func allows(_ entry: CacheEntry, method: HTTPMethod, requestHeaders: HTTPHeaders) -> Bool {
        guard method == .get, heuristicallyCacheableStatuses.contains(entry.response.status),
            !requestHeaders.contains("Range"), !entry.varyIsWildcard
        else { return false }
        guard !CacheControl(requestHeaders, isRequest: true).noStore, !entry.directives.noStore else { return false }
        if Freshness.hasValidators(entry.response.headers) { return true }
        let freshness = entry.freshness
        return !freshness.requiresValidation
            && freshness.lifetime > freshness.currentAge(at: entry.response.responseTime)
    }
}
