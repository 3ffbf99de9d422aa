import CJPEG

/// Writes 8-bit RGB images as baseline JPEG through libjpeg(-turbo) (the `CJPEG` shim keeps libjpeg's errors in
/// C, so a failure is `nil`, never an `exit()`).
enum JPEGEncoder {
    /// Encodes `pixels` (`width × height × 3` bytes, rows top to bottom, RGB) at `quality` (1–100).
    static func encode(width: Int, height: Int, rgb pixels: [UInt8], quality: Int = 85) -> [UInt8]? {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "JPEGEncoder needs W×H×3 bytes")
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = tether_jpeg_encode(
            pixels, UInt32(width), UInt32(height), 3, Int32(quality), 0, &output, &size, &message)
        guard status == 0, let output else { return nil }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
