/// A scrolling list with one selected row: the state of a list screen and how it draws.
///
/// The list holds only the selection and the scroll position; the app owns the items and passes their count to
/// every call, and draws each visible row with spans. Rows may take several lines (`rowHeight`): a post row is
/// a title line and a body line.
///
/// ```swift
/// import TetherTerminal
///
/// struct Post { var title: String; var body: String }
/// let posts = [Post(title: "Hello", body: "The first post"), Post(title: "Again", body: "The second")]
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let rect = buffer.bounds.split(bottom: 1).rest
///
/// var list = ListView()
/// let rows = ListView.visibleRows(in: rect, rowHeight: 2)
/// _ = list.handle(.down, itemCount: posts.count, visibleRows: rows)
/// list.draw(into: &buffer, in: rect, itemCount: posts.count, rowHeight: 2) { index, isSelected, width in
///     [[Span(posts[index].title, style: .init(attributes: .bold))], [Span(posts[index].body)]]
/// }
/// if list.isNearEnd(itemCount: posts.count, threshold: 5) { print("load more") }
/// ```
///
/// `visibleRows` is always counted in items, not lines: the rect's height divided by the row height
/// (``visibleRows(in:rowHeight:)``). When the list is empty, ``selectedIndex`` is 0 and selects nothing.
///
/// A value type with no I/O. Complexity: key handling is O(1); drawing is O(visible rows), whatever the count.
public struct ListView: Sendable, Hashable {
    /// The selected item, in `0..<itemCount` (0 when the list is empty).
    public private(set) var selectedIndex: Int
    /// The first item shown at the top of the list.
    public private(set) var scrollOffset: Int

    /// A list with the first item selected and shown at the top.
    public init() {
        selectedIndex = 0
        scrollOffset = 0
    }

    /// How many rows of `rowHeight` lines fit in `rect` (at least 1 line per row).
    public static func visibleRows(in rect: Rect, rowHeight: Int = 1) -> Int {
        rect.height / max(1, rowHeight)
    }

    /// Moves the selection for Up, Down, Page Up, Page Down, Home and End, keeping it in view, and returns whether
    /// the key was one of them.
    ///
    /// A list key is used even when the selection cannot move (Up on the first row), so a list key never falls
    /// through to the app; compare ``selectedIndex`` before and after to tell. Letters, Enter and the rest are left
    /// to the app (`false`). Page keys move by `visibleRows` and scroll by as much.
    public mutating func handle(_ key: Key, itemCount: Int, visibleRows: Int) -> Bool {
        let page = max(1, visibleRows)
        switch key {
        case .up: selectedIndex -= 1
        case .down: selectedIndex += 1
        case .pageUp:
            selectedIndex -= page
            scrollOffset -= page
        case .pageDown:
            selectedIndex += page
            scrollOffset += page
        case .home: selectedIndex = 0
        case .end: selectedIndex = itemCount - 1
        default: return false
        }
        clamp(itemCount: itemCount, visibleRows: visibleRows)
        return true
    }

    /// Selects `index` (clamped to the items) and scrolls it into view.
    public mutating func select(_ index: Int, itemCount: Int, visibleRows: Int) {
        selectedIndex = index
        clamp(itemCount: itemCount, visibleRows: visibleRows)
    }

    /// Brings the selection and the scroll position back into range after the items or the view size changed:
    /// the selection stays on its index, or the last item when the list shrank below it, and stays in view; the
    /// view does not scroll past the last page.
    public mutating func clamp(itemCount: Int, visibleRows: Int) {
        let count = max(0, itemCount)
        let rows = max(1, visibleRows)
        selectedIndex = min(max(0, selectedIndex), max(0, count - 1))
        if selectedIndex < scrollOffset { scrollOffset = selectedIndex }
        if selectedIndex >= scrollOffset + rows { scrollOffset = selectedIndex - rows + 1 }
        scrollOffset = min(max(0, scrollOffset), max(0, count - rows))
    }

