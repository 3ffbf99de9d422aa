import TetherTerminal

/// The wide layout the screens share: at ``minimumWidth`` columns or more, an open detail (an item, a note, a post)
/// stands beside its list instead of replacing it.
enum SplitLayout {
    /// The narrowest screen that shows a list and a detail side by side.
    static let minimumWidth = 140

    /// The list's and the detail's rectangles in `rect`, with a one-column rule between them; `nil` below
    /// ``minimumWidth`` (the detail then takes the whole of `rect`). The list gets two fifths, at least 56 columns.
    static func divide(_ rect: Rect) -> (list: Rect, detail: Rect)? {
        guard rect.width >= minimumWidth else { return nil }
        let listWidth = max(56, rect.width * 2 / 5)
        let list = Rect(x: rect.x, y: rect.y, width: listWidth, height: rect.height)
        let detail = Rect(x: rect.x + listWidth + 1, y: rect.y, width: rect.width - listWidth - 1, height: rect.height)
        return (list, detail)
    }

    /// Draws the rule between the two halves of `rect` (see ``divide(_:)``).
    static func drawRule(into buffer: inout ScreenBuffer, in rect: Rect, between halves: (list: Rect, detail: Rect)) {
        for row in rect.y..<rect.maxY {
            _ = buffer.draw("│", x: halves.list.maxX, y: row, style: Theme.secondary)
        }
    }
}
