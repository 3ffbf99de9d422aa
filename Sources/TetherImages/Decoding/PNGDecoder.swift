import CPNG

/// PNG through libpng: every colour type and bit depth, `tRNS` and Adam7 interlacing, read as 8-bit RGBA (see
/// ``ImageDecoder``).
///
/// Errors never leave C by a `longjmp` through Swift: the `CPNG` shim catches them in C and returns a status and
/// libpng's message. A file cut short (even after its pixels) and a bad CRC are errors.
enum PNGDecoder {
    /// The largest side libpng will accept at all; the pixel-count limit is checked separately.
    static let maximumSide: UInt32 = 1 << 20

    static func decode(
        _ bytes: UnsafeRawBufferPointer, fitting box: ImageSize?, maximumPixelCount: Int
    ) throws(ImageError) -> RGBAImage {
        guard let decoder = tether_png_decoder_create() else { throw ImageError(.invalidData("out of memory")) }
        defer { tether_png_decoder_destroy(decoder) }
        func failure() -> ImageError {
            let message = withUnsafeBytes(of: decoder.pointee.message) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            return ImageError(.invalidData(message.isEmpty ? "not a PNG image" : message))
        }
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard tether_png_decoder_begin(decoder, base, bytes.count, maximumSide) == 0 else { throw failure() }
        let width = Int(decoder.pointee.width)
        let height = Int(decoder.pointee.height)
        try ImageDecoder.checkPixelCount(width: width, height: height, limit: maximumPixelCount)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = tether_png_decoder_read(decoder, buffer.baseAddress, width * 4)
            count = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else { throw failure() }
        let decoded = RGBAImage(width: width, height: height, pixels: pixels)
        guard let box else { return decoded }
        return AreaDownsizer.resize(decoded, to: decoded.size.fitting(in: box))
    }
}
