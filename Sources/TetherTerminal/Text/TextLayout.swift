/// Fitting text into terminal columns: truncation with an ellipsis, padding and word wrap.
///
/// Every function measures in columns as ``ScreenBuffer`` draws them: East Asian wide characters and emoji take
/// two, combining marks none, and a tab or other control character one (it is drawn as a space). Two-column
/// characters are never split, so a result can be a column short of the limit, never over it.
///
/// ```swift
/// import TetherTerminal
///
/// TextLayout.truncate("ノートパソコン", toColumns: 7)     // "ノート…"
/// TextLayout.padLeft("1,280円", toColumns: 8)           // " 1,280円"
/// TextLayout.wrap("The quick brown fox", toColumns: 9)  // ["The quick", "brown fox"]
/// ```
///
/// Pure functions, safe from any thread. Complexity: O(n) in the length of the text.
public enum TextLayout {
    /// `text` cut to at most `columns` columns, ending in `ellipsis` when anything was cut.
    ///
    /// Text that fits comes back unchanged. Spaces before the ellipsis are dropped (`"hello…"`, not `"hello …"`).
    /// When the ellipsis itself is wider than `columns`, the text is cut without one. Zero or negative `columns`
    /// give `""`. The text should be one line; lay out multi-line text with ``wrap(_:toColumns:)`` first.
    public static func truncate(_ text: String, toColumns columns: Int, ellipsis: String = "…") -> String {
        guard columns > 0 else { return "" }
        let ellipsisColumns = drawnColumns(of: ellipsis)
        if isPrintableASCII(text) {
            // One column per byte.
            guard text.utf8.count > columns else { return text }
            guard ellipsisColumns <= columns else { return String(decoding: text.utf8.prefix(columns), as: UTF8.self) }
            var kept = String(decoding: text.utf8.prefix(columns - ellipsisColumns), as: UTF8.self)
            while kept.last == " " { kept.removeLast() }
            return kept + ellipsis
        }
        // One pass that stops at the first character past the limit, remembering where the text fits with the
        // ellipsis after it.
        let budget = ellipsisColumns <= columns ? columns - ellipsisColumns : columns
        var used = 0
        var fitting = 0  // UTF-8 length of the longest prefix within the budget
        var offset = 0
        for character in text {
            used += drawnColumns(of: character)
            if used > columns {
                var kept = String(decoding: text.utf8.prefix(fitting), as: UTF8.self)
                guard ellipsisColumns <= columns else { return kept }
                while kept.last == " " { kept.removeLast() }
                return kept + ellipsis
            }
            offset += character.utf8.count
            if used <= budget { fitting = offset }
        }
        return text
    }

    /// `spans` cut to at most `columns` columns, the last kept span ending in `ellipsis` when anything was cut.
    ///
    /// The ellipsis takes the style of the span it cuts. Spans that fit come back unchanged; empty spans after the
    /// cut are dropped.
    public static func truncate(_ spans: [Span], toColumns columns: Int, ellipsis: String = "…") -> [Span] {
        guard columns > 0 else { return [] }
        let total = spans.reduce(0) { $0 + drawnColumns(of: $1.text) }
        if total <= columns { return spans }
        let ellipsisColumns = drawnColumns(of: ellipsis)
        let budget = ellipsisColumns <= columns ? columns - ellipsisColumns : columns
        var result: [Span] = []
        var used = 0
        for span in spans {
            let piece = prefix(of: span.text, fitting: budget - used)
            let isCut = piece.text.count < span.text.count
            if !piece.text.isEmpty || isCut {
                result.append(Span(piece.text, style: span.style))
            }
            used += piece.columns
            if isCut { break }
        }
        guard ellipsisColumns <= columns, var last = result.popLast() else { return result }
        while last.text.last == " " { last.text.removeLast() }
        last.text += ellipsis
        result.append(last)
        return result
    }

    /// `text` fitted to exactly `columns` columns: truncated with an ellipsis when wider, then padded with spaces on
    /// the right. For table cells.
    public static func pad(_ text: String, toColumns columns: Int) -> String {
        let fitted = truncate(text, toColumns: columns)
        return fitted + String(repeating: " ", count: max(0, columns - drawnColumns(of: fitted)))
    }

    /// `text` fitted to exactly `columns` columns and right-aligned: truncated with an ellipsis when wider, then
    /// padded with spaces on the left. For prices and counts.
    public static func padLeft(_ text: String, toColumns columns: Int) -> String {
        let fitted = truncate(text, toColumns: columns)
        return String(repeating: " ", count: max(0, columns - drawnColumns(of: fitted))) + fitted
    }

