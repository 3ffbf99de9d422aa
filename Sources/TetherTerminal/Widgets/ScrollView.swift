/// A read-only view of lines taller than the screen: an item's detail with its caption wrapped, a post with its
/// comments, the help page.
///
/// The view holds only the scroll position; the app lays its content out into lines of spans for the width
/// (``TextLayout/wrap(_:toColumns:)`` per paragraph) and passes the line count to every call.
///
/// ```swift
/// import TetherTerminal
///
/// let caption = "A long caption that wraps over several rows of the detail screen."
/// var buffer = ScreenBuffer(width: 40, height: 10)
/// let rect = buffer.bounds
///
/// var detail = ScrollView()
/// let lines = TextLayout.wrap(caption, toColumns: rect.width - 1).map { [Span($0)] }
/// _ = detail.handle(.pageDown, lineCount: lines.count, visibleRows: rect.height)
/// detail.draw(into: &buffer, in: rect, lines: lines)
/// ```
///
/// A value type with no I/O. Complexity: key handling is O(1); drawing is O(visible rows).
public struct ScrollView: Sendable, Hashable {
    /// The first line shown at the top.
    public private(set) var offset: Int

    /// A view scrolled to the top.
    public init() {
        offset = 0
    }

    /// Scrolls for Up and Down (a line), Page Up, Page Down and Space (a page, less a line of context), Home and
    /// End, and returns whether the key was one of them; the rest is left to the app (`false`).
    public mutating func handle(_ key: Key, lineCount: Int, visibleRows: Int) -> Bool {
        let page = max(1, visibleRows - 1)
        switch key {
        case .up: offset -= 1
        case .down: offset += 1
        case .pageUp: offset -= page
        case .pageDown, .character(" "): offset += page
        case .home: offset = 0
        case .end: offset = lineCount
        default: return false
        }
        clamp(lineCount: lineCount, visibleRows: visibleRows)
        return true
    }

    /// Scrolls so that `line` is the top line, as far as the content allows.
    public mutating func scroll(toLine line: Int, lineCount: Int, visibleRows: Int) {
        offset = line
        clamp(lineCount: lineCount, visibleRows: visibleRows)
    }

    /// Keeps the offset in range after the content or the view size changed: never past the last screenful.
    public mutating func clamp(lineCount: Int, visibleRows: Int) {
        offset = min(max(0, offset), max(0, lineCount - max(1, visibleRows)))
    }

    /// Whether the last line is in view.
    public func isAtEnd(lineCount: Int, visibleRows: Int) -> Bool {
        offset + max(1, visibleRows) >= lineCount
    }

    /// Draws the visible part of `lines` into `rect`; see ``draw(into:in:lineCount:showsScrollbar:line:)``.
    public func draw(into buffer: inout ScreenBuffer, in rect: Rect, lines: [[Span]], showsScrollbar: Bool = true) {
        draw(into: &buffer, in: rect, lineCount: lines.count, showsScrollbar: showsScrollbar) { index, _ in
            lines[index]
        }
    }

    /// Draws the visible lines into `rect`, asking `line(index, width)` for each one in order, and only for those.
    ///
    /// The rect is cleared first. Lines wider than the rect are cut at its edge. When the lines do not all fit and
    /// `showsScrollbar` is on, the rightmost column is a scrollbar like ``ListView``'s and the lines get one column
    /// less (lay them out for `rect.width - 1`). The offset is clamped for drawing without changing this state.
    public func draw(
        into buffer: inout ScreenBuffer, in rect: Rect, lineCount: Int, showsScrollbar: Bool = true,
        line: (_ index: Int, _ width: Int) -> [Span]
    ) {
        buffer.fill(rect)
        guard !rect.isEmpty, lineCount > 0 else { return }
        var state = self
        state.clamp(lineCount: lineCount, visibleRows: rect.height)
        let hasScrollbar = showsScrollbar && lineCount > rect.height && rect.width > 1
        let width = hasScrollbar ? rect.width - 1 : rect.width
        for index in state.offset..<min(lineCount, state.offset + rect.height) {
            buffer.draw(line(index, width), x: rect.x, y: rect.y + index - state.offset, maxColumns: width)
        }
        if hasScrollbar {
            Scrollbar.draw(
                into: &buffer, x: rect.maxX - 1, y: rect.y, height: rect.height, total: lineCount,
                visible: rect.height, offset: state.offset)
        }
    }
}
