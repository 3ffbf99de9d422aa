import CZlib

/// Writes 8-bit RGB images as PNG: the signature, `IHDR`, one zlib-compressed `IDAT` and `IEND`, each chunk
/// with its CRC-32 (zlib's `compress2` and `crc32`).
enum PNGEncoder {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `pixels` (`width × height × 3` bytes, rows top to bottom, RGB); `nil` if zlib fails.
    static func encode(width: Int, height: Int, rgb pixels: [UInt8]) -> [UInt8]? {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "PNGEncoder needs W×H×3 bytes")
        // Each scanline starts with its filter type, 0 (none).
        var raw = [UInt8]()
        raw.reserveCapacity((width * 3 + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw += pixels[(row * width * 3)..<((row + 1) * width * 3)]
        }
        guard let compressed = deflate(raw) else { return nil }

        var header = [UInt8]()
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace

        var png = signature
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// zlib's CRC-32 of `bytes`.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    private static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(input.count), 6)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeLast(output.count - Int(length))
        return output
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeAndData = Array(type.utf8) + data
        png += bigEndian(UInt32(data.count))
        png += typeAndData
        png += bigEndian(crc(typeAndData))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
