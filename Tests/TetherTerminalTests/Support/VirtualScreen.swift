import TetherTerminal

/// A tiny VT100/xterm interpreter for tests: applies a renderer's output bytes to a grid of cells.
///
/// It understands what ``ScreenRenderer`` and ``TerminalSession`` write (text, CR, LF, cursor position and
/// movement, erase in display and line, SGR, the private modes) with xterm's behaviour for autowrap (a pending wrap
/// after the last column) and for two-column characters (overwriting either half erases the other). Anything else
/// is recorded in ``unknown`` so tests can fail on it. Text is measured with the same width tables as the
/// renderer.
struct VirtualScreen {
    let width: Int
    let height: Int
    private(set) var cells: [Cell]
    private(set) var cursorX = 0
    private(set) var cursorY = 0
    /// Whether the cursor is shown (`ESC [?25h` / `l`).
    private(set) var cursorVisible = true
    /// The private modes set and reset (`?1049`, `?2004`, `?2026`, …), by number: the last state of each.
    private(set) var modes: [Int: Bool] = [:]
    /// Sequences or control bytes it did not understand.
    private(set) var unknown: [String] = []
    /// Every SGR parameter list seen, in order.
    private(set) var sgrParameters: [[Int]] = []
    /// How many times the screen scrolled up (a renderer should never make it scroll).
    private(set) var scrolls = 0
    /// How many characters were written.
    private(set) var charactersWritten = 0
    private var pendingWrap = false
    private var style = TextStyle.plain
    /// Bytes of an escape sequence or UTF-8 text cut at the end of the last `apply` call.
    private var carry: [UInt8] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
    }

    subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// The text of row `y`, continuation cells skipped (as ``ScreenBuffer/text(ofRow:)``).
    func text(ofRow y: Int) -> String {
        var line = ""
        for x in 0..<width where !self[x, y].isContinuation { line.append(self[x, y].character) }
        return line
    }

    /// Every row, trailing spaces trimmed, joined by newlines (as ``ScreenBuffer/text``).
    var text: String {
        (0..<height).map { row in
            var line = text(ofRow: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The first cell where this screen and `buffer` differ in character, continuation or (mapped) style, as a
    /// description; `nil` when they match.
    func firstDifference(from buffer: ScreenBuffer, mappingStyle: (TextStyle) -> TextStyle = { $0 }) -> String? {
        guard buffer.width == width, buffer.height == height else { return "size differs" }
        for y in 0..<height {
            for x in 0..<width {
                let expected = buffer[x, y]
                var expectedCell = Cell(expected.character, style: mappingStyle(expected.style))
                expectedCell.isContinuation = expected.isContinuation
                if expected.isContinuation { expectedCell.character = " " }
                var actual = self[x, y]
                if actual.isContinuation { actual.character = " " }
                if actual != expectedCell {
                    return "(\(x), \(y)): expected \(expectedCell), found \(actual)"
                }
            }
        }
        return nil
    }

    /// Applies `bytes`, which may end in the middle of a sequence.
    mutating func apply(_ bytes: [UInt8]) {
        let input = carry + bytes
        carry = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                guard let end = sequenceEnd(input, from: index) else {
                    carry = Array(input[index...])
                    return
                }
                escape(Array(input[index..<end]))
                index = end
            case 0x0D:
                cursorX = 0
                pendingWrap = false
                index += 1
            case 0x0A:
                lineFeed()
                index += 1
            case 0x08:
                cursorX = max(0, cursorX - 1)
                pendingWrap = false
                index += 1
            case 0x00..<0x20, 0x7F:
                unknown.append("control \(byte)")
                index += 1
            default:
                var end = index
                while end < input.count, input[end] >= 0x20, input[end] != 0x7F { end += 1 }
                // Keep an incomplete UTF-8 character at the end for the next call.
                var textEnd = end
                if end == input.count {
                    var lead = end - 1
                    while lead > index, input[lead] & 0xC0 == 0x80 { lead -= 1 }
                    let needed = input[lead] >= 0xF0 ? 4 : input[lead] >= 0xE0 ? 3 : input[lead] >= 0xC0 ? 2 : 1
                    if end - lead < needed { textEnd = lead }
                }
                for character in String(decoding: input[index..<textEnd], as: UTF8.self) { put(character) }
                if textEnd < end {
                    carry = Array(input[textEnd...])
                    return
                }
                index = end
            }
        }
    }

    /// The index just past the escape sequence at `start`, or `nil` when it is incomplete.
    private func sequenceEnd(_ input: [UInt8], from start: Int) -> Int? {
        guard start + 1 < input.count else { return nil }
        if input[start + 1] != 0x5B { return start + 2 }  // a two-byte escape
        var index = start + 2
        while index < input.count {
            if (0x40...0x7E).contains(input[index]) { return index + 1 }
            index += 1
        }
        return nil
    }

    private mutating func escape(_ sequence: [UInt8]) {
        let text = String(decoding: sequence, as: UTF8.self)
        guard sequence.count >= 3, sequence[1] == 0x5B else {
            unknown.append(text)
            return
        }
        let final = sequence.last!
        var body = sequence[2..<sequence.count - 1]
        let isPrivate = body.first == 0x3F
        if isPrivate { body = body.dropFirst() }
        let parameters = String(decoding: body, as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
            .map { Int($0) }
        if parameters.contains(where: { $0 == nil }) && !(parameters.count == 1 && body.isEmpty) {
            unknown.append(text)
            return
        }
        let numbers = body.isEmpty ? [] : parameters.map { $0! }
        func parameter(_ index: Int, default value: Int) -> Int {
            index < numbers.count && numbers[index] != 0 ? numbers[index] : value
        }
        if isPrivate {
            guard final == 0x68 || final == 0x6C, let mode = numbers.first else {
                unknown.append(text)
                return
            }
            modes[mode] = final == 0x68
            if mode == 25 { cursorVisible = final == 0x68 }
            return
        }
        switch final {
        case 0x48, 0x66:  // H, f: cursor position
            cursorY = min(height - 1, parameter(0, default: 1) - 1)
            cursorX = min(width - 1, parameter(1, default: 1) - 1)
            pendingWrap = false
        case 0x41:  // A
            cursorY = max(0, cursorY - parameter(0, default: 1))
            pendingWrap = false
        case 0x42:  // B
            cursorY = min(height - 1, cursorY + parameter(0, default: 1))
            pendingWrap = false
        case 0x43:  // C
            cursorX = min(width - 1, cursorX + parameter(0, default: 1))
            pendingWrap = false
        case 0x44:  // D
            cursorX = max(0, cursorX - parameter(0, default: 1))
            pendingWrap = false
        case 0x4A:  // J: erase in display
            let mode = numbers.first ?? 0
            let cursor = cursorY * width + cursorX
            let range = mode == 0 ? cursor..<cells.count : mode == 1 ? 0..<cursor + 1 : 0..<cells.count
            for index in range { cells[index] = erased }
        case 0x4B:  // K: erase in line
            let mode = numbers.first ?? 0
            let start = cursorY * width
            let range =
                mode == 0
                ? start + cursorX..<start + width : mode == 1 ? start..<start + cursorX + 1 : start..<start + width
            for index in range { cells[index] = erased }
        case 0x6D:  // m
            selectGraphicRendition(numbers)
        default:
            unknown.append(text)
        }
    }

    /// A blank cell as erasing leaves it: the current background colour shows.
    private var erased: Cell { Cell(" ", style: TextStyle(background: style.background)) }

    private mutating func selectGraphicRendition(_ numbers: [Int]) {
        sgrParameters.append(numbers)
        if numbers.isEmpty {
            style = .plain
            return
        }
        var index = 0
        while index < numbers.count {
            let number = numbers[index]
            switch number {
            case 0: style = .plain
            case 1: style.attributes.insert(.bold)
            case 2: style.attributes.insert(.dim)
            case 3: style.attributes.insert(.italic)
            case 4: style.attributes.insert(.underline)
            case 7: style.attributes.insert(.reverse)
            case 30...37: style.foreground = Self.named[number - 30]
            case 90...97: style.foreground = Self.named[number - 90 + 8]
            case 40...47: style.background = Self.named[number - 40]
            case 100...107: style.background = Self.named[number - 100 + 8]
            case 39: style.foreground = .default
            case 49: style.background = .default
            case 38, 48:
                guard index + 2 < numbers.count, numbers[index + 1] == 5 else {
                    unknown.append("SGR \(numbers)")
                    return
                }
                let color = TerminalColor.palette(UInt8(numbers[index + 2]))
                if number == 38 { style.foreground = color } else { style.background = color }
                index += 2
            default:
                unknown.append("SGR \(numbers)")
            }
            index += 1
        }
    }

    static let named: [TerminalColor] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    private mutating func lineFeed() {
        pendingWrap = false
        if cursorY == height - 1 {
            scrolls += 1
            cells.removeFirst(width)
            cells.append(contentsOf: Array(repeating: erased, count: width))
        } else {
            cursorY += 1
        }
    }

    /// Writes one character at the cursor, as xterm does.
    private mutating func put(_ character: Character) {
        let columns = character.terminalColumns
        guard columns > 0 else { return }
        charactersWritten += 1
        if pendingWrap || cursorX + columns > width {
            cursorX = 0
            lineFeed()
        }
        clearWideCharacter(at: cursorX)
        if columns == 2 { clearWideCharacter(at: cursorX + 1) }
        cells[cursorY * width + cursorX] = Cell(character, style: style)
        if columns == 2 { cells[cursorY * width + cursorX + 1] = Cell(" ", style: style, isContinuation: true) }
        cursorX += columns
        if cursorX >= width {
            cursorX = width - 1
            pendingWrap = true
        }
    }

    /// Erases the other half of a wide character that has a half at column `x` of the cursor's row.
    private mutating func clearWideCharacter(at x: Int) {
        let row = cursorY * width
        if cells[row + x].isContinuation, x > 0 {
            cells[row + x - 1] = Cell(" ", style: cells[row + x - 1].style)
            cells[row + x] = Cell(" ", style: cells[row + x].style)
        } else if x + 1 < width, cells[row + x + 1].isContinuation {
            cells[row + x + 1] = Cell(" ", style: cells[row + x + 1].style)
        }
    }
}