    /// Whether the selection is within `threshold` items of the end: time to load the next page. `false` for an
    /// empty list (load the first page on its own).
    public func isNearEnd(itemCount: Int, threshold: Int) -> Bool {
        itemCount > 0 && selectedIndex >= itemCount - 1 - max(0, threshold)
    }

    /// The selection's position for a status bar, `"12/100"` (1-based), or `"0/0"` for an empty list.
    public func positionText(itemCount: Int) -> String {
        itemCount > 0 ? "\(min(selectedIndex, itemCount - 1) + 1)/\(itemCount)" : "0/0"
    }

    /// Draws the visible rows into `rect`, asking `row` for the lines of each one.
    ///
    /// - `row(index, isSelected, width)` returns up to `rowHeight` lines of spans for item `index`, to fit in
    ///   `width` columns; longer lines are cut at the edge (truncate them with ``TextLayout`` for an ellipsis),
    ///   extra lines are ignored and missing ones left blank. It is called only for the visible rows, in order.
    /// - The selected row is highlighted across the whole width, every line of it: `highlight`'s attributes are
    ///   added to each span's and its colours, when not `.default`, replace the span's.
    /// - When the items do not all fit and `showsScrollbar` is on, the rightmost column is a scrollbar (a `│`
    ///   track with a `█` thumb sized and placed by the visible share) and the rows get one column less.
    ///
    /// The rect is cleared first. Drawing uses this state clamped to `itemCount` without changing it; call
    /// ``clamp(itemCount:visibleRows:)`` when the items change so that keys start from what is shown.
    public func draw(
        into buffer: inout ScreenBuffer, in rect: Rect, itemCount: Int, rowHeight: Int = 1,
        highlight: TextStyle = TextStyle(attributes: .reverse), showsScrollbar: Bool = true,
        row: (_ index: Int, _ isSelected: Bool, _ width: Int) -> [[Span]]
    ) {
        let rowHeight = max(1, rowHeight)
        let rows = Self.visibleRows(in: rect, rowHeight: rowHeight)
        guard rows > 0, rect.width > 0, itemCount > 0 else {
            buffer.fill(rect)
            return
        }
        var state = self
        state.clamp(itemCount: itemCount, visibleRows: rows)
        let hasScrollbar = showsScrollbar && itemCount > rows && rect.width > 1
        let width = hasScrollbar ? rect.width - 1 : rect.width
        let last = min(itemCount, state.scrollOffset + rows)
        for index in state.scrollOffset..<last {
            let isSelected = index == state.selectedIndex
            let top = rect.y + (index - state.scrollOffset) * rowHeight
            let lines = row(index, isSelected, width)
            let background = isSelected ? highlight : .plain
            for offset in 0..<rowHeight {
                // Each cell is written once: the spans, then the rest of the line in the row's background.
                var drawn = 0
                if offset < lines.count {
                    let spans = isSelected ? lines[offset].map { Self.highlighted($0, with: highlight) } : lines[offset]
                    drawn = buffer.draw(spans, x: rect.x, y: top + offset, maxColumns: width)
                }
                buffer.fill(
                    Rect(x: rect.x + drawn, y: top + offset, width: width - drawn, height: 1), style: background)
            }
        }
        // Below the last row: the leftover lines, and the empty rows of a short list.
        let usedHeight = (last - state.scrollOffset) * rowHeight
        buffer.fill(Rect(x: rect.x, y: rect.y + usedHeight, width: width, height: rect.height - usedHeight))
        if hasScrollbar {
            Scrollbar.draw(
                into: &buffer, x: rect.maxX - 1, y: rect.y, height: rect.height, total: itemCount, visible: rows,
                offset: state.scrollOffset)
        }
    }

    /// `span` as drawn on the selected row.
    private static func highlighted(_ span: Span, with highlight: TextStyle) -> Span {
        var style = span.style.adding(highlight.attributes)
        if highlight.foreground != .default { style.foreground = highlight.foreground }
        if highlight.background != .default { style.background = highlight.background }
        return Span(span.text, style: style)
    }
}
