import CJPEG

/// JPEG through libjpeg-turbo, decoded at a DCT scale chosen for the target size (see ``ImageDecoder``).
///
/// Errors never leave C by `exit()` or a `longjmp` through Swift: the `CJPEG` shim catches them in C and returns
/// a status and libjpeg's message. Warnings about corrupt data (a file cut short, bad Huffman codes) count as errors,
/// since the picture would be partly grey.
enum JPEGDecoder {
    /// The scale numerator (over 8) libjpeg should decode at: the smallest whose output covers `target`.
    static func scaleNumerator(original: ImageSize, target: ImageSize) -> Int {
        for numerator in 1...8 {
            let width = (original.width * numerator + 7) / 8
            let height = (original.height * numerator + 7) / 8
            if width >= target.width && height >= target.height { return numerator }
        }
        return 8
    }

    static func decode(
        _ bytes: UnsafeRawBufferPointer, fitting box: ImageSize?, maximumPixelCount: Int
    ) throws(ImageError) -> RGBAImage {
        guard let decoder = tether_jpeg_decoder_create() else { throw ImageError(.invalidData("out of memory")) }
        defer { tether_jpeg_decoder_destroy(decoder) }
        func failure() -> ImageError {
            let message = withUnsafeBytes(of: decoder.pointee.error.message) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            return ImageError(.invalidData(message.isEmpty ? "not a JPEG image" : message))
        }
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        // The memory limit bounds libjpeg's own buffers (progressive files keep every coefficient).
        let memoryLimit = max(maximumPixelCount, 1) * 8
        guard tether_jpeg_decoder_begin(decoder, base, UInt(bytes.count), memoryLimit) == 0 else { throw failure() }
        let original = ImageSize(
            width: Int(decoder.pointee.info.image_width), height: Int(decoder.pointee.info.image_height))
        try ImageDecoder.checkPixelCount(width: original.width, height: original.height, limit: maximumPixelCount)
        let target = box.map { original.fitting(in: $0) } ?? original
        let numerator = scaleNumerator(original: original, target: target)
        guard tether_jpeg_decoder_start(decoder, UInt32(numerator), numerator < 8 ? 1 : 0) == 0 else {
            throw failure()
        }
        let width = Int(decoder.pointee.info.output_width)
        let height = Int(decoder.pointee.info.output_height)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = tether_jpeg_decoder_read(decoder, buffer.baseAddress, width * 4)
            count = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else { throw failure() }
        let decoded = RGBAImage(width: width, height: height, pixels: pixels)
        // The scaled size rounds each side up on its own, so resize to the target computed from the original size
        // (never larger than what was decoded).
        return AreaDownsizer.resize(
            decoded, to: ImageSize(width: min(target.width, width), height: min(target.height, height)))
    }
}
