/// A one-row bar across the screen: spans on the left, spans aligned right.
///
/// The bar is filled with its ``style`` (reverse video by default, so it reads without colours), with a column
/// of margin at each end. The spans keep their own attributes on top of the bar's (a bold span stays bold in the
/// reversed bar), and their colours where they set one. When the row is narrow, the right part wins: it is drawn
/// whole if it fits, and the left part is truncated with an ellipsis into what remains, one column apart.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// StatusBar(left: [Span("Items", style: .init(attributes: .bold)), Span("  127.0.0.1:8080")],
///           right: [Span("⠋ 1 request  12/100")])
///     .draw(into: &buffer, in: buffer.bounds.split(bottom: 1).bottom)
/// ```
///
/// A value type with no I/O. Complexity: O(n) in the length of the spans.
public struct StatusBar: Sendable, Hashable {
    public var left: [Span]
    public var right: [Span]
    /// The style of the whole bar.
    public var style: TextStyle

    public init(left: [Span] = [], right: [Span] = [], style: TextStyle = TextStyle(attributes: .reverse)) {
        self.left = left
        self.right = right
        self.style = style
    }

    /// Draws the bar on the first row of `rect`.
    public func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        buffer.fill(row, style: style)
        let margin = row.width > 2 ? 1 : 0
        let width = row.width - 2 * margin
        let right = TextLayout.truncate(right.map(merged), toColumns: width)
        let rightColumns = right.reduce(0) { $0 + TextLayout.drawnColumns(of: $1.text) }
        buffer.draw(right, x: row.maxX - margin - rightColumns, y: row.y, maxColumns: rightColumns)
        let leftWidth = rightColumns > 0 ? width - rightColumns - 1 : width
        let left = TextLayout.truncate(left.map(merged), toColumns: leftWidth)
        buffer.draw(left, x: row.x + margin, y: row.y, maxColumns: max(0, leftWidth))
    }

    /// A span in the bar's style: the bar's attributes added, the bar's colours where the span has none.
    private func merged(_ span: Span) -> Span {
        var spanStyle = span.style.adding(style.attributes)
        if spanStyle.foreground == .default { spanStyle.foreground = style.foreground }
        if spanStyle.background == .default { spanStyle.background = style.background }
        return Span(span.text, style: spanStyle)
    }
}
