/// The one-column scrollbar of ``ListView`` and ``ScrollView``: a dim `│` track with a `█` thumb whose size and
/// position show the visible share of the content.
enum Scrollbar {
    /// Draws the scrollbar in column `x` from row `y`, `height` rows tall, for `visible` of `total` units shown
    /// from `offset`. Draws nothing when everything is visible.
    ///
    /// Complexity: O(height).
    static func draw(
        into buffer: inout ScreenBuffer, x: Int, y: Int, height: Int, total: Int, visible: Int, offset: Int
    ) {
        guard height > 0, total > visible, visible > 0 else { return }
        let thumb = min(height, max(1, height * visible / total))
        let maxOffset = total - visible
        let thumbTop = (height - thumb) * min(max(0, offset), maxOffset) / maxOffset
        let track = TextStyle(attributes: .dim)
        for line in 0..<height {
            let isThumb = line >= thumbTop && line < thumbTop + thumb
            buffer.draw(isThumb ? "█" : "│", x: x, y: y + line, style: isThumb ? .plain : track)
        }
    }
}
