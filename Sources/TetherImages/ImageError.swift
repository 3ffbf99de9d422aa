public import Foundation
import TetherHTTP

/// The one error TetherImages throws.
///
/// Bad input is always this error, never a crash or a hang: ``kind`` says what went wrong, ``url`` which image,
/// ``message`` is a short sentence fit to show in a UI.
///
/// ```swift
/// import Foundation
/// import TetherImages
///
/// let pipeline = ImagePipeline()
/// let url = URL(string: "http://127.0.0.1:3000/images/5?_ex=128x128")!
/// do {
///     let image = try await pipeline.image(for: url, size: ImageSize(width: 128, height: 128))
///     print(image.size)
/// } catch where error.kind == .cancelled {
///     // the row scrolled away
/// } catch {
///     print(error.message)
/// }
/// ```
public struct ImageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The bytes are neither JPEG nor PNG.
        case unsupportedFormat
        /// The data is truncated or corrupt; the decoder's own explanation.
        case invalidData(String)
        /// The image has more pixels than ``ImagePipeline/Configuration/maximumPixelCount`` (a decompression bomb,
        /// or just too big to decode).
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The server answered with a `Content-Type` that is not an image (`nil` when it sent none that counts).
        case wrongContentType(String?)
        /// The server answered with this status (404 and the like).
        case status(Int)
        /// The download failed (connection, timeout, a body too large); ``ImageError/underlying`` has the details.
        case download
        /// A local file could not be read.
        case unreadableFile
        /// The caller stopped waiting.
        case cancelled
    }

    /// What failed.
    public var kind: Kind
    /// The image's URL, when the error came from a load rather than from decoding bytes.
    public var url: URL?
    /// The error below this one (an `HTTPError`, a file system error), if any.
    public var underlying: (any Error)?

    public init(_ kind: Kind, url: URL? = nil, underlying: (any Error)? = nil) {
        self.kind = kind
        self.url = url
        self.underlying = underlying
    }

    /// A short sentence for a UI.
    public var message: String {
        switch kind {
        case .unsupportedFormat: "The file is not a JPEG or PNG image."
        case .invalidData(let reason): "The image is damaged (\(reason))."
        case .tooManyPixels(let width, let height, let limit):
            "The image is too large to show (\(width)×\(height) pixels, at most \(limit))."
        case .wrongContentType(let type): "The server sent \(type ?? "something") instead of an image."
        case .status(let code): code == 404 ? "The image was not found (404)." : "The server answered \(code)."
        case .download: "The image could not be downloaded" + detail
        case .unreadableFile: "The file could not be read" + detail
        case .cancelled: "Loading the image was cancelled."
        }
    }

    /// ` (<the underlying error's message>).`, or `.`.
    private var detail: String {
        guard let underlying else { return "." }
        var text = (underlying as? HTTPError)?.message ?? underlying.localizedDescription
        if text.hasSuffix(".") { text.removeLast() }
        return " (\(text))."
    }

    public var description: String { url.map { "\(message) [\($0.absoluteString)]" } ?? message }

    /// Whether this is ``Kind/cancelled``.
    public var isCancelled: Bool { kind == .cancelled }
}
