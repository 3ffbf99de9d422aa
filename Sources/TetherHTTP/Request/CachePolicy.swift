/// How one request uses the client's ``HTTPCache``.
///
/// Only GET and HEAD requests are answered from the cache; other methods always go to the network (and a
/// successful unsafe method invalidates the cached response for its URL).
public enum CachePolicy: Sendable, Hashable {
    /// RFC 9111: a fresh response is served from the cache; a stale one is revalidated with its validators
    /// (`If-None-Match`, `If-Modified-Since`), and a 304 serves the stored body.
    case useProtocol
    /// Always ask the network; the answer still updates the cache.
    case reload
    /// Serve any cached response, fresh or stale, without asking; load from the network only when nothing is
    /// cached.
    case returnCacheElseLoad
    /// Serve any cached response, fresh or stale; never use the network. Nothing cached is
    /// ``HTTPError/Kind/notCached``.
    case cacheOnly
    /// Serve any cached response at once and revalidate it in the background; with
    /// ``HTTPClient/responses(for:)`` the fresh response follows the cached one.
    case staleWhileRevalidate
}
