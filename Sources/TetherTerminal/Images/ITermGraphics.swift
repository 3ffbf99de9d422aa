import CPNG
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// iTerm2's inline images (OSC 1337 `File=`): the picture sent as a base64 file, here a PNG, shown
/// over a number of cells (<https://iterm2.com/documentation-images.html>). iTerm2 and WezTerm understand it.
public enum ITermGraphics {
    /// The sequence that draws `pixels` at the cursor, `columns` cells wide (the height follows the aspect ratio).
    public static func sequence(_ pixels: TerminalPixels, columns: Int) -> [UInt8] {
        let png = TerminalPNG.encode(pixels)
        let header = "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(max(columns, 1));preserveAspectRatio=1:"
        return Array(header.utf8) + Array(Data(png).base64EncodedString().utf8) + [0x07]
    }
}

/// The picture as a PNG file: RGBA, 8 bits, written by libpng (`tether_png_encode_8bit`, the package's one PNG
/// writer) at compression 1 (terminal images are small; the file is sent at once).
enum TerminalPNG {
    static func encode(_ pixels: TerminalPixels) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        guard pixels.width > 0, pixels.height > 0,
            tether_png_encode_8bit(
                pixels.rgba, UInt32(pixels.width), UInt32(pixels.height), 4, 1, &output, &size, &message) == 0,
            let output
        else { return [] }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
