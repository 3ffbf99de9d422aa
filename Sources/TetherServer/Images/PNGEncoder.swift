import CPNG

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes 8-bit RGB images as PNG with libpng (`tether_png_encode_8bit`, the package's one PNG writer).
enum PNGEncoder {
    /// Encodes `pixels` (`width × height × 3` bytes, rows top to bottom, RGB); `nil` if libpng fails.
    static func encode(width: Int, height: Int, rgb pixels: [UInt8]) -> [UInt8]? {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "PNGEncoder needs W×H×3 bytes")
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        guard
            tether_png_encode_8bit(pixels, UInt32(width), UInt32(height), 3, 6, &output, &size, &message) == 0,
            let output
        else { return nil }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
