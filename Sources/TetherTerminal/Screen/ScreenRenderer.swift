/// Turns frames into the bytes that draw them, writing only what changed since the previous frame.
///
/// The renderer remembers the last frame it rendered (and where it left the terminal's cursor and which style it
/// set). ``render(_:)`` compares the new frame with it cell by cell and returns the escape sequences and text that
/// change the terminal from one to the other:
/// - only changed cells are written; runs of changed cells are written in one go, and the cursor is moved only
///   when it is not already where the next change is (a short hop over unchanged text rewrites that text instead);
/// - a style is set (reset, then the style, in the ``colorMode``) only when it differs from the one in effect;
/// - a two-column character is written once, whole, when either of its halves changed;
/// - a changed row that ends in blanks is erased to its end (`ESC [K`) rather than written with spaces;
/// - the cursor ends at ``ScreenBuffer/cursor`` and is shown, or is hidden when that is `nil`;
/// - the first frame, a frame of another size, and the frame after ``invalidate()`` clear the screen and draw
///   every non-blank cell.
///
/// ```swift
/// import Foundation
/// import TetherTerminal
///
/// let session = try TerminalSession()
/// let environment = ProcessInfo.processInfo.environment
/// var renderer = ScreenRenderer(colorMode: .detect(environment: environment, isTerminal: true))
/// var frame = ScreenBuffer(width: session.size.width, height: session.size.height)
/// frame.draw("Hello", x: 0, y: 0)
/// try session.write(renderer.render(frame))   // after every change
/// renderer.invalidate()                       // after a resize or SIGCONT: the next frame is drawn whole
/// ```
///
/// The output assumes the terminal shows nothing but these frames: anything else written to it in between calls
/// for ``invalidate()``. A value type; not thread safe to share mutably.
///
/// Complexity: O(width × height) cell comparisons per frame, and output bytes in proportion to the changed cells.
public struct ScreenRenderer: Sendable {
    /// The colours the terminal can show; changing it makes the next frame a full redraw.
    public var colorMode: ColorMode {
        didSet {
            if colorMode != oldValue { invalidate() }
        }
    }

    /// Whether frames are wrapped in the synchronized-update mode (`ESC [?2026h` … `ESC [?2026l`), so terminals
    /// that support it show each frame at once instead of as it arrives; others ignore it. Off by default.
    public var usesSynchronizedUpdate: Bool

    /// The frame on the terminal, or `nil` when the next frame must be drawn whole.
    private var previous: ScreenBuffer?
    /// Whether the terminal's cursor is shown; `nil` when unknown.
    private var cursorVisible: Bool?
    /// Where the terminal's cursor is, when known (not known after writing in the last column, where terminals
    /// differ on whether it wrapped).
    private var cursorX = 0
    private var cursorY = 0
    private var cursorKnown = false

    public init(colorMode: ColorMode = .basic16, usesSynchronizedUpdate: Bool = false) {
        self.colorMode = colorMode
        self.usesSynchronizedUpdate = usesSynchronizedUpdate
    }

    /// Forgets what is on the terminal, so the next ``render(_:)`` clears the screen and draws the frame whole.
    ///
    /// Call it after the window was resized, after the process was resumed (SIGCONT), or after anything else was
    /// written to the terminal.
    public mutating func invalidate() {
        previous = nil
        cursorVisible = nil
        cursorKnown = false
    }

