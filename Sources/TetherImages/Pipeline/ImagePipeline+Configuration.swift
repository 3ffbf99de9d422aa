public import TetherHTTP

extension ImagePipeline {
    /// How an ``ImagePipeline`` loads, decodes and keeps images.
    ///
    /// ```swift
    /// import TetherHTTP
    /// import TetherImages
    ///
    /// let pipeline = ImagePipeline {
    ///     $0.memoryCostLimit = 32 << 20
    ///     $0.client = HTTPClient(baseURL: nil) { $0.cache = HTTPCache() }
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// The client the original bytes are downloaded with. Its ``/TetherHTTP/HTTPClient/Configuration/cache`` keeps
        /// them (in memory and on disk when it has a directory) with HTTP freshness and validators honoured, so a
        /// second pipeline or a second run revalidates instead of downloading again. `nil` (the default) makes a
        /// client with an in-memory `HTTPCache` of 32 MiB.
        public var client: HTTPClient?
        /// The most the memory cache of decoded, downsized images holds, in bytes of RGBA pixels (64 MiB; 0 turns
        /// it off).
        public var memoryCostLimit = 64 << 20
        /// Images with more pixels than this fail with ``ImageError/Kind/tooManyPixels(width:height:limit:)``
        /// before anything is decoded (decompression bombs).
        public var maximumPixelCount = ImageDecoder.defaultMaximumPixelCount
        /// The priority of ``ImagePipeline/prefetch(_:size:)``'s loads.
        public var prefetchPriority = TaskPriority.low

        public init() {}
    }
}
