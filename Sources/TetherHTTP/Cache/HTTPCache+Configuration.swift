public import Foundation

extension HTTPCache {
    /// What an ``HTTPCache`` keeps and where.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherHTTP
    ///
    /// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    /// var configuration = HTTPCache.Configuration()
    /// configuration.directory = caches.appendingPathComponent("http")
    /// configuration.defaultTimeToLive = .seconds(60)  // Rakuten sends no freshness information.
    /// let cache = HTTPCache(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The memory tier's limit, in bytes of ``HTTPCache/memoryCost``; `0` disables the memory tier.
        /// The default is 16 MiB.
        public var memoryCostLimit: Int
        /// The disk tier's directory; `nil` (the default) means no disk tier. It is created (mode 0700) if needed.
        public var directory: URL?
        /// The disk tier's limit, in bytes of entry files. The default is 128 MiB.
        public var diskSizeLimit: Int
        /// How long a response stays fresh when it has no freshness information (`max-age`, `Expires`) and no
        /// validator (`ETag`, `Last-Modified`), as with APIs that send neither. `nil` (the default): such responses
        /// are not stored.
        public var defaultTimeToLive: Duration?
        /// Whether a response with `Last-Modified` but no explicit freshness is fresh for 10% of its age when
        /// received, capped at 24 hours (the heuristic RFC 9111 §4.2.2 allows). Off by default: such a response is
        /// stored and revalidated with `If-Modified-Since` before each use.
        public var usesHeuristicFreshness: Bool

        public init(
            memoryCostLimit: Int = 16 << 20, directory: URL? = nil, diskSizeLimit: Int = 128 << 20,
            defaultTimeToLive: Duration? = nil, usesHeuristicFreshness: Bool = false
        ) {
            self.memoryCostLimit = memoryCostLimit
            self.directory = directory
            self.diskSizeLimit = diskSizeLimit
            self.defaultTimeToLive = defaultTimeToLive
            self.usesHeuristicFreshness = usesHeuristicFreshness
        }
    }
}
