/// A single-line text input with a cursor: a search field, a note's title.
///
/// Keys (``handle(_:)``):
///
/// | key | effect |
/// |---|---|
/// | characters, paste | inserted at the cursor (newlines and tabs in a paste become spaces) |
/// | Backspace / Delete | the character before / after the cursor |
/// | Left / Right | one character |
/// | Home, Ctrl+A / End, Ctrl+E | the start / end of the text |
/// | Ctrl+U / Ctrl+K | delete to the start / to the end |
/// | Ctrl+W | delete the word before the cursor (and the spaces after it) |
///
/// Enter, Escape, Tab, Up and Down are left to the app (`false`), which decides what submitting or leaving the
/// field means.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let row = buffer.bounds.split(top: 1).top
/// let key = Key.enter   // from TerminalSession.keys
///
/// var search = TextField(placeholder: "Search items")
/// if !search.handle(key), key == .enter { print("search for", search.text) }
/// search.draw(into: &buffer, in: row, style: .plain, isFocused: true)
/// ```
///
/// A value type with no I/O. The cursor is a character index (a `Character` is a grapheme cluster, so 👍🏽 and
/// `e` with a combining accent are one step); it is drawn at the display column of the text before it, so after
/// `名前` it sits in column 4. Complexity: editing is O(n) in the length of the text.
public struct TextField: Sendable, Hashable {
    private var characters: [Character]
    private var cursorIndex: Int

    /// Drawn dim when the text is empty.
    public var placeholder: String

    /// A field holding `text` with the cursor at its end.
    public init(text: String = "", placeholder: String = "") {
        characters = Self.sanitized(text)
        cursorIndex = characters.count
        self.placeholder = placeholder
    }

    /// The text being edited. Setting it puts the cursor at the end; newlines and tabs become spaces.
    public var text: String {
        get { String(characters) }
        set {
            characters = Self.sanitized(newValue)
            cursorIndex = characters.count
        }
    }

    /// Whether the text is empty.
    public var isEmpty: Bool { characters.isEmpty }

    /// The cursor as a character index in `0...text.count`; set values are clamped.
    public var cursor: Int {
        get { cursorIndex }
        set { cursorIndex = min(max(0, newValue), characters.count) }
    }

    /// The display column of the cursor: the columns of the text before it.
    public var cursorColumn: Int {
        characters[..<cursorIndex].reduce(0) { $0 + TextLayout.drawnColumns(of: $1) }
    }

    /// Edits the text for an editing key and returns whether the key was one (see the table above). Editing keys
    /// are used even when they change nothing (Backspace at the start).
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            insert(String(character))
        case .paste(let text):
            insert(text)
        case .backspace:
            if cursorIndex > 0 {
                characters.remove(at: cursorIndex - 1)
                cursorIndex -= 1
            }
        case .delete:
            if cursorIndex < characters.count { characters.remove(at: cursorIndex) }
        case .left: cursor -= 1
        case .right: cursor += 1
        case .home, .control("a"): cursorIndex = 0
        case .end, .control("e"): cursorIndex = characters.count
        case .control("u"):
            characters.removeSubrange(..<cursorIndex)
            cursorIndex = 0
        case .control("k"):
            characters.removeSubrange(cursorIndex...)
        case .control("w"):
            deleteWordBackward()
        default:
            return false
        }
        return true
    }

    /// Inserts `text` at the cursor and moves the cursor past it; newlines and tabs become spaces and other
    /// control characters are dropped.
    public mutating func insert(_ text: String) {
        let inserted = Self.sanitized(text)
        characters.insert(contentsOf: inserted, at: cursorIndex)
        cursorIndex += inserted.count
    }

    /// Draws the field on the first row of `rect`: the text in `style` (the row filled with it), or the
    /// placeholder dimmed when the text is empty, and, when focused, puts `buffer.cursor` at the cursor.
    ///
    /// When the text is wider than the field, it scrolls sideways so the cursor stays in view: the cursor sits at
    /// the right edge until it moves back into the first page. The cursor never lands on the right half of a wide
    /// character; one cut at the left edge shows as a space.
    public func draw(into buffer: inout ScreenBuffer, in rect: Rect, style: TextStyle = .plain, isFocused: Bool) {
        guard rect.width > 0, rect.height > 0 else { return }
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        buffer.fill(row, style: style)
        if characters.isEmpty {
            buffer.draw(placeholder, x: row.x, y: row.y, style: style.adding(.dim), maxColumns: row.width)
            if isFocused { buffer.cursor = (row.x, row.y) }
            return
        }
        let cursorColumn = cursorColumn
        // Keep one column for the cursor after the last character.
        let offset = max(0, cursorColumn - (row.width - 1))
        var visible = ""
        var column = 0
        for character in characters {
            let width = TextLayout.drawnColumns(of: character)
            if column >= offset {
                visible.append(character)
            } else if column + width > offset {
                visible.append(" ")  // The right half of a wide character cut by the left edge.
            }
            column += width
            if column - offset >= row.width { break }
        }
        buffer.draw(visible, x: row.x, y: row.y, style: style, maxColumns: row.width)
        if isFocused { buffer.cursor = (row.x + min(cursorColumn - offset, row.width - 1), row.y) }
    }

    private mutating func deleteWordBackward() {
        var start = cursorIndex
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        characters.removeSubrange(start..<cursorIndex)
        cursorIndex = start
    }

    /// One line of text: newlines and tabs as spaces, other control characters dropped.
    private static func sanitized(_ text: String) -> [Character] {
        var result: [Character] = []
        result.reserveCapacity(text.count)
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if character.asciiValue.map({ $0 < 0x20 || $0 == 0x7F }) ?? false {
                continue
            } else {
                result.append(character)
            }
        }
        return result
    }
}
