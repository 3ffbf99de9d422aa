/// Pictures drawn with Unicode half blocks: each cell shows two pixels, the upper one as the foreground of `▀` and
/// the lower one as its background, so an image of `W × H` pixels takes `W` columns and `⌈H / 2⌉` rows.
///
/// The colours are ``TerminalColor/rgb(_:_:_:)``; ``ScreenRenderer`` and ``ansi(_:colorMode:background:)`` show
/// them exactly under ``ColorMode/trueColor`` and as the nearest palette or named colour otherwise. Under
/// ``ColorMode/monochrome`` (`NO_COLOR`, a dumb terminal) there is no picture: the cells would all look the same.
///
/// ```swift
/// import TetherTerminal
///
/// let pixels = TerminalPixels(width: 12, height: 6, rgba: Array(repeating: 200, count: 12 * 6 * 4))
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let rows = HalfBlockImage.cells(pixels)   // 12 columns by 3 rows
/// buffer.drawImage(rows, x: 2, y: 1)
/// ```
public enum HalfBlockImage {
    /// The upper half block.
    public static let upperHalf: Character = "▀"

    /// The pixel size that fills `columns` × `rows` cells.
    public static func pixelSize(columns: Int, rows: Int) -> (width: Int, height: Int) { (columns, rows * 2) }

    /// The cells for `pixels`, row by row; transparent pixels are blended over `background`.
    ///
    /// - Complexity: O(width × height).
    public static func cells(_ pixels: TerminalPixels, background: (UInt8, UInt8, UInt8) = (0, 0, 0)) -> [[Cell]] {
        var rows = [[Cell]]()
        rows.reserveCapacity((pixels.height + 1) / 2)
        for y in stride(from: 0, to: pixels.height, by: 2) {
            var row = [Cell]()
            row.reserveCapacity(pixels.width)
            for x in 0..<pixels.width {
                let upper = pixels.blended(x: x, y: y, over: background)
                let lower = y + 1 < pixels.height ? pixels.blended(x: x, y: y + 1, over: background) : background
                row.append(
                    Cell(
                        upperHalf,
                        style: TextStyle(
                            foreground: .rgb(upper.0, upper.1, upper.2), background: .rgb(lower.0, lower.1, lower.2)
                        )))
            }
            rows.append(row)
        }
        return rows
    }

    /// `pixels` as text for a terminal: one line of half blocks per two pixel rows, each ending with a reset and a
    /// newline, colours written for `colorMode` (an empty result under ``ColorMode/monochrome``).
    public static func ansi(
        _ pixels: TerminalPixels, colorMode: ColorMode, background: (UInt8, UInt8, UInt8) = (0, 0, 0)
    ) -> [UInt8] {
        guard colorMode != .monochrome else { return [] }
        var bytes = [UInt8]()
        bytes.reserveCapacity(pixels.width * (pixels.height + 1) / 2 * 24)
        let block = Array(String(upperHalf).utf8)
        for row in cells(pixels, background: background) {
            var current: TextStyle?
            for cell in row {
                if cell.style != current {
                    colorMode.appendSGR(for: cell.style, to: &bytes)
                    current = cell.style
                }
                bytes += block
            }
            bytes += Array("\u{1B}[0m\n".utf8)
        }
        return bytes
    }
}

extension ScreenBuffer {
    /// Draws rows of cells (``HalfBlockImage/cells(_:background:)``) with their top left at (`x`, `y`), clipped to
    /// the buffer.
    public mutating func drawImage(_ rows: [[Cell]], x: Int, y: Int) {
        for (rowIndex, row) in rows.enumerated() {
            for (columnIndex, cell) in row.enumerated() {
                // A half block is one column wide, so the cell goes in as is (`set` clips).
                set(cell, x: x + columnIndex, y: y + rowIndex)
            }
        }
    }
}
