extension ScreenBuffer {
    /// Draws a one-line border around the edge of `rect`, with `title` in its top edge.
    ///
    /// The border takes the outermost cells of `rect` (`┌─┐│└┘`, or `+-|` when `ascii` is set, for terminals
    /// without box-drawing glyphs); the inside is left as it was, so fill it first to hide what is under a dialog.
    /// The title is drawn bold, one column in from the corner, as ` Title `, truncated with an ellipsis to fit.
    /// A rect under 2×2 has no room for a border and draws nothing.
    ///
    /// Complexity: O(width + height).
    public mutating func drawBox(_ rect: Rect, style: TextStyle = .plain, title: String? = nil, ascii: Bool = false) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let glyphs = ascii ? BoxGlyphs.ascii : BoxGlyphs.unicode
        let horizontal = String(repeating: glyphs.horizontal, count: rect.width - 2)
        draw(glyphs.topLeft + horizontal + glyphs.topRight, x: rect.x, y: rect.y, style: style)
        draw(glyphs.bottomLeft + horizontal + glyphs.bottomRight, x: rect.x, y: rect.maxY - 1, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            draw(glyphs.vertical, x: rect.x, y: y, style: style)
            draw(glyphs.vertical, x: rect.maxX - 1, y: y, style: style)
        }
        // The title needs a column of border on each side and its own two spaces.
        if let title, !title.isEmpty, rect.width >= 5 {
            let fitted = TextLayout.truncate(title, toColumns: rect.width - 4)
            draw(" \(fitted) ", x: rect.x + 1, y: rect.y, style: style.adding(.bold))
        }
    }
}

/// The glyphs of a border.
private struct BoxGlyphs {
    var topLeft: String
    var topRight: String
    var bottomLeft: String
    var bottomRight: String
    var horizontal: String
    var vertical: String

    static let unicode = BoxGlyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
    static let ascii = BoxGlyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|")
}
