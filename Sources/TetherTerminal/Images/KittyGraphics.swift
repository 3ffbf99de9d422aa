import Foundation

/// The kitty graphics protocol: the pixels sent as base64 RGBA in APC sequences of at most 4096 characters, shown
/// scaled to a number of cells (<https://sw.kovidgoyal.net/kitty/graphics-protocol/>). kitty, Ghostty, WezTerm and
/// Konsole understand it.
public enum KittyGraphics {
    /// The sequences that draw `pixels` at the cursor over `columns` × `rows` cells (`0` lets the terminal
    /// choose from the pixel size), then move the cursor below it.
    public static func sequence(_ pixels: TerminalPixels, columns: Int, rows: Int) -> [UInt8] {
        let payload = Array(Data(pixels.rgba).base64EncodedString().utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(payload.count + payload.count / 4096 * 16 + 64)
        var offset = 0
        var first = true
        repeat {
            let end = min(offset + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            var control = "m=\(more)"
            if first {
                control = "a=T,f=32,s=\(pixels.width),v=\(pixels.height),q=2"
                if columns > 0 { control += ",c=\(columns)" }
                if rows > 0 { control += ",r=\(rows)" }
                control += ",m=\(more)"
            }
            bytes += Array("\u{1B}_G\(control);".utf8)
            bytes += payload[offset..<end]
            bytes += [0x1B, 0x5C]
            offset = end
            first = false
        } while offset < payload.count
        return bytes
    }
}
