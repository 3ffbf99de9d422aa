public import Foundation
import Synchronization
import TetherSync

/// TetherHTTP's HTTP cache: RFC 9111 private-cache behaviour for GET and HEAD, with a memory tier and an optional
/// disk tier.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
/// let cache = HTTPCache(configuration: .init(directory: caches.appendingPathComponent("http")))
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) { $0.cache = cache }
/// cache.removeResponses(for: URL(string: "https://api.example.com/posts/1")!)
/// ```
///
/// The client consults it around each GET and HEAD: `lookup(method:url:requestHeaders:now:)` before sending
/// (fresh: serve; stale: add the validators), `store(_:method:requestHeaders:)` after a full response,
/// `refresh(_:with:method:requestHeaders:requestTime:responseTime:)` after a 304, and
/// `invalidate(afterResponseTo:url:status:headers:)` after any other method.
///
/// What it implements: freshness from `max-age`, `Expires` with `Date`, `Age` and the request and response
/// times (`Freshness`); `no-store`, `no-cache`, `must-revalidate` and `private` (stored: this is a private
/// cache; `s-maxage` is ignored); `Vary`, with `Vary: *` never matching; `ETag`/`If-None-Match` and
/// `Last-Modified`/`If-Modified-Since` validation with a 304 merging its header fields into the stored response;
/// the request's `no-cache`, `no-store`, `max-age`, `min-fresh` and `max-stale`; invalidation by unsafe methods;
/// opt-in heuristic freshness and a fixed time-to-live for APIs that send neither freshness nor validators.
///
/// One entry is kept per URL: a response that varies differently replaces the one stored. Entries go to both
/// tiers; a disk hit is copied into memory. The responses the client stores reach the disk through a serial
/// background writer, so no request waits for a file write and its `fsync`; until an entry is on disk, reads are
/// served from the writer's queue, and removals supersede queued writes of the same URL (``flush()`` waits for the
/// queue, for example before another process opens the directory).
///
/// - Thread safety: `Sendable`; every method may be called from any thread or task. The memory tier sits behind
///   one `Locked` held only for dictionary-sized work; the disk tier serialises its file I/O behind its own.
///   Calls are synchronous and may do disk I/O (reads, removals, ``flush()``): call them from background tasks,
///   not from the main actor.
public final class HTTPCache: Sendable {
    public let configuration: Configuration

    private let memory: Locked<MemoryCacheTier>
    private let disk: DiskCacheWriter?
    private let diskOpeningError: String?

