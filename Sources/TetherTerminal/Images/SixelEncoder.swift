/// Sixel graphics (DEC): the picture quantised to the 216 colours of a 6×6×6 cube and sent in bands of six pixel
/// rows, each colour's pixels of a band as run-length-encoded sixel characters. xterm (`-ti vt340`), mlterm,
/// foot, Windows Terminal and others understand it.
public enum SixelEncoder {
    /// The sequence that draws `pixels` at the cursor at their own pixel size.
    ///
    /// - Complexity: O(width × height × the colours in a band), bounded by 216.
    public static func sequence(_ pixels: TerminalPixels) -> [UInt8] {
        let width = pixels.width
        let height = pixels.height
        // Each pixel's cube index, blended over black.
        var indices = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixels.blended(x: x, y: y, over: (0, 0, 0))
                let red: Int = (Int(r) * 5 + 127) / 255
                let green: Int = (Int(g) * 5 + 127) / 255
                let blue: Int = (Int(b) * 5 + 127) / 255
                indices[y * width + x] = UInt8(red * 36 + green * 6 + blue)
            }
        }
        var bytes = Array("\u{1B}Pq\"1;1;\(width);\(height)".utf8)
        var defined = [Bool](repeating: false, count: 216)
        var columnBits = [UInt8](repeating: 0, count: width)
        for bandTop in stride(from: 0, to: height, by: 6) {
            var used = [Bool](repeating: false, count: 216)
            for y in bandTop..<min(bandTop + 6, height) {
                for x in 0..<width { used[Int(indices[y * width + x])] = true }
            }
            var firstColour = true
            for colour in 0..<216 where used[colour] {
                if !defined[colour] {
                    let levels = [colour / 36, colour / 6 % 6, colour % 6].map { $0 * 100 / 5 }
                    bytes += Array("#\(colour);2;\(levels[0]);\(levels[1]);\(levels[2])".utf8)
                    defined[colour] = true
                }
                if !firstColour { bytes.append(UInt8(ascii: "$")) }
                firstColour = false
                bytes += Array("#\(colour)".utf8)
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for row in 0..<6 where bandTop + row < height && Int(indices[(bandTop + row) * width + x]) == colour
                    {
                        bits |= 1 << row
                    }
                    columnBits[x] = bits
                }
                appendRuns(columnBits, to: &bytes)
            }
            bytes.append(UInt8(ascii: "-"))
        }
        bytes += [0x1B, 0x5C]
        return bytes
    }

    /// Sixel characters (`?` + bits) with runs of four or more written as `!<count><char>`.
    private static func appendRuns(_ bits: [UInt8], to bytes: inout [UInt8]) {
        var index = 0
        while index < bits.count {
            var end = index + 1
            while end < bits.count && bits[end] == bits[index] { end += 1 }
            let character = 63 + bits[index]
            let count = end - index
            if count >= 4 {
                bytes += Array("!\(count)".utf8)
                bytes.append(character)
            } else {
                bytes += [UInt8](repeating: character, count: count)
            }
            index = end
        }
    }
}