    /// Returns the bytes that change the terminal from the previous frame to `frame`, and remembers `frame`.
    ///
    /// An empty result means nothing changed. The bytes must be written to the terminal in full before the next
    /// call.
    public mutating func render(_ frame: ScreenBuffer) -> [UInt8] {
        var output = FrameOutput(
            colorMode: colorMode, width: frame.width, synchronized: usesSynchronizedUpdate,
            cursorVisible: cursorVisible != false, cursorX: cursorX, cursorY: cursorY, cursorKnown: cursorKnown)
        let old: ScreenBuffer
        if let previous, previous.width == frame.width, previous.height == frame.height {
            old = previous
        } else {
            // A full redraw: clear the screen, then draw every cell that is not blank.
            old = ScreenBuffer(width: frame.width, height: frame.height)
            output.bytes.reserveCapacity(frame.width * frame.height * 2 + 64)
            output.begin()
            // ESC[0m ESC[H ESC[2J
            output.bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D, 0x1B, 0x5B, 0x48, 0x1B, 0x5B, 0x32, 0x4A])
            output.cursorX = 0
            output.cursorY = 0
            output.cursorKnown = true
        }

        let comparison = CellComparison()
        frame.cells.withUnsafeBufferPointer { new in
            old.cells.withUnsafeBufferPointer { old in
                let width = frame.width
                for y in 0..<frame.height {
                    let row = y * width
                    // Most rows of most frames are unchanged: one pass over their bits says so.
                    if comparison.sameRow(new, old, from: row, count: width) { continue }
                    // Where the row's trailing run of plain blanks starts, found at its first change.
                    var blankTail: Int?
                    var x = 0
                    while x < width {
                        let index = row + x
                        if new[index].isContinuation {
                            // A continuation not covered by a wide character on its left: shown as a space.
                            if !comparison.same(new, old, at: index) {
                                output.write(
                                    Cell(" ", style: new[index].style), columns: 1, x: x, y: y,
                                    row: new[row..<row + width])
                            }
                            x += 1
                            continue
                        }
                        let wide = x + 1 < width && new[index + 1].isContinuation
                        if !comparison.same(new, old, at: index)
                            || (wide && !comparison.same(new, old, at: index + 1))
                        {
                            if !wide, new[index].character == " ", new[index].style == .plain {
                                let tail = blankTail ?? Self.blankTailStart(new[row..<row + width])
                                blankTail = tail
                                if x >= tail, width - x > 3 {
                                    // The rest of the row is blank: erase it (3 bytes) instead of writing spaces.
                                    output.eraseToEndOfLine(x: x, y: y, row: new[row..<row + width])
                                    break
                                }
                            }
                            output.write(new[index], columns: wide ? 2 : 1, x: x, y: y, row: new[row..<row + width])
                        }
                        x += wide ? 2 : 1
                    }
                }
            }
        }

        if output.started { cursorVisible = false }  // hidden while drawing
        if output.style != .plain {
            output.bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])  // ESC[0m: plain between frames
            output.style = .plain
        }
        if let cursor = frame.cursor, frame.width > 0, frame.height > 0 {
            let x = min(max(0, cursor.x), frame.width - 1)
            let y = min(max(0, cursor.y), frame.height - 1)
            frame.cells.withUnsafeBufferPointer { cells in
                output.move(toX: x, y: y, row: cells[y * frame.width..<(y + 1) * frame.width])
            }
            if cursorVisible != true {
                output.bytes.append(contentsOf: [0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x68])  // ESC[?25h
                cursorVisible = true
            }
        } else if cursorVisible != false {
            output.bytes.append(contentsOf: [0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x6C])  // ESC[?25l
            cursorVisible = false
        }
        output.end()

        cursorX = output.cursorX
        cursorY = output.cursorY
        cursorKnown = output.cursorKnown
        previous = frame
        return output.bytes
    }
}

extension ScreenRenderer {
    /// The column from which every cell of `row` is a plain blank (the row's width when its last cell is not).
    fileprivate static func blankTailStart(_ row: Slice<UnsafeBufferPointer<Cell>>) -> Int {
        var start = row.endIndex
        while start > row.startIndex {
            let cell = row[start - 1]
            guard !cell.isContinuation, cell.character == " ", cell.style == .plain else { break }
            start -= 1
        }
        return start - row.startIndex
    }
}

/// Cell equality for the diff, fast for the common case of an unchanged cell.
///
/// Made once per frame: its offsets are plain stored values, not globals (whose lazy initialisation would be
/// checked at every cell).
private struct CellComparison {
    /// Where a cell's fields are stored, to compare them without copying the cell.
    private let characterOffset = MemoryLayout<Cell>.offset(of: \Cell.character)!
    private let styleOffset = MemoryLayout<Cell>.offset(of: \Cell.style)!
    private let continuationOffset = MemoryLayout<Cell>.offset(of: \Cell.isContinuation)!
    private let styleSize = MemoryLayout<TextStyle>.size
    /// Whether a `Character` is two 64-bit words, as on 64-bit platforms; elsewhere `==` alone is used.
    private let characterIsTwoWords = MemoryLayout<Character>.size == 16

