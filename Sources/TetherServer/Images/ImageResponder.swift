public import TetherHTTP1
import TetherJSON
import TetherSync

/// Serves generated pictures as Rakuten's thumbnail server does: `GET /images/<id>?_ex=WxH`.
///
/// The ids are the catalog's items (`1`…`itemCount`, and `<n>-2`, `<n>-3` for their second and third
/// images) and the built-in data set's photos (`photo-1`…`photo-<photoCount>`). Every picture is derived from its
/// id alone, so it is the same on every run:
/// - an item's is a JPEG (as Rakuten's are) of a product of its genre, a few simple shapes in a colour of its own
///   (`ProductPictureRenderer`): a laptop, a mug, a camera, a sneaker…;
/// - a photo's is a PNG of a gradient and a pattern (`ThumbnailRenderer`).
///
/// - `_ex` defaults to `128x128`; each side is clamped to 16…1024 (the search results link 64×64 and 128×128, an
///   app's detail view asks for up to 600×600). A malformed `_ex` is 400 with a JSON error, an unknown id 404
///   `{}`, a method other than GET or HEAD 405.
/// - Responses carry `Content-Type: image/jpeg` or `image/png`, a strong `ETag` (a hash of the bytes) and
///   `Cache-Control: public, max-age=86400`; a matching `If-None-Match` gives 304 without a body.
/// - Other paths return `nil`.
///
/// - Thread safety: `respond(to:)` may be called concurrently; encoded images are kept in a bounded,
///   lock-protected cache.
public struct ImageResponder: HTTPResponder {
    /// The sizes an image side is clamped to.
    public static let sizeRange = 16...1024
    /// The size when `_ex` is missing.
    public static let defaultSize = 128

    public let itemCount: Int
    public let photoCount: Int
    private let cache: ImageCache

    /// - Parameters:
    ///   - itemCount: how many catalog items have images (``RakutenCatalog/count``).
    ///   - photoCount: how many `photo-<n>` ids exist (the built-in data set's photos).
    ///   - cacheCapacity: how many encoded images to keep.
    public init(
        itemCount: Int = RakutenCatalog.defaultCount, photoCount: Int = BuiltInDataSet.photoCount,
        cacheCapacity: Int = 256
    ) {
        self.itemCount = itemCount
        self.photoCount = photoCount
        cache = ImageCache(capacity: cacheCapacity)
    }

    /// `true`: the route and the cache are looked up on the loop, and an image is drawn and encoded off it, on the
    /// server's responder threads.
    public var runsOnEventLoop: Bool { true }

    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard request.targetMayContain("images") else { return nil }
        guard let segments = HTTPTarget(request.target).pathSegments, segments.count == 2, segments[0] == "images"
        else { return nil }
        guard request.method == .get || request.method == .head else {
            return .jsonError(.methodNotAllowed, "images are read with GET")
        }
        let id = segments[1]
        guard isKnown(id) else { return .json([:], status: .notFound) }
        var width = Self.defaultSize
        var height = Self.defaultSize
        if let ex = request.queryItems.first(where: { $0.name == "_ex" })?.value {
            guard let size = Self.parseSize(ex) else {
                return .jsonError(.badRequest, "_ex must be WIDTHxHEIGHT, such as 128x128", code: "invalid_size")
            }
            (width, height) = size
        }
        let key = ImageCache.Key(id: id, width: width, height: height)
        let entry: ImageCache.Entry
        if let cached = cache.entry(for: key) {
            entry = cached
        } else {
            // Drawn and encoded off the event loop.
            let (encoded, contentType) = await withTaskExecutorPreference(ResponderTaskExecutor.shared) {
                () -> ([UInt8]?, String) in
                if id.hasPrefix("photo-") {
                    let pixels = ThumbnailRenderer.render(id: id, width: width, height: height)
                    return (PNGEncoder.encode(width: width, height: height, rgb: pixels), "image/png")
                }
                let pixels = ProductPictureRenderer.render(id: id, width: width, height: height)
                return (JPEGEncoder.encode(width: width, height: height, rgb: pixels), "image/jpeg")
            }
            guard let encoded else { return .jsonError(.internalServerError, "the image could not be encoded") }
            let hash = FNV1a.hash(encoded)
            entry = ImageCache.Entry(
                bytes: encoded, contentType: contentType, etag: "\"" + String(hash, radix: 16) + "\"")
            cache.store(entry, for: key)
        }
        var headers: HTTPHeaders = [
            "Content-Type": entry.contentType, "ETag": entry.etag, "Cache-Control": "public, max-age=86400",
        ]
        if let ifNoneMatch = request.headers["If-None-Match"], Self.matches(ifNoneMatch, entry.etag) {
            headers.remove("Content-Type")
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(headers: headers, body: entry.bytes)
    }

    private func isKnown(_ id: String) -> Bool {
        if id.hasPrefix("photo-") {
            return Self.plainInt(id.dropFirst(6)).map { $0 >= 1 && $0 <= photoCount } ?? false
        }
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, let item = Self.plainInt(first), item >= 1, item <= itemCount else {
            return false
        }
        if parts.count == 1 { return true }
        return parts.count == 2 && (Self.plainInt(parts[1]).map { (2...3).contains($0) } ?? false)
    }

    /// `WxH` in decimal digits, each side clamped to ``sizeRange``.
    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = plainInt(parts[0]), let height = plainInt(parts[1]) else { return nil }
        func clamp(_ side: Int) -> Int { min(max(side, sizeRange.lowerBound), sizeRange.upperBound) }
        return (clamp(width), clamp(height))
    }

    /// Digits only (no sign, no spaces), at most 9 of them.
    private static func plainInt(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// RFC 9110's weak comparison for `If-None-Match`: `*`, or any listed tag equal once `W/` is dropped.
    private static func matches(_ header: String, _ etag: String) -> Bool {
        if trimmed(header) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var tag = trimmed(candidate)
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            return tag == etag
        }
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