    /// `text` broken into lines of at most `columns` columns.
    ///
    /// - Lines break at spaces; the spaces at a break are dropped and no line ends in spaces. Spaces starting a
    ///   paragraph are kept (indentation).
    /// - Hard newlines (`\n`, `\r\n`, `\r`) always break, and an empty paragraph is an empty line, so
    ///   `"a\n\nb"` gives `["a", "", "b"]` and `""` gives `[""]`.
    /// - A line may break between any two characters when either is two columns wide, so Japanese text without
    ///   spaces fills each line, except before closing punctuation and small kana (`、。」ーっ`) and after opening
    ///   brackets (`「（`), which stay with their neighbour; a word longer than the width is broken by columns.
    /// - A two-column character is never split. At a width of 1, it gets a line of its own, one column over (the
    ///   screen buffer draws it as a space).
    ///
    /// Zero or negative `columns` give `[]`: nothing fits.
    public static func wrap(_ text: String, toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            wrap(paragraph, toColumns: columns, into: &lines)
        }
        return lines
    }

    // MARK: - Internals

    /// The columns a character takes when drawn into a ``ScreenBuffer``: control characters are drawn as spaces.
    static func drawnColumns(of character: Character) -> Int {
        // Every one-byte character is ASCII and drawn in one column, a control character as a space. Checking the
        // UTF-8 view is several times faster than `asciiValue`.
        if character.utf8.count == 1 { return 1 }
        let columns = character.terminalColumns
        if columns == 0, character.isNewline || character == "\t" || character.asciiValue != nil { return 1 }
        return columns
    }

    /// The columns `text` takes when drawn into a ``ScreenBuffer``.
    static func drawnColumns(of text: some StringProtocol) -> Int {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + drawnColumns(of: $1) }
    }

    /// The longest prefix of `text` that fits in `columns`, and the columns it takes.
    static func prefix(of text: some StringProtocol, fitting columns: Int) -> (text: String, columns: Int) {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = drawnColumns(of: text[index])
            if used + width > columns { break }
            used += width
            end = text.index(after: index)
        }
        return (String(text[..<end]), used)
    }

    /// Greedy word wrap of one paragraph (no newlines inside), appending its lines.
    ///
    /// A word is a run of one-column characters between spaces, or a single two-column character; the widths are
    /// measured once.
    private static func wrap(_ paragraph: Substring, toColumns columns: Int, into lines: inout [String]) {
        let characters = paragraph.map { $0 == "\t" ? " " : $0 }
        let widths = characters.map { drawnColumns(of: $0) }
        let count = characters.count
        func line(_ range: Range<Int>) -> String { String(characters[range]) }
        var lineStart = 0
        var lineEnd = 0  // Past the last character of the line, trailing spaces excluded.
        var lineColumns = 0
        var hasContent = false
        var index = 0
        while index < count {
            if characters[index] == " " {
                index += 1
                continue
            }
            // The word starting here, and the spaces before it (one column each). Japanese line-breaking rules
            // glue closing punctuation to the unit before it and opening brackets to the unit after them.
            func unitEnd(from start: Int) -> Int {
                var end = start + 1
                if widths[start] < 2 {
                    while end < count, characters[end] != " ", widths[end] < 2 { end += 1 }
                }
                return end
            }
            var end = unitEnd(from: index)
            while end < count, characters[end] != " ",
                Self.noBreakBefore.contains(characters[end]) || Self.noBreakAfter.contains(characters[end - 1])
            {
                end = unitEnd(from: end)
            }
            let wordColumns = widths[index..<end].reduce(0, +)
            let gap = index - lineEnd
            if lineColumns + gap + wordColumns <= columns {
                lineEnd = end
                lineColumns += gap + wordColumns
            } else {
                if hasContent { lines.append(line(lineStart..<lineEnd)) }
                lineStart = index
                lineEnd = end
                lineColumns = wordColumns
                if wordColumns > columns {
                    // A word wider than the line: break it by columns, the last piece starting the next line.
                    lineColumns = 0
                    for position in index..<end {
                        if lineColumns + widths[position] > columns, lineColumns > 0 {
                            lines.append(line(lineStart..<position))
                            lineStart = position
                            lineColumns = 0
                        }
                        lineColumns += widths[position]
                    }
                }
            }
            hasContent = true
            index = end
        }
        lines.append(line(lineStart..<lineEnd))
    }

    /// Characters a line must not start with (kinsoku): closing brackets, punctuation, the prolonged sound mark,
    /// small kana and iteration marks.
    private static let noBreakBefore: Set<Character> = [
        "、", "。", "，", "．", "・", "：", "；", "？", "！", "ー", "」", "』", "）", "］", "｝", "〕", "〉", "》", "】",
        "〙", "〗", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ", "ゅ", "ょ", "ゎ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ",
        "ュ", "ョ", "ヮ", "ヵ", "ヶ", "々", "ゝ", "ゞ", "ヽ", "ヾ", ",", ".", ":", ";", "!", "?", ")", "]", "}",
    ]

    /// Characters a line must not end with: opening brackets.
    private static let noBreakAfter: Set<Character> = [
        "「", "『", "（", "［", "｛", "〔", "〈", "《", "【", "〘", "〖", "(", "[", "{",
    ]

    /// Whether every byte of `text` is printable ASCII: one column per byte.
    private static func isPrintableASCII(_ text: String) -> Bool {
        !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F })
    }
}
