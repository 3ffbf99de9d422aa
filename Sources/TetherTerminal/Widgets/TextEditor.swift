/// A multi-line text input: a note's body.
///
/// Keys (``handle(_:visibleRows:width:)``):
///
/// | key | effect |
/// |---|---|
/// | characters, paste | inserted at the cursor; newlines in a paste start new lines, tabs become four spaces |
/// | Enter | splits the line at the cursor |
/// | Backspace / Delete | the character before / after the cursor; at the start / end of a line, joins it with the one above / below |
/// | Left / Right | one character, across line ends |
/// | Up / Down, Page Up / Page Down | one row / `visibleRows` rows, keeping the display column where the row allows; on the first / last row, the start / end of the text's line. With a `width`, rows are the wrapped rows drawn at that width; without one, the lines of the text |
/// | Home, Ctrl+A / End, Ctrl+E | the start / end of the line |
/// | Ctrl+U / Ctrl+K | delete to the start / to the end of the line (Ctrl+K at the end joins the next line) |
/// | Ctrl+W | delete the word before the cursor |
///
/// Escape, Tab and the rest are left to the app (`false`), which decides how to save or leave the editor.
///
/// Lines are soft-wrapped to the width when drawn: they break after a space where one is near, otherwise between
/// characters; spaces at a break hang past the edge. Up and Down move by those wrapped rows when ``handle(_:visibleRows:width:)``
/// is given the width the editor is drawn at.
/// The view scrolls so the cursor's row stays in view, keeping the cursor on the bottom row while it is below the
/// first screenful.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let rect = buffer.bounds.inset(by: 1)
/// let key = Key.character("!")   // from TerminalSession.keys
///
/// var body = TextEditor(text: "Milk, eggs")
/// _ = body.handle(key, visibleRows: rect.height, width: rect.width)
/// body.draw(into: &buffer, in: rect, isFocused: true)
/// print(body.text)   // "Milk, eggs!" to save
/// ```
///
/// A value type with no I/O. Positions are character indices (grapheme clusters). Complexity: editing is O(n) in
/// the length of the line; drawing is O(n) in the length of the text up to the last visible row.
public struct TextEditor: Sendable, Hashable {
    private var rows: [[Character]]
    /// The cursor's line, in `0..<lines.count`.
    public private(set) var cursorLine: Int
    /// The cursor's character index in its line, in `0...line.count`.
    public private(set) var cursorIndex: Int
    /// The display column Up and Down aim for, kept across lines shorter than it.
    private var goalColumn: Int?

    /// Drawn dim when the text is empty.
    public var placeholder: String

    /// An editor holding `text` with the cursor at its end.
    public init(text: String = "", placeholder: String = "") {
        rows = [[]]
        cursorLine = 0
        cursorIndex = 0
        self.placeholder = placeholder
        self.text = text
    }

    /// The text, its lines joined with `"\n"`. Setting it splits it at newlines (`\r\n` too) and puts the cursor at
    /// its end.
    public var text: String {
        get { rows.map { String($0) }.joined(separator: "\n") }
        set {
            rows = [[]]
            cursorLine = 0
            cursorIndex = 0
            insert(newValue)
        }
    }

    /// The lines of the text; at least one, possibly empty.
    public var lines: [String] { rows.map { String($0) } }

    /// Whether the text is empty.
    public var isEmpty: Bool { rows.count == 1 && rows[0].isEmpty }

    /// Moves the cursor to character `index` of `line`, both clamped.
    public mutating func moveCursor(line: Int, index: Int) {
        cursorLine = min(max(0, line), rows.count - 1)
        cursorIndex = min(max(0, index), rows[cursorLine].count)
        goalColumn = nil
    }

