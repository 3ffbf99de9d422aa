public import Foundation

/// Decodes JPEG and PNG bytes into ``RGBAImage``, downsized to fit a box.
///
/// JPEG goes through libjpeg-turbo with DCT scaling: the picture is decoded straight at the smallest of 1/8 … 8/8
/// of its size that still covers the box, then area-averaged down to the fitted size, so a 1000×1000 photo for a
/// 128×128 box is decoded at 250×250. PNG goes through libpng (palette, grey, 1–16 bits, alpha or `tRNS`,
/// interlaced), then area-averaged.
///
/// ```swift
/// import Foundation
/// import TetherImages
///
/// let data = try Data(contentsOf: URL(fileURLWithPath: "photo.jpg"))
/// let thumbnail = try ImageDecoder.decode(data, fitting: ImageSize(width: 128, height: 128))
/// ```
///
/// - Threading: pure functions, safe from any thread. They are CPU work of milliseconds: call them from a
///   background task, never from the main actor (``ImagePipeline`` does).
public enum ImageDecoder {
    /// The default pixel-count limit: 50 megapixels (200 MB of RGBA at full size).
    public static let defaultMaximumPixelCount = 50_000_000

    /// Decodes `data`, fitted into `box` (aspect ratio kept, never enlarged; `nil` keeps the full size).
    ///
    /// - Throws: ``ImageError`` with ``ImageError/Kind/unsupportedFormat`` (neither JPEG nor PNG),
    ///   ``ImageError/Kind/invalidData(_:)`` (truncated or corrupt) or ``ImageError/Kind/tooManyPixels(width:height:limit:)``
    ///   (the header declares more than `maximumPixelCount` pixels; checked before anything is allocated).
    public static func decode(
        _ data: Data, fitting box: ImageSize? = nil, maximumPixelCount: Int = defaultMaximumPixelCount
    ) throws(ImageError) -> RGBAImage {
        let result: Result<RGBAImage, ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) -> RGBAImage in
                try decode(bytes, fitting: box, maximumPixelCount: maximumPixelCount)
            }
        }
        return try result.get()
    }

    /// ``decode(_:fitting:maximumPixelCount:)`` over raw bytes, which must stay valid during the call.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, fitting box: ImageSize? = nil,
        maximumPixelCount: Int = defaultMaximumPixelCount
    ) throws(ImageError) -> RGBAImage {
        switch ImageFormat.detect(bytes) {
        case .jpeg: return try JPEGDecoder.decode(bytes, fitting: box, maximumPixelCount: maximumPixelCount)
        case .png: return try PNGDecoder.decode(bytes, fitting: box, maximumPixelCount: maximumPixelCount)
        case nil: throw ImageError(.unsupportedFormat)
        }
    }

    /// Throws ``ImageError/Kind/tooManyPixels(width:height:limit:)`` when `width × height` is past `limit`.
    static func checkPixelCount(width: Int, height: Int, limit: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw ImageError(.invalidData("the image has no pixels")) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || count > limit { throw ImageError(.tooManyPixels(width: width, height: height, limit: limit)) }
    }
}