    /// A cache with `configuration`, creating its directory (mode 0700) when one is set.
    ///
    /// Never throws: when the directory cannot be created or used the cache runs without a disk tier, and
    /// ``diskError`` says why.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        memory = Locked(MemoryCacheTier(costLimit: configuration.memoryCostLimit))
        if let directory = configuration.directory {
            do {
                disk = DiskCacheWriter(
                    tier: try DiskCacheTier(directory: directory, sizeLimit: configuration.diskSizeLimit))
                diskOpeningError = nil
            } catch {
                disk = nil
                diskOpeningError = error.reason
            }
        } else {
            disk = nil
            diskOpeningError = nil
        }
    }

    /// Why the disk tier is off, or why its latest write failed (cleared by the next successful one); `nil` when all
    /// is well or there is no directory. Writes made for the client land in the background: ``flush()`` first to
    /// see their outcome.
    public var diskError: String? { diskOpeningError ?? disk?.tier.lastError }

    /// Whether a disk tier is in use.
    public var hasDiskTier: Bool { disk != nil }

    /// The memory tier's current cost in bytes (body bytes plus a header estimate per entry).
    public var memoryCost: Int { memory.withLock { $0.cost } }

    /// The disk tier's current size in bytes of entry files (writes still queued not counted); `0` without a disk
    /// tier.
    public var diskSize: Int { disk?.tier.size ?? 0 }

    /// Blocks until every disk write queued so far has landed or failed; returns at once without a disk tier.
    ///
    /// Responses the client stores are written to disk by a background queue, off the request path (a write
    /// includes an `fsync`). Reads never need this: a queued entry is served from the queue until it is on disk.
    /// Call it before handing the directory to another ``HTTPCache`` or process, at shutdown, and in tests.
    /// Do not call it from the main actor when writes may be queued: it waits for their I/O.
    ///
    /// - Complexity: the queued writes' I/O.
    public func flush() {
        disk?.flush()
    }

    /// Removes every stored response from both tiers, deleting the entry files.
    public func removeAll() {
        memory.withLock { $0.removeAll() }
        disk?.removeAll()
    }

    /// Removes the response stored for `url` (its fragment ignored) from both tiers.
    ///
    /// - Complexity: O(1) plus one file deletion.
    public func removeResponses(for url: URL) {
        let key = CacheKey.key(for: url)
        memory.withLock { $0.remove(key) }
        disk?.remove(key)
    }

    /// Removes every response stored for URLs on `host` (compared case-insensitively; any scheme and port), from
    /// both tiers: what an app calls at logout for its API's host.
    ///
    /// - Complexity: O(n) in the entries; the disk tier reads each entry file's key.
    public func removeResponses(host: String) {
        let wanted = CacheText.lowercased(host)
        removeResponses { url in url.host.map { CacheText.lowercased($0) == wanted } ?? false }
    }

    /// Removes every response stored for a URL that starts with `prefix` (its absolute string, compared as
    /// written: `https://api.example.com/v1/users/` removes `…/users/1` and `…/users/1?page=2`), from both tiers.
    ///
    /// - Complexity: O(n) in the entries; the disk tier reads each entry file's key.
    public func removeResponses(withPrefix prefix: URL) {
        let text = prefix.absoluteString
        removeResponses { $0.absoluteString.hasPrefix(text) }
    }

    /// Removes every stored response whose URL `matches`, from both tiers.
    private func removeResponses(where matches: @escaping @Sendable (URL) -> Bool) {
        let matchesKey: @Sendable (String) -> Bool = { key in CacheKey.url(ofKey: key).map(matches) ?? false }
        memory.withLock { $0.removeAll(where: matchesKey) }
        disk?.removeAll(where: matchesKey)
    }

    // MARK: - Used by the client

    /// What the cache has for a request at `now`.
    ///
    /// `.miss` for methods other than GET and HEAD, for a request with `Cache-Control: no-store`, when nothing is
    /// stored, and when the stored response's `Vary` fields do not match. A request with one byte range
    /// (``ByteRange``) gets a fresh 206 cut from a fresh stored response that holds its bytes, else `.miss`; a
    /// stored part answers no request for the whole representation. Otherwise `.fresh` or
    /// `.stale` as ``CacheEntry/lookup(_:now:)`` decides; a request with `no-cache` (or `Pragma: no-cache`) or
    /// `max-age=0` gets `.stale`. HEAD is answered from the stored GET.
    ///
    /// - Complexity: O(1) for a memory hit (plus O(h) header work); a disk hit adds one file read.
    func lookup(method: HTTPMethod, url: URL, requestHeaders: HTTPHeaders, now: Date) -> Lookup {
        guard method == .get || method == .head else { return .miss }
        let range = ByteRange(requestHeaders: requestHeaders)
        if range == nil, requestHeaders.contains("Range") { return .miss }
        let requestDirectives = CacheControl(requestHeaders, isRequest: true)
        guard !requestDirectives.noStore, let entry = entry(for: CacheKey.key(for: url)),
            entry.matches(requestHeaders)
        else { return .miss }
        let result = entry.lookup(requestDirectives, now: now)
        guard let range else {
            // A stored part cannot answer a request for the whole representation.
            return entry.response.status == 206 ? .miss : result
        }
        // A range is served from a fresh stored response that holds its bytes; otherwise the server answers it.
        guard case .fresh(let served) = result, let partial = range.partialResponse(from: served) else { return .miss }
        return .fresh(partial)
    }

    /// Stores a full response to a GET when RFC 9111 allows it (``CacheStorability``), replacing the entry for
    /// its URL; returns whether it was stored.
    ///
    /// Hop-by-hop header fields are dropped first. A successful (2xx) response that may not be stored removes the
    /// entry for its URL, which it supersedes. `response.url` must be the request's URL. With
    /// `writesInBackground` (what the client uses), the disk write is queued (``DiskCacheWriter``) and counts as
    /// stored; otherwise it happens before returning.
    ///
    /// - Complexity: O(h) header work, O(1) memory work plus evictions, and a file write with a disk tier (on
    ///   the writer's queue with `writesInBackground`).
    @discardableResult
    func store(
        _ response: CachedResponse, method: HTTPMethod, requestHeaders: HTTPHeaders, writesInBackground: Bool = false
    ) -> Bool {
        var response = response
        response.headers = StoredHeaders.storable(response.headers)
        let key = CacheKey.key(for: response.url)
        if response.status == 206, let stored = self.entry(for: key) {
            // A part never replaces a complete response (RFC 9111 §3.4 lets a cache keep the complete one); parts
            // of one representation are combined, into a complete response once they hold every byte.
            if stored.response.status != 206 { return false }
            if let combined = ByteRange.combine(response, with: stored.response) { response = combined }
        }
        let entry = CacheEntry(
            key: key, response: response, requestHeaders: requestHeaders, configuration: configuration)
        guard CacheStorability.allows(entry, method: method, requestHeaders: requestHeaders) else {
            if method == .get, (200..<300).contains(response.status) {
                memory.withLock { $0.remove(key) }
                disk?.remove(key)
            }
            return false
        }
        let keptInMemory = memory.withLock { $0.isEnabled && $0.insert(entry) }
        guard let disk else { return keptInMemory }
        let record = CacheEntryCodec.Record(key: key, response: response, varyFields: entry.varyFields)
        if writesInBackground {
            disk.enqueue(record)
            return true
        }
        return disk.write(record) || keptInMemory
    }

    /// Merges a 304 (Not Modified) into `stored` (RFC 9111 §3.2, §4.3.4), stores the result and returns it for the
    /// client to serve.
    ///
    /// The 304's header fields replace the stored ones of the same names (new fields win; `Content-Length` and
    /// hop-by-hop fields are kept), the body is kept, and the request and response times become those of the
    /// validating exchange, which renews the freshness. `method` may be GET or HEAD: either refreshes the stored
    /// GET. When the merged response may no longer be stored (the 304 says `no-store`, say) the entry is removed,
    /// and the merged response is still returned.
    func refresh(
        _ stored: CachedResponse, with notModified: HTTPHeaders, method: HTTPMethod, requestHeaders: HTTPHeaders,
        requestTime: Date, responseTime: Date, writesInBackground: Bool = false
    ) -> CachedResponse {
        var merged = stored
        merged.headers = StoredHeaders.merging(stored.headers, with: notModified)
        merged.requestTime = requestTime
        merged.responseTime = responseTime
        store(merged, method: .get, requestHeaders: requestHeaders, writesInBackground: writesInBackground)
        return merged
    }

    /// Removes the response stored for `url` (RFC 9111 §4.4, for a request with an unsafe method).
    func invalidate(url: URL) { removeResponses(for: url) }

    /// Applies RFC 9111 §4.4 after a response to `method`: when the method is unsafe (anything but GET, HEAD,
    /// OPTIONS and TRACE) and the status is 2xx or 3xx, removes the responses stored for `url` and for the
    /// `Location` and `Content-Location` URLs of the same origin.
    func invalidate(afterResponseTo method: HTTPMethod, url: URL, status: Int, headers: HTTPHeaders) {
        let safe: Set<HTTPMethod> = [.get, .head, .options, "TRACE"]
        guard !safe.contains(method), (200..<400).contains(status) else { return }
        invalidate(url: url)
        for name in ["Location", "Content-Location"] {
            guard let value = headers[name], let target = URL(string: CacheText.trimmed(value), relativeTo: url),
                Self.sameOrigin(target.absoluteURL, url)
            else { continue }
            invalidate(url: target.absoluteURL)
        }
    }

    // MARK: - Internals

    /// The disk tier's background writer, for tests.
    var diskWriter: DiskCacheWriter? { disk }

    /// The memory tier's count and order, least recently used first, for tests.
    var memoryKeysOldestFirst: [String] { memory.withLock { $0.keysOldestFirst } }

    /// The entry for `key` from memory, else from disk (then copied into memory).
    private func entry(for key: String) -> CacheEntry? {
        if let entry = memory.withLock({ $0.entry(for: key) }) { return entry }
        guard let record = disk?.load(key) else { return nil }
        let entry = CacheEntry(
            key: record.key, response: record.response, varyFields: record.varyFields, configuration: configuration)
        memory.withLock { tier in
            if tier.isEnabled { tier.insert(entry) }
        }
        return entry
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = CacheText.lowercased(url.scheme ?? "")
            let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
            return (scheme, CacheText.lowercased(url.host ?? ""), url.port ?? defaultPort)
        }
        return origin(a) == origin(b)
    }
}
