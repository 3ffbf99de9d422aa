import CJPEG
import CPNG
import CZlib
package import Foundation

/// Test images made at test time with libjpeg and libpng (through the shims' encoders), so no binary fixture is
/// checked in and every variant (grey, palette, 16-bit, interlaced, progressive) is at hand.
package enum ImageFixtures {
    package struct EncodingFailed: Error {
        package let message: String
    }

    /// A photo-like RGB picture: smooth gradients, a disc and some deterministic noise.
    package static func photoRGB(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int((seed >> 16) & 15) - 8
                let dx = x - width / 2
                let dy = y - height / 2
                let inside = dx * dx + dy * dy < (width * width) / 9
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: (inside ? 220 : x * 255 / max(width - 1, 1)) + noise)
                pixels[offset + 1] = UInt8(clamping: (inside ? 60 : y * 255 / max(height - 1, 1)) + noise)
                pixels[offset + 2] = UInt8(clamping: (inside ? 40 : 128) + noise)
            }
        }
        return pixels
    }

    /// One colour everywhere, `components` bytes a pixel.
    package static func solid(width: Int, height: Int, _ colour: [UInt8]) -> [UInt8] {
        Array((0..<(width * height)).map { _ in colour }.joined())
    }

    /// A JPEG of `pixels` (`components` 3 for RGB, 1 for grey).
    package static func jpeg(
        _ pixels: [UInt8], width: Int, height: Int, components: Int = 3, quality: Int = 90, progressive: Bool = false
    ) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = tether_jpeg_encode(
            pixels, UInt32(width), UInt32(height), Int32(components), Int32(quality), progressive ? 1 : 0, &output,
            &size, &message)
        guard status == 0, let output else {
            throw EncodingFailed(
                message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }

    /// A JPEG photo of the given size.
    package static func jpegPhoto(width: Int, height: Int, progressive: Bool = false) throws -> Data {
        try jpeg(photoRGB(width: width, height: height), width: width, height: height, progressive: progressive)
    }

    /// A PNG of rows already laid out for `colorType` and `bitDepth` (16-bit samples big-endian).
    package static func png(
        _ rows: [UInt8], width: Int, height: Int, bitDepth: Int = 8, colorType: Int32 = PNG_COLOR_TYPE_RGB,
        interlaced: Bool = false, palette: [UInt8] = [], transparency: [UInt8] = []
    ) throws -> Data {
        let stride = rows.count / height
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = rows.withUnsafeBufferPointer { rows in
            palette.withUnsafeBufferPointer { palette in
                transparency.withUnsafeBufferPointer { transparency in
                    tether_png_encode(
                        rows.baseAddress, stride, UInt32(width), UInt32(height), Int32(bitDepth), colorType,
                        interlaced ? 1 : 0, palette.isEmpty ? nil : palette.baseAddress, Int32(palette.count / 3),
                        transparency.isEmpty ? nil : transparency.baseAddress, Int32(transparency.count), 6, &output,
                        &size, &message)
                }
            }
        }
        guard status == 0, let output else {
            throw EncodingFailed(
                message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(output) }
        return Data(bytes: output, count: size)
    }

    /// A PNG photo of the given size (RGB, 8 bits).
    package static func pngPhoto(width: Int, height: Int, interlaced: Bool = false) throws -> Data {
        try png(photoRGB(width: width, height: height), width: width, height: height, interlaced: interlaced)
    }

    /// `png` with its IHDR's width and height replaced (and the chunk's CRC recomputed): a decompression bomb's
    /// header on a small file.
    package static func patchingPNGSize(_ png: Data, width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](png)
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        put(width, at: 16)
        put(height, at: 20)
        put(crc32(bytes[12..<29]), at: 29)
        return Data(bytes)
    }

    /// `jpeg` with its first SOF marker's height and width replaced.
    package static func patchingJPEGSize(_ jpeg: Data, width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](jpeg)
        var offset = 2
        while offset + 9 < bytes.count {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[offset + 5] = UInt8(height >> 8)
                bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8)
                bytes[offset + 8] = UInt8(width & 0xFF)
                break
            }
            offset += 2 + length
        }
        return Data(bytes)
    }

    /// CRC-32 (the PNG and zlib one), zlib's.
    package static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
