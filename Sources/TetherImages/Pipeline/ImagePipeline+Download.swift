import Foundation
import TetherHTTP

extension ImagePipeline {
    /// The original bytes at `url`: a file for `file:` URLs, otherwise a GET through ``client`` (and its cache).
    ///
    /// - Throws: ``ImageError``: the status for an unacceptable one, ``ImageError/Kind/wrongContentType(_:)`` when
    ///   the answer is not an image, ``ImageError/Kind/download`` for the rest.
    func download(_ url: URL) async throws(ImageError) -> Data {
        if url.isFileURL {
            do {
                return try Data(contentsOf: url)
            } catch {
                throw ImageError(.unreadableFile, url: url, underlying: error)
            }
        }
        let request = Request<Data>(
            path: url.absoluteString, headers: ["Accept": "image/jpeg, image/png;q=0.9, image/*;q=0.8"])
        let response: Response<Data>
        do {
            response = try await client.send(request)
        } catch {
            switch error.kind {
            case .status(let failure): throw ImageError(.status(failure.status.code), url: url, underlying: error)
            case .cancelled: throw ImageError(.cancelled, url: url, underlying: error)
            default: throw ImageError(.download, url: url, underlying: error)
            }
        }
        if let type = response.headers["Content-Type"], !Self.isImageType(type) {
            throw ImageError(.wrongContentType(type), url: url)
        }
        return response.value
    }

    /// Whether a `Content-Type` may carry an image: `image/*`, or `application/octet-stream` (what some servers
    /// send for everything). The bytes' signature decides the format either way.
    static func isImageType(_ type: String) -> Bool {
        let media = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = media.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.hasPrefix("image/") || trimmed == "application/octet-stream"
    }
}
