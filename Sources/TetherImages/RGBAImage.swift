/// A decoded picture: 8-bit RGBA pixels, rows top to bottom, no padding, alpha not premultiplied.
///
/// ```swift
/// import Foundation
/// import TetherImages
///
/// let pipeline = ImagePipeline()
/// let url = URL(string: "http://127.0.0.1:3000/images/5?_ex=64x64")!
/// let image = try await pipeline.image(for: url, size: ImageSize(width: 64, height: 64))
/// let (r, g, b, a) = image[x: 0, y: 0]
/// ```
public struct RGBAImage: Sendable, Hashable {
    /// The width in pixels, at least 1.
    public let width: Int
    /// The height in pixels, at least 1.
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha for each pixel.
    public let pixels: [UInt8]

    /// An image over `pixels`, which must hold `width × height × 4` bytes (checked).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBAImage needs W×H×4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The size in pixels.
    public var size: ImageSize { ImageSize(width: width, height: height) }

    /// The pixel at (`x`, `y`), which must be inside the image.
    public subscript(x x: Int, y y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// What the image costs in memory, in bytes (its pixels): the unit of ``ImagePipeline/Configuration/memoryCostLimit``.
    public var cost: Int { pixels.count }
}