    /// Edits the text or moves the cursor for an editing key, and returns whether the key was one (see the table
    /// above). Editing keys are used even when they change nothing. Page keys move by `visibleRows` rows; `width`,
    /// the columns the editor is drawn in, makes Up and Down move by wrapped rows.
    public mutating func handle(_ key: Key, visibleRows: Int = 10, width: Int? = nil) -> Bool {
        let rowWidth = width.flatMap { $0 > 0 ? $0 : nil }
        var keepsGoal = false
        switch key {
        case .character(let character): insert(String(character))
        case .paste(let text): insert(text)
        case .enter: insert("\n")
        case .backspace: deleteBackward()
        case .delete: deleteForward()
        case .left:
            if cursorIndex > 0 {
                cursorIndex -= 1
            } else if cursorLine > 0 {
                cursorLine -= 1
                cursorIndex = rows[cursorLine].count
            }
        case .right:
            if cursorIndex < rows[cursorLine].count {
                cursorIndex += 1
            } else if cursorLine < rows.count - 1 {
                cursorLine += 1
                cursorIndex = 0
            }
        case .up: keepsGoal = move(by: -1, width: rowWidth)
        case .down: keepsGoal = move(by: 1, width: rowWidth)
        case .pageUp: keepsGoal = move(by: -max(1, visibleRows), width: rowWidth)
        case .pageDown: keepsGoal = move(by: max(1, visibleRows), width: rowWidth)
        case .home, .control("a"): cursorIndex = 0
        case .end, .control("e"): cursorIndex = rows[cursorLine].count
        case .control("u"):
            rows[cursorLine].removeSubrange(..<cursorIndex)
            cursorIndex = 0
        case .control("k"):
            if cursorIndex == rows[cursorLine].count {
                deleteForward()
            } else {
                rows[cursorLine].removeSubrange(cursorIndex...)
            }
        case .control("w"):
            var start = cursorIndex
            let line = rows[cursorLine]
            while start > 0, line[start - 1].isWhitespace { start -= 1 }
            while start > 0, !line[start - 1].isWhitespace { start -= 1 }
            rows[cursorLine].removeSubrange(start..<cursorIndex)
            cursorIndex = start
        default:
            return false
        }
        if !keepsGoal { goalColumn = nil }
        return true
    }

    /// Inserts `text` at the cursor and moves the cursor past it: newlines (`\n`, `\r\n`, `\r`) start new lines,
    /// tabs become four spaces, other control characters are dropped.
    public mutating func insert(_ text: String) {
        for character in text {
            if character.isNewline {
                let rest = Array(rows[cursorLine][cursorIndex...])
                rows[cursorLine].removeSubrange(cursorIndex...)
                rows.insert(rest, at: cursorLine + 1)
                cursorLine += 1
                cursorIndex = 0
                continue
            }
            let inserted: [Character]
            if character == "\t" {
                inserted = Array(repeating: " ", count: 4)
            } else if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F {
                continue
            } else {
                inserted = [character]
            }
            rows[cursorLine].insert(contentsOf: inserted, at: cursorIndex)
            cursorIndex += inserted.count
        }
        goalColumn = nil
    }

