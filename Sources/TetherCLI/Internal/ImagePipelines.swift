import Foundation
import TetherHTTP
import TetherImages

/// The image pipeline of the app and `tether image`: decoded pictures in memory, the original bytes in TetherHTTP's
/// cache on disk under `$XDG_CACHE_HOME/tether/images` (`~/.cache/tether/images`), so a second run revalidates
/// (or, while fresh, does not ask at all) instead of downloading again.
enum ImagePipelines {
    /// The disk cache's folder for `environment`.
    static func cacheDirectory(environment: [String: String]) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return URL(fileURLWithPath: base).appendingPathComponent("tether/images")
    }

    /// A pipeline whose client caches on disk in ``cacheDirectory(environment:)`` (64 MiB; memory 16 MiB).
    static func make(environment: [String: String]) -> ImagePipeline {
        let cache = HTTPCache(
            configuration: HTTPCache.Configuration(
                memoryCostLimit: 16 << 20, directory: cacheDirectory(environment: environment),
                diskSizeLimit: 64 << 20))
        return ImagePipeline { $0.client = HTTPClient(baseURL: nil) { $0.cache = cache } }
    }
}