    /// Whether the cell's bytes are three 64-bit words with the character in the first two, the style and the
    /// continuation flag in the third and padding after them, as on 64-bit platforms today; ``sameRow`` needs it.
    private let wordLayout: Bool
    /// The bytes of the third word that hold fields, not padding.
    private let thirdWordMask: UInt64

    init() {
        let size = MemoryLayout<Cell>.size
        wordLayout =
            characterIsTwoWords && characterOffset == 0 && styleOffset >= 16 && continuationOffset >= 16
            && size <= 24 && MemoryLayout<Cell>.stride == 24 && MemoryLayout<Cell>.alignment >= 8
        // Little-endian: the first `size - 16` bytes of the word are its low bytes.
        thirdWordMask = size >= 24 ? ~0 : (UInt64(1) << UInt64(8 * max(0, size - 16))) - 1
    }

    /// Whether the `count` cells from `start` of `lhs` and `rhs` have the same bits (padding aside): `false` may
    /// still be equal cells, which ``same(_:_:at:)`` settles one by one.
    @inline(__always)
    func sameRow(_ lhs: UnsafeBufferPointer<Cell>, _ rhs: UnsafeBufferPointer<Cell>, from start: Int, count: Int)
        -> Bool
    {
        guard wordLayout, UInt16(1).littleEndian == 1 else { return false }
        let left = UnsafeRawPointer(lhs.baseAddress! + start).assumingMemoryBound(to: UInt64.self)
        let right = UnsafeRawPointer(rhs.baseAddress! + start).assumingMemoryBound(to: UInt64.self)
        var difference: UInt64 = 0
        for word in stride(from: 0, to: count * 3, by: 3) {
            difference |= (left[word] ^ right[word]) | (left[word + 1] ^ right[word + 1])
            difference |= (left[word + 2] ^ right[word + 2]) & thirdWordMask
        }
        return difference == 0
    }

    /// Whether the cells at `index` of `lhs` and `rhs` are equal.
    ///
    /// The fields' bits are compared (the same bits are the same value, and copying a `Character` costs reference
    /// counting). Different bits may still be equal characters (a long grapheme stored twice), which `==`
    /// settles; different bits of equal styles can only make a cell be rewritten needlessly, never skipped.
    @inline(__always)
    func same(_ lhs: UnsafeBufferPointer<Cell>, _ rhs: UnsafeBufferPointer<Cell>, at index: Int) -> Bool {
        let left = UnsafeRawPointer(lhs.baseAddress! + index)
        let right = UnsafeRawPointer(rhs.baseAddress! + index)
        if characterIsTwoWords {
            guard
                left.load(fromByteOffset: characterOffset, as: UInt64.self)
                    == right.load(fromByteOffset: characterOffset, as: UInt64.self),
                left.load(fromByteOffset: characterOffset + 8, as: UInt64.self)
                    == right.load(fromByteOffset: characterOffset + 8, as: UInt64.self)
            else { return lhs[index] == rhs[index] }
        } else if lhs[index].character != rhs[index].character {
            return false
        }
        guard
            left.load(fromByteOffset: continuationOffset, as: Bool.self)
                == right.load(fromByteOffset: continuationOffset, as: Bool.self)
        else { return false }
        for offset in styleOffset..<styleOffset + styleSize
        where left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }
}

/// The bytes of one frame being built, with the cursor and style they leave the terminal in.
private struct FrameOutput {
    let colorMode: ColorMode
    let width: Int
    var bytes: [UInt8] = []
    var cursorX: Int
    var cursorY: Int
    var cursorKnown: Bool
    /// The style in effect: frames start and end in the plain style.
    var style = TextStyle.plain
    /// Whether the frame's prologue (synchronized update, hidden cursor) was written: cells are being drawn.
    private(set) var started = false
    /// Whether to wrap the frame in a synchronized update.
    private let synchronized: Bool
    /// Whether the cursor is (or may be) shown, and must be hidden while drawing.
    private let cursorVisible: Bool

    init(
        colorMode: ColorMode, width: Int, synchronized: Bool, cursorVisible: Bool, cursorX: Int, cursorY: Int,
        cursorKnown: Bool
    ) {
        self.colorMode = colorMode
        self.width = width
        self.synchronized = synchronized
        self.cursorVisible = cursorVisible
        self.cursorX = cursorX
        self.cursorY = cursorY
        self.cursorKnown = cursorKnown
    }

