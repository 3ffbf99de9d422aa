public import Foundation

/// One caller's load of one image, which it can cancel: a row of a list that scrolls away cancels its task.
///
/// Cancelling leaves the shared load (``ImagePipeline``): the download and decode stop only when no other caller
/// still waits for them.
///
/// ```swift
/// import Foundation
/// import TetherImages
///
/// let pipeline = ImagePipeline()
/// let url = URL(string: "http://127.0.0.1:3000/images/5?_ex=64x64")!
/// var rowTasks: [Int: ImageTask] = [:]
///
/// let task = pipeline.task(for: url, size: ImageSize(width: 64, height: 64))
/// rowTasks[0] = task
/// let image = try await task.image
/// // later, if the row scrolled away first:
/// task.cancel()
/// ```
///
/// - Threading: safe from any thread.
public final class ImageTask: Sendable {
    /// What is loaded.
    public let url: URL
    /// The box the image is fitted into.
    public let size: ImageSize
    private let task: Task<RGBAImage, any Error>

    init(url: URL, size: ImageSize, task: Task<RGBAImage, any Error>) {
        self.url = url
        self.size = size
        self.task = task
    }

    /// The image, once loaded.
    ///
    /// - Throws: ``ImageError`` (``ImageError/Kind/cancelled`` after ``cancel()``).
    public var image: RGBAImage {
        get async throws(ImageError) {
            do {
                return try await task.value
            } catch let error as ImageError {
                throw error
            } catch {
                throw ImageError(.cancelled, url: url, underlying: error)
            }
        }
    }

    /// Stops waiting for the image. Idempotent.
    public func cancel() { task.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
