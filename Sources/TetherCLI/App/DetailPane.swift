import TetherTerminal

/// The scrolling detail the screens share (an item, a note, a post with its comments): laid-out lines in a
/// ``ScrollView`` above a one-line footer of keys.
///
/// A screen keeps the `ScrollView` (observed: scrolling redraws) and the ``Size`` of the last draw (not observed:
/// drawing must not change what it observes), and calls ``handle(_:_:size:)`` for keys and ``draw(_:scroll:footer:into:in:)``.
enum DetailPane {
    /// What the last draw laid out: the lines and the rows they had, which the scrolling keys go by.
    struct Size: Sendable {
        var lines = 0
        var rows = 10
    }

    /// The columns to lay lines out for in `rect`: less a margin of two on the left and the scrollbar's on the right.
    static func textWidth(in rect: Rect) -> Int { max(1, rect.width - 4) }

    /// Draws `lines` scrolled by `scroll` in `rect` above `footer` on its last row, and returns their size.
    static func draw(
        _ lines: [Span], scroll: ScrollView, footer: String, into buffer: inout ScreenBuffer, in rect: Rect
    ) -> Size {
        let content = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 2, height: rect.height - 1)
        scroll.draw(into: &buffer, in: content, lines: lines.map { [$0] })
        buffer.draw(footer, x: content.x, y: rect.maxY - 1, style: Theme.secondary, maxColumns: content.width)
        return Size(lines: lines.count, rows: content.height)
    }

    /// Scrolls for the arrows, `j`/`k`, Page Up/Down, Space, Home and End; whether `key` was one of them.
    static func handle(_ key: Key, _ scroll: inout ScrollView, size: Size) -> Bool {
        let key: Key =
            switch key {
            case .character("j"): .down
            case .character("k"): .up
            default: key
            }
        return scroll.handle(key, lineCount: size.lines, visibleRows: size.rows)
    }
}
