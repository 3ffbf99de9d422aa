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
        // Downsized as it is read, row by row, when it is not interlaced: no full-size copy, and an opaque image
        // stays RGB (no alpha byte added per pixel).
        let interlace = bytes.count >= 29 ? bytes[28] : 0  // IHDR's interlace method
        let streams = box != nil && interlace == 0
        guard tether_png_decoder_begin(decoder, base, bytes.count, maximumSide, streams ? 1 : 0) == 0 else {
            throw failure()
        }
        let width = Int(decoder.pointee.width)
        let height = Int(decoder.pointee.height)
        try ImageDecoder.checkPixelCount(width: width, height: height, limit: maximumPixelCount)
        if let box, streams, decoder.pointee.interlaced == 0 {
            let size = ImageSize(width: width, height: height)
            let target = size.fitting(in: box)
            let channels = Int(decoder.pointee.channels)
            var row = [UInt8](repeating: 0, count: width * channels)
            if target == size {
                // Nothing to downsize: rows straight into an RGBA image.
                var pixels = [UInt8](repeating: 255, count: width * height * 4)
                for y in 0..<height {
                    guard tether_png_decoder_read_row(decoder, &row) == 0 else { throw failure() }
                    for x in 0..<width {
                        for channel in 0..<channels {
                            pixels[(y * width + x) * 4 + channel] = row[x * channels + channel]
                        }
                    }
                }
                guard tether_png_decoder_finish(decoder) == 0 else { throw failure() }
                return RGBAImage(width: width, height: height, pixels: pixels)
            }
            var downsizer = RowStreamDownsizer(
                sourceWidth: width, sourceHeight: height, target: target, channels: channels)
            for _ in 0..<height {
                guard tether_png_decoder_read_row(decoder, &row) == 0 else { throw failure() }
                row.withUnsafeBufferPointer { downsizer.add(row: $0.baseAddress!) }
            }
            guard tether_png_decoder_finish(decoder) == 0 else { throw failure() }
            return downsizer.finish()
        }
        var status: Int32 = 0
        let channels = Int(decoder.pointee.channels)
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            status = tether_png_decoder_read(decoder, buffer.baseAddress, width * channels)
            count = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else { throw failure() }
        if channels == 3 {
            // RGB rows packed at the start (an interlaced file the header check took for plain): spread them out
            // to RGBA from the end backwards, so nothing is overwritten before it is read.
            for index in stride(from: width * height - 1, through: 0, by: -1) {
                pixels[index * 4 + 3] = 255
                pixels[index * 4 + 2] = pixels[index * 3 + 2]
                pixels[index * 4 + 1] = pixels[index * 3 + 1]
                pixels[index * 4] = pixels[index * 3]
            }
        }
        let decoded = RGBAImage(width: width, height: height, pixels: pixels)
        guard let box else { return decoded }
        return AreaDownsizer.resize(decoded, to: decoded.size.fitting(in: box))
    }
}
