extension HTTPCache {
    /// What the cache has for a request.
    enum Lookup: Sendable, Equatable {
        /// Nothing usable: send the request as it is.
        case miss
        /// A fresh response: serve it without contacting the server. Its `Age` field holds its current age.
        case fresh(CachedResponse)
        /// A stored response that must be validated first: add `validators` (`If-None-Match`, `If-Modified-Since`)
        /// to the request; on 304 call ``HTTPCache/refresh(_:with:method:requestHeaders:requestTime:responseTime:)``
        /// and serve its result. With empty `validators`, send an ordinary request.
        case stale(CachedResponse, validators: HTTPHeaders)
    }
}
