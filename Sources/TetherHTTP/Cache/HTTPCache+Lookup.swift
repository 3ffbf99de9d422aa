extension HTTPCache {
    /// What the cache has for a request.
    enum Lookup: Sendable, Equatable {
        /// Nothing usable: send the request as it is.
        case miss
        /// A fresh response: serve it without contacting the server. Its `Age` field holds its current age.
        case fresh(CachedResponse)
        /// A stored response that must be validated first: add `validators` (`If-None-Match`, `If-Modified-Since`)
        /// to the request; on 304 call ``HTTPCache/refresh(_:with:method:requestHeaders:requestTime:responseTime:)``
        /// and serve its result. With empty `validators`, send an ordinary request. `staleness` says whether it may
        /// be served as it is meanwhile (`stale-while-revalidate`) or when the server fails (`stale-if-error`).
        case stale(CachedResponse, validators: HTTPHeaders, staleness: Staleness)
    }

    /// How far past its freshness a stored response is, and whether it may still be served stale (RFC 5861;
    /// RFC 9111 §4.2.4: never when the response says `must-revalidate` or `no-cache`).
    struct Staleness: Sendable, Equatable {
        /// The response's current age, in seconds (for the `Age` of a stale response served).
        var age: Double
        /// Seconds past its freshness lifetime.
        var seconds: Double
        /// The response's `stale-while-revalidate` window, in seconds.
        var whileRevalidating: Int?
        /// The `stale-if-error` window, in seconds: the larger of the response's and the request's.
        var ifError: Int?
        /// Whether the response allows being served stale at all (neither `must-revalidate` nor `no-cache`).
        var mayServeStale: Bool
        /// The request asked for a validated answer (`no-cache`, or `max-age` / `min-fresh` it fails).
        var requestWantsValidation: Bool

        /// Whether to serve it at once and revalidate in the background (RFC 5861 §3).
        var allowsWhileRevalidating: Bool {
            guard mayServeStale, !requestWantsValidation, let window = whileRevalidating else { return false }
            return seconds <= Double(window)
        }

        /// Whether to serve it instead of a failure (RFC 5861 §4): within its `stale-if-error` window, or within
        /// `maximum` (the client's own limit for any stored response).
        func allowsOnError(maximum: Duration?) -> Bool {
            guard mayServeStale else { return false }
            if let window = ifError, seconds <= Double(window) { return true }
            guard let maximum else { return false }
            let limit = Double(maximum.components.seconds) + Double(maximum.components.attoseconds) / 1e18
            return seconds <= limit
        }
    }
}