    /// Draws the text soft-wrapped into `rect` in `style` (the rect filled with it), or the placeholder dimmed when
    /// the text is empty, and, when focused, puts `buffer.cursor` at the cursor.
    ///
    /// A cursor after a line that fills the width sits in the last column.
    public func draw(into buffer: inout ScreenBuffer, in rect: Rect, style: TextStyle = .plain, isFocused: Bool) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect, style: style)
        if isEmpty {
            for (offset, line) in TextLayout.wrap(placeholder, toColumns: rect.width).prefix(rect.height).enumerated() {
                buffer.draw(line, x: rect.x, y: rect.y + offset, style: style.adding(.dim), maxColumns: rect.width)
            }
            if isFocused { buffer.cursor = (rect.x, rect.y) }
            return
        }
        // The wrapped rows of the lines down to the cursor's, each line wrapped once: they give the cursor's row,
        // and so the top row shown.
        var wrapped: [[Int]] = []
        wrapped.reserveCapacity(cursorLine + 1)
        var cursorRow = 0
        for line in rows[...cursorLine] {
            let starts = Self.segments(of: line, width: rect.width)
            wrapped.append(starts)
            cursorRow += starts.count
        }
        let cursorSegments = wrapped[cursorLine]
        let segment = cursorSegments.lastIndex { $0 <= cursorIndex } ?? 0
        cursorRow += segment - cursorSegments.count
        let cursorX = Self.columns(of: rows[cursorLine][cursorSegments[segment]..<cursorIndex])
        let top = max(0, cursorRow - rect.height + 1)

        var row = 0
        lines: for (lineIndex, line) in rows.enumerated() {
            let starts = lineIndex < wrapped.count ? wrapped[lineIndex] : Self.segments(of: line, width: rect.width)
            if row + starts.count <= top {
                row += starts.count
                continue
            }
            for (index, start) in starts.enumerated() {
                defer { row += 1 }
                if row < top { continue }
                if row >= top + rect.height { break lines }
                let end = index + 1 < starts.count ? starts[index + 1] : line.count
                buffer.draw(
                    String(line[start..<end]), x: rect.x, y: rect.y + row - top, style: style,
                    maxColumns: rect.width)
            }
        }
        if isFocused { buffer.cursor = (rect.x + min(cursorX, rect.width - 1), rect.y + cursorRow - top) }
    }

    // MARK: - Internals

    private mutating func deleteBackward() {
        if cursorIndex > 0 {
            rows[cursorLine].remove(at: cursorIndex - 1)
            cursorIndex -= 1
        } else if cursorLine > 0 {
            let line = rows.remove(at: cursorLine)
            cursorLine -= 1
            cursorIndex = rows[cursorLine].count
            rows[cursorLine].append(contentsOf: line)
        }
    }

    private mutating func deleteForward() {
        if cursorIndex < rows[cursorLine].count {
            rows[cursorLine].remove(at: cursorIndex)
        } else if cursorLine < rows.count - 1 {
            let next = rows.remove(at: cursorLine + 1)
            rows[cursorLine].append(contentsOf: next)
        }
    }

    /// Moves `count` rows up (negative) or down: wrapped rows at `width`, or lines without one.
    private mutating func move(by count: Int, width: Int?) -> Bool {
        guard let width else { return moveVertically(by: count) }
        return moveByRows(count, width: width)
    }

    /// Moves `count` wrapped rows up (negative) or down at `width`, aiming at the goal column (a column within the
    /// row); returns `true` to keep the goal. Past the first or last row: the start or end of that line.
    private mutating func moveByRows(_ count: Int, width: Int) -> Bool {
        var starts = Self.segments(of: rows[cursorLine], width: width)
        var segment = starts.lastIndex { $0 <= cursorIndex } ?? 0
        let goal = goalColumn ?? Self.columns(of: rows[cursorLine][starts[segment]..<cursorIndex])
        for _ in 0..<abs(count) {
            if count < 0 {
                if segment > 0 {
                    segment -= 1
                } else if cursorLine > 0 {
                    cursorLine -= 1
                    starts = Self.segments(of: rows[cursorLine], width: width)
                    segment = starts.count - 1
                } else {
                    cursorIndex = 0
                    return false
                }
            } else {
                if segment < starts.count - 1 {
                    segment += 1
                } else if cursorLine < rows.count - 1 {
                    cursorLine += 1
                    starts = Self.segments(of: rows[cursorLine], width: width)
                    segment = 0
                } else {
                    cursorIndex = rows[cursorLine].count
                    return false
                }
            }
        }
        // In the row: the last index whose column does not pass the goal; a row that wraps ends before its
        // break (the index of the break is the next row's start).
        let line = rows[cursorLine]
        let end = segment + 1 < starts.count ? starts[segment + 1] - 1 : line.count
        cursorIndex = Self.index(in: line[starts[segment]..<end], atColumn: goal)
        goalColumn = goal
        return true
    }

    /// Moves `lines` lines up (negative) or down, aiming at the goal column; returns `true` to keep the goal.
    private mutating func moveVertically(by lines: Int) -> Bool {
        let goal = goalColumn ?? Self.columns(of: rows[cursorLine][..<cursorIndex])
        let target = min(max(0, cursorLine + lines), rows.count - 1)
        if target == cursorLine {
            // Already on the first or last line: go to its start or end, as text fields do.
            cursorIndex = lines < 0 ? 0 : rows[cursorLine].count
            return false
        }
        cursorLine = target
        cursorIndex = Self.index(in: rows[cursorLine][...], atColumn: goal)
        goalColumn = goal
        return true
    }

    /// The last index in `characters` (their end included) whose display column, counted from their start, does
    /// not pass `goal`.
    private static func index(in characters: ArraySlice<Character>, atColumn goal: Int) -> Int {
        var column = 0
        var index = characters.startIndex
        while index < characters.endIndex {
            let width = TextLayout.drawnColumns(of: characters[index])
            if column + width > goal { break }
            column += width
            index += 1
        }
        return index
    }

    private static func columns(of characters: ArraySlice<Character>) -> Int {
        characters.reduce(0) { $0 + TextLayout.drawnColumns(of: $1) }
    }

    /// The character indices where the wrapped rows of `line` start: the first is 0. A row breaks after its last
    /// space when it has one, otherwise before the character that would cross the width; spaces never start a
    /// break of their own, so they hang past the edge.
    static func segments(of line: [Character], width: Int) -> [Int] {
        var starts = [0]
        var start = 0
        var column = 0
        var afterSpace: Int?
        for (index, character) in line.enumerated() {
            let characterWidth = TextLayout.drawnColumns(of: character)
            if character == " " {
                column += characterWidth
                afterSpace = index + 1
                continue
            }
            if column + characterWidth > width, index > start {
                let next = afterSpace ?? index
                starts.append(next)
                start = next
                column = columns(of: line[next..<index])
                afterSpace = nil
            }
            column += characterWidth
        }
        return starts
    }
}
