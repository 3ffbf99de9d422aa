/// The `?` overlay: every key of the app in a centered box, grouped by screen, scrolling when it does not fit.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let key = Key.down   // from TerminalSession.keys
/// var help = KeyHelp(sections: [
///     .init("Everywhere", [.init("Tab 1 2 3", "switch screens"), .init("q", "quit")]),
///     .init("Items", [.init("/", "search"), .init("s", "cycle the sort order")]),
/// ])
/// if !help.handle(key, in: buffer.bounds) { print("close the help") }
/// help.draw(into: &buffer, in: buffer.bounds)
/// ```
///
/// Each entry shows its keys bold in a column as wide as the widest keys (at most a third of the box), and its
/// action beside them, wrapped under itself when long. A value type with no I/O.
public struct KeyHelp: Sendable, Hashable {
    /// One key or key combination and what it does.
    public struct Entry: Sendable, Hashable {
        public var keys: String
        public var action: String

        public init(_ keys: String, _ action: String) {
            self.keys = keys
            self.action = action
        }
    }

    /// A titled group of entries: one screen's keys.
    public struct Section: Sendable, Hashable {
        public var title: String
        public var entries: [Entry]

        public init(_ title: String, _ entries: [Entry]) {
            self.title = title
            self.entries = entries
        }
    }

    public var title: String
    public var sections: [Section]
    /// The scroll position of the entries inside the box.
    public private(set) var scroll = ScrollView()

    public init(title: String = "Keys", sections: [Section]) {
        self.title = title
        self.sections = sections
    }

    /// Scrolls the entries for Up, Down, Page Up, Page Down, Space, Home and End, as laid out in `bounds`, and
    /// returns whether the key was one of them; any other key is for the app (usually: close the overlay).
    public mutating func handle(_ key: Key, in bounds: Rect) -> Bool {
        let inner = Self.inner(of: frame(in: bounds))
        return scroll.handle(key, lineCount: lines(width: inner.width - 1).count, visibleRows: inner.height)
    }

    /// The box the overlay takes centered in `bounds`: as wide as its widest line plus the border and a column of
    /// padding each side (the right one is the scrollbar's), as tall as its lines plus the border, never larger than `bounds`.
    public func frame(in bounds: Rect) -> Rect {
        let widest = lines(width: Int.max / 4).map { $0.reduce(0) { $0 + $1.columns } }.max() ?? 0
        let width = min(bounds.width, max(widest + 4, title.terminalColumns + 6))
        let height = min(bounds.height, lines(width: max(1, width - 4)).count + 2)
        return Rect(
            x: bounds.x + (bounds.width - width) / 2, y: bounds.y + (bounds.height - height) / 2, width: width,
            height: height)
    }

    /// The entries laid out for `width` columns: section titles bold, a blank line between sections.
    public func lines(width: Int) -> [[Span]] {
        guard width > 0 else { return [] }
        let bold = TextStyle(attributes: .bold)
        let widestKeys = sections.flatMap(\.entries).map { $0.keys.terminalColumns }.max() ?? 0
        let keyColumns = min(widestKeys, max(1, width / 3))
        let actionColumns = max(1, width - keyColumns - 4)
        var result: [[Span]] = []
        for section in sections {
            if !result.isEmpty { result.append([]) }
            result.append([Span(TextLayout.truncate(section.title, toColumns: width), style: bold)])
            for entry in section.entries {
                let keys = Span("  " + TextLayout.pad(entry.keys, toColumns: keyColumns) + "  ", style: bold)
                let indent = Span(String(repeating: " ", count: keyColumns + 4))
                for (index, line) in TextLayout.wrap(entry.action, toColumns: actionColumns).enumerated() {
                    result.append([index == 0 ? keys : indent, Span(line)])
                }
            }
        }
        return result
    }

    /// Draws the overlay centered in `bounds`: a bordered box filled with `style`, the title in its top edge and
    /// the entries inside, with a scrollbar when they do not fit. `ascii` draws the border with `+-|`.
    public func draw(into buffer: inout ScreenBuffer, in bounds: Rect, style: TextStyle = .plain, ascii: Bool = false) {
        let box = frame(in: bounds)
        guard box.width >= 2, box.height >= 2 else { return }
        buffer.fill(box, style: style)
        buffer.drawBox(box, style: style, title: title, ascii: ascii)
        let inner = Self.inner(of: box)
        guard !inner.isEmpty else { return }
        let lines = lines(width: inner.width - 1)
        scroll.draw(into: &buffer, in: inner, lineCount: lines.count) { index, _ in lines[index] }
    }

    /// The area inside the border: a column of padding on the left, the scrollbar's column on the right.
    private static func inner(of box: Rect) -> Rect {
        Rect(x: box.x + 2, y: box.y + 1, width: box.width - 3, height: box.height - 2)
    }
}