    /// Starts drawing cells, once: begins a synchronized update if asked, and hides the cursor while drawing.
    mutating func begin() {
        guard !started else { return }
        started = true
        if bytes.capacity < 256 { bytes.reserveCapacity(256) }
        if synchronized { bytes.append(contentsOf: [0x1B, 0x5B, 0x3F, 0x32, 0x30, 0x32, 0x36, 0x68]) }  // ESC[?2026h
        if cursorVisible { bytes.append(contentsOf: [0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x6C]) }  // ESC[?25l
    }

    /// Ends the synchronized update, if one was begun.
    mutating func end() {
        guard synchronized, started else { return }
        bytes.append(contentsOf: [0x1B, 0x5B, 0x3F, 0x32, 0x30, 0x32, 0x36, 0x6C])  // ESC[?2026l
    }

    /// Writes `cell`, `columns` wide, at (`x`, `y`); `row` is the new frame's row `y`, for hops over unchanged text.
    mutating func write(_ cell: Cell, columns: Int, x: Int, y: Int, row: Slice<UnsafeBufferPointer<Cell>>) {
        begin()
        move(toX: x, y: y, row: row)
        if cell.style != style {
            colorMode.appendSGR(for: cell.style, to: &bytes)
            style = cell.style
        }
        appendCharacter(cell.character)
        cursorX += columns
        if cursorX >= width { cursorKnown = false }
    }

    /// Erases from (`x`, `y`) to the end of the row (`ESC [K`) in the plain style; the cursor stays.
    mutating func eraseToEndOfLine(x: Int, y: Int, row: Slice<UnsafeBufferPointer<Cell>>) {
        begin()
        move(toX: x, y: y, row: row)
        if style != .plain {
            colorMode.appendSGR(for: .plain, to: &bytes)
            style = .plain
        }
        bytes.append(0x1B)
        bytes.append(0x5B)
        bytes.append(0x4B)  // K
    }

    private mutating func appendCharacter(_ character: Character) {
        let utf8 = character.utf8
        guard let first = utf8.first, first >= 0x20, first != 0x7F else {
            // Control characters (CR LF is one) never reach the terminal.
            bytes.append(0x20)
            return
        }
        if first < 0x80, utf8.count == 1 {
            bytes.append(first)
        } else {
            bytes.append(contentsOf: utf8)
        }
    }

    /// Moves the cursor to (`x`, `y`) the cheapest way: nothing when it is there, rewriting up to four unchanged
    /// plain ASCII cells in the current style, a carriage return and line feed to the start of the next row, a
    /// cursor-forward on the same row, or a cursor position.
    mutating func move(toX x: Int, y: Int, row: Slice<UnsafeBufferPointer<Cell>>) {
        if cursorKnown, cursorY == y {
            if cursorX == x { return }
            if x > cursorX {
                let gap = x - cursorX
                if gap <= 4, canRewrite(row, from: cursorX, to: x) {
                    for column in cursorX..<x { bytes.append(row[row.startIndex + column].character.asciiValue!) }
                    cursorX = x
                    return
                }
                bytes.append(0x1B)
                bytes.append(0x5B)
                if gap > 1 { appendDecimal(gap) }
                bytes.append(0x43)  // C
                cursorX = x
                return
            }
        }
        if cursorKnown, x == 0, y == cursorY + 1 {
            bytes.append(0x0D)
            bytes.append(0x0A)
        } else {
            bytes.append(0x1B)
            bytes.append(0x5B)
            if y > 0 || x > 0 { appendDecimal(y + 1) }
            if x > 0 {
                bytes.append(0x3B)
                appendDecimal(x + 1)
            }
            bytes.append(0x48)  // H
        }
        cursorX = x
        cursorY = y
        cursorKnown = true
    }

    /// Whether the cells `from..<to` of `row` are one-column printable ASCII in the style in effect.
    private func canRewrite(_ row: Slice<UnsafeBufferPointer<Cell>>, from: Int, to: Int) -> Bool {
        for column in from..<to {
            let cell = row[row.startIndex + column]
            guard !cell.isContinuation, cell.style == style, let ascii = cell.character.asciiValue,
                ascii >= 0x20, ascii < 0x7F
            else { return false }
        }
        return true
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        bytes.append(UInt8(0x30 + value % 10))
    }
}
