/// A grid of cells that widgets draw into, one frame of the screen.
///
/// The app draws each frame into a fresh or cleared buffer; ``ScreenRenderer`` compares it with the frame on the
/// terminal and writes only the cells that changed. Drawing clips to the buffer, so widgets need not check bounds.
/// Two-column characters stay whole: one that does not fit at the right edge is replaced by a space, and writing
/// over either half of one clears the other half.
///
/// A value type, not thread safe to share mutably; copying is O(width × height).
public struct ScreenBuffer: Sendable, Equatable {
    /// The columns of the grid.
    public let width: Int
    /// The rows of the grid.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]
    /// Where the terminal's cursor should be after the frame is drawn (a text field being edited), or `nil` to
    /// hide it.
    public var cursor: (x: Int, y: Int)? {
        get { cursorPosition.map { ($0.x, $0.y) } }
        set { cursorPosition = newValue.map { CursorPosition(x: $0.x, y: $0.y) } }
    }
    private var cursorPosition: CursorPosition?

    private struct CursorPosition: Sendable, Equatable {
        var x: Int
        var y: Int
    }

    /// A buffer of `width` × `height` blank cells.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x`, row `y`; a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// Blanks every cell in `style` (its background shows) and hides the cursor.
    public mutating func clear(style: TextStyle = .plain) {
        let blank = Cell(" ", style: style)
        for index in cells.indices { cells[index] = blank }
        cursorPosition = nil
    }

    /// Fills `rect` (clipped to the buffer) with spaces in `style`.
    public mutating func fill(_ rect: Rect, style: TextStyle = .plain) {
        let minX = max(0, rect.x)
        let maxX = min(width, rect.maxX)
        guard minX < maxX else { return }
        let blank = Cell(" ", style: style)
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in minX..<maxX { set(blank, x: x, y: y) }
        }
    }

    /// Draws `text` in `style` from column `x` on row `y`, at most `maxColumns` columns (to the right edge when
    /// `nil`), and returns the columns drawn.
    ///
    /// Control characters (tabs, newlines) are drawn as spaces; lay text out into lines first with
    /// ``TextLayout``. Characters that would cross the limit are not drawn, and a two-column character that does
    /// not fit leaves a space. Nothing is truncated with an ellipsis here; see
    /// ``TextLayout/truncate(_:toColumns:ellipsis:)-(String,_,_)``.
    ///
    /// Complexity: O(n) in the length of `text`. ASCII and common CJK text are read from its UTF-8 bytes without
    /// splitting it into characters; other clusters take the full grapheme rules.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, style: TextStyle = .plain, maxColumns: Int? = nil)
        -> Int
    {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, maxColumns.map { x + max(0, $0) } ?? width)
        var column = x
        var contiguous = text
        let ascii = Self.asciiCharacters
        contiguous.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count, column < limit {
                if let cluster = TerminalWidth.quickCluster(bytes, at: offset) {
                    offset += cluster.length
                    // ASCII control characters draw as spaces.
                    let character =
                        cluster.columns == 0
                        ? " "
                        : cluster.scalar < 0x80
                            ? ascii[Int(cluster.scalar)] : Character(Unicode.Scalar(cluster.scalar)!)
                    guard
                        place(
                            character, columns: max(1, cluster.columns), at: &column, y: y, limit: limit, style: style)
                    else { break }
                } else {
                    var character = text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
                    offset += character.utf8.count
                    var columns = character.terminalColumns
                    if columns == 0 {
                        guard character.isNewline || character == "\t" || character.asciiValue != nil else { continue }
                        character = " "
                        columns = 1
                    }
                    guard place(character, columns: columns, at: &column, y: y, limit: limit, style: style) else {
                        break
                    }
                }
            }
        }
        return column - x
    }

    /// The ASCII characters by code, made once: building a `Character` from a byte costs more than copying one.
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Draws one character of `columns` (1 or 2) at `column` of row `y` and moves `column` past it; `false` when it
    /// crosses `limit` and drawing stops (a two-column character with one column left leaves a space).
    @inline(__always)
    private mutating func place(
        _ character: Character, columns: Int, at column: inout Int, y: Int, limit: Int, style: TextStyle
    ) -> Bool {
        if column + columns > limit {
            if column < limit {
                // A two-column character with one column left: a space takes its place.
                set(Cell(" ", style: style), x: column, y: y)
                column += 1
            }
            return false
        }
        if column >= 0 {
            set(Cell(character, style: style), x: column, y: y)
            if columns == 2 { set(Cell(" ", style: style, isContinuation: true), x: column + 1, y: y) }
        } else if columns == 2, column + 1 == 0 {
            // The left half is off screen: show the visible half as a space.
            set(Cell(" ", style: style), x: 0, y: y)
        }
        column += columns
        return true
    }

    /// Draws `spans` one after another from column `x` on row `y`, within `maxColumns`, and returns the columns
    /// drawn.
    @discardableResult
    public mutating func draw(_ spans: [Span], x: Int, y: Int, maxColumns: Int? = nil) -> Int {
        var drawn = 0
        for span in spans {
            let remaining = maxColumns.map { $0 - drawn }
            if let remaining, remaining <= 0 { break }
            drawn += draw(span.text, x: x + drawn, y: y, style: span.style, maxColumns: remaining)
        }
        return drawn
    }

    /// Sets one cell, keeping two-column characters whole.
    mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let index = y * width + x
        // Only the old cell's flag is read: copying the cell would retain its character.
        let wasContinuation = cells[index].isContinuation
        if wasContinuation, !cell.isContinuation, x > 0 {
            // Overwriting the right half of a wide character: its left half goes too.
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if !wasContinuation, x + 1 < width, cells[index + 1].isContinuation {
            // Overwriting the left half: its right half goes too (a new wide character sets it again). A
            // continuation only ever follows the left half of a two-column character (this method keeps it so),
            // so the old character need not be measured.
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cursorPosition == rhs.cursorPosition
            && lhs.cells == rhs.cells
    }
}

extension ScreenBuffer {
    /// The text of row `y` as drawn, continuation cells skipped, trailing spaces kept: for tests and snapshots.
    public func text(ofRow y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var line = ""
        for x in 0..<width where !cells[y * width + x].isContinuation {
            line.append(cells[y * width + x].character)
        }
        return line
    }

    /// Every row's text, trailing spaces trimmed, joined by newlines: for tests and snapshots.
    public var text: String {
        (0..<height).map { row in
            var line = text(ofRow: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
