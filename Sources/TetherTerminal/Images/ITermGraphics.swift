import Foundation

/// iTerm2's inline images (OSC 1337 `File=`): the picture sent as a base64 file, here an uncompressed PNG, shown
/// over a number of cells (<https://iterm2.com/documentation-images.html>). iTerm2 and WezTerm understand it.
public enum ITermGraphics {
    /// The sequence that draws `pixels` at the cursor, `columns` cells wide (the height follows the aspect ratio).
    public static func sequence(_ pixels: TerminalPixels, columns: Int) -> [UInt8] {
        let png = StoredPNG.encode(pixels)
        let header = "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(max(columns, 1));preserveAspectRatio=1:"
        return Array(header.utf8) + Array(Data(png).base64EncodedString().utf8) + [0x07]
    }
}

/// The simplest valid PNG: RGBA, 8 bits, one `IDAT` of stored (uncompressed) deflate blocks. Terminal images are
/// small, and this needs no zlib.
enum StoredPNG {
    static func encode(_ pixels: TerminalPixels) -> [UInt8] {
        // Scanlines, each with filter type 0.
        var raw = [UInt8]()
        raw.reserveCapacity((pixels.width * 4 + 1) * pixels.height)
        for y in 0..<pixels.height {
            raw.append(0)
            raw += pixels.rgba[(y * pixels.width * 4)..<((y + 1) * pixels.width * 4)]
        }
        // zlib: header, stored blocks of at most 65535 bytes, Adler-32.
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian(b << 16 | a)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", bigEndian(UInt32(pixels.width)) + bigEndian(UInt32(pixels.height)) + [8, 6, 0, 0, 0], &png)
        chunk("IDAT", zlib, &png)
        chunk("IEND", [], &png)
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8], _ png: inout [UInt8]) {
        let body = Array(type.utf8) + data
        png += bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
