public import Foundation
public import TetherHTTP
import TetherSync

/// Loads images by URL and returns them decoded and downsized, as RGBA pixels ready to draw.
///
/// ```swift
/// import Foundation
/// import TetherImages
///
/// let pipeline = ImagePipeline()
/// let url = URL(string: "http://127.0.0.1:3000/images/5?_ex=64x64")!
/// let thumbnail = try await pipeline.image(for: url, size: ImageSize(width: 64, height: 64))
/// ```
///
/// How a load goes:
/// 1. The memory cache of decoded images (``memoryCache``, keyed by URL and size) answers at once when it can.
/// 2. Otherwise a decode is shared by every caller of the same URL and size, and it waits for a download shared by
///    every size of the same URL.
/// 3. The download goes through ``Configuration/client``, whose `HTTPCache` keeps the original bytes with HTTP
///    freshness and validators honoured. `file:` URLs are read from disk.
/// 4. The bytes are checked (`Content-Type`, signature, pixel count) and decoded by ``ImageDecoder``, fitted into
///    the size (aspect ratio kept, never enlarged), then stored in the memory cache.
///
/// A caller that stops waiting (its task cancelled, ``ImageTask/cancel()``) leaves at once; the decode and the
/// download are cancelled only when nobody else waits for them.
///
/// - Threading: safe from any thread. Downloads and decoding run in detached tasks, never on the caller's actor (so
///   never on the main actor); a visible row that joins a prefetch raises its priority.
public final class ImagePipeline: Sendable {
    /// How this pipeline loads and keeps images.
    public let configuration: Configuration
    /// The decoded, downsized images kept in memory.
    public let memoryCache: ImageMemoryCache
    /// The client that downloads the original bytes.
    public let client: HTTPClient

    let decodes = SharedLoads<ImageMemoryCache.Key, RGBAImage>()
    let downloads = SharedLoads<URL, Data>()
    private let prefetches = Locked<[ImageMemoryCache.Key: Task<Void, Never>]>([:])

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        memoryCache = ImageMemoryCache(costLimit: configuration.memoryCostLimit)
        client =
            configuration.client
            ?? HTTPClient(baseURL: nil) { client in
                client.cache = HTTPCache(configuration: HTTPCache.Configuration(memoryCostLimit: 32 << 20))
            }
    }

    /// A pipeline configured in place: `ImagePipeline { $0.memoryCostLimit = 8 << 20 }`.
    public convenience init(configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }

    /// The image for `url` fitted into `size` if the memory cache has it; never loads.
    public func cachedImage(for url: URL, size: ImageSize) -> RGBAImage? {
        memoryCache.image(for: ImageMemoryCache.Key(url: url, size: size))
    }

    /// The image at `url`, decoded and fitted into `size`.
    ///
    /// - Throws: ``ImageError``: ``ImageError/Kind/status(_:)`` (404 and other failures the server answers),
    ///   ``ImageError/Kind/wrongContentType(_:)``, ``ImageError/Kind/unsupportedFormat``,
    ///   ``ImageError/Kind/invalidData(_:)``, ``ImageError/Kind/tooManyPixels(width:height:limit:)``,
    ///   ``ImageError/Kind/download``, ``ImageError/Kind/unreadableFile``, and ``ImageError/Kind/cancelled`` when
    ///   the calling task is cancelled.
    @concurrent
    public func image(for url: URL, size: ImageSize) async throws(ImageError) -> RGBAImage {
        try await image(for: url, size: size, priority: Task.currentPriority)
    }

    /// A cancellable load of the image at `url` fitted into `size`, started at once at `priority` (the current
    /// task's when `nil`).
    public func task(for url: URL, size: ImageSize, priority: TaskPriority? = nil) -> ImageTask {
        let chosen = priority ?? Task.currentPriority
        let task = Task<RGBAImage, any Error>.detached(priority: chosen) { [self] in
            try await image(for: url, size: size, priority: chosen)
        }
        return ImageTask(url: url, size: size, task: task)
    }

    /// Starts loading `urls` fitted into `size` at ``Configuration/prefetchPriority`` (the rows just below the
    /// visible ones), so they are in the memory cache when they scroll in. Errors are dropped; a later
    /// ``image(for:size:)`` joins a prefetch in flight and raises its priority.
    public func prefetch(_ urls: [URL], size: ImageSize) {
        for url in urls {
            let key = ImageMemoryCache.Key(url: url, size: size)
            if memoryCache.image(for: key) != nil { continue }
            prefetches.withLock { running in
                guard running[key] == nil else { return }
                running[key] = Task.detached(priority: configuration.prefetchPriority) { [self] in
                    _ = try? await image(for: url, size: size, priority: configuration.prefetchPriority)
                    _ = prefetches.withLock { $0.removeValue(forKey: key) }
                }
            }
        }
    }

    /// Stops the prefetches of `urls` at `size` (rows that will not be shown after all); a load another caller
    /// waits for goes on.
    public func cancelPrefetching(_ urls: [URL], size: ImageSize) {
        let tasks = prefetches.withLock { prefetches in
            urls.compactMap { prefetches.removeValue(forKey: ImageMemoryCache.Key(url: $0, size: size)) }
        }
        for task in tasks { task.cancel() }
    }

    /// The number of prefetches in flight.
    public var prefetchCount: Int { prefetches.withLock { $0.count } }

    func image(for url: URL, size: ImageSize, priority: TaskPriority) async throws(ImageError) -> RGBAImage {
        let key = ImageMemoryCache.Key(url: url, size: size)
        if let cached = memoryCache.image(for: key) { return cached }
        do {
            return try await decodes.value(for: key, priority: priority) { [self] () throws(ImageError) in
                if let cached = memoryCache.image(for: key) { return cached }
                let data = try await downloads.value(for: url, priority: priority) { [self] () throws(ImageError) in
                    try await download(url)
                }
                try Task.checkCancellation(url: url)
                let image = try ImageDecoder.decode(
                    data, fitting: size, maximumPixelCount: configuration.maximumPixelCount)
                memoryCache.store(image, for: key)
                return image
            }
        } catch {
            var error = error
            if error.url == nil { error.url = url }
            throw error
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``ImageError/Kind/cancelled`` when the current task is cancelled.
    static func checkCancellation(url: URL) throws(ImageError) {
        if Task.isCancelled { throw ImageError(.cancelled, url: url) }
    }
}
