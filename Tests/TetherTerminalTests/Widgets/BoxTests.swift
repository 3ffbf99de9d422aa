import Testing
import TetherTerminal

@Suite struct BoxTests {
    @Test func drawsABorderWithATitle() {
        var buffer = ScreenBuffer(width: 10, height: 5)
        buffer.draw("inside", x: 2, y: 2)
        buffer.drawBox(Rect(x: 1, y: 0, width: 8, height: 4), title: "Hi")
        #expect(buffer.text == " ┌ Hi ──┐\n │      │\n │inside│\n └──────┘\n")
        #expect(buffer[3, 0].style == TextStyle(attributes: .bold))
        #expect(buffer[1, 1].style == .plain)
    }

    @Test func truncatesALongTitleAndDrawsASCII() {
        var buffer = ScreenBuffer(width: 7, height: 3)
        buffer.drawBox(buffer.bounds, style: TextStyle(attributes: .dim), title: "Long title", ascii: true)
        #expect(buffer.text == "+ Lo… +\n|     |\n+-----+")
        #expect(buffer[0, 1].style == TextStyle(attributes: .dim))
        buffer.drawBox(buffer.bounds, title: "名前です")
        #expect(buffer.text(ofRow: 0) == "┌ 名… ┐")
    }

    @Test func tinyRectsDrawWhatFits() {
        var buffer = ScreenBuffer(width: 4, height: 3)
        buffer.drawBox(Rect(x: 0, y: 0, width: 1, height: 1))
        buffer.drawBox(Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(buffer.text == "\n\n")
        buffer.drawBox(Rect(x: 0, y: 0, width: 2, height: 2), title: "Title")
        #expect(buffer.text == "┌┐\n└┘\n")
        // Clipped by the buffer: the visible edges are drawn.
        buffer.drawBox(Rect(x: 2, y: 1, width: 5, height: 5))
        #expect(buffer.text == "┌┐\n└┘┌─\n  │")
    }
}
