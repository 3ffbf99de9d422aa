import Testing
import TetherTerminal

@Suite struct ScreenBufferTests {
    @Test func drawsAndClipsText() {
        var buffer = ScreenBuffer(width: 6, height: 2)
        #expect(buffer.draw("Hello, world", x: 1, y: 0) == 5)
        #expect(buffer.text(ofRow: 0) == " Hello")
        #expect(buffer.draw("abc", x: 0, y: 1, maxColumns: 2) == 2)
        #expect(buffer.text == " Hello\nab")
        #expect(buffer.draw("zzz", x: 0, y: 2) == 0)
    }

    @Test func wideCharactersTakeTwoCellsAndStayWhole() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        #expect(buffer.draw("名前名", x: 0, y: 0) == 5)
        #expect(buffer[0, 0].character == "名")
        #expect(buffer[1, 0].isContinuation)
        #expect(buffer[2, 0].character == "前")
        // The third character does not fit in the last column: a space stands in.
        #expect(buffer[4, 0].character == " ")
        #expect(!buffer[4, 0].isContinuation)
        #expect(buffer.text(ofRow: 0) == "名前 ")

        // Writing over the right half of 名 clears its left half.
        buffer.draw("x", x: 1, y: 0)
        #expect(buffer[0, 0].character == " ")
        #expect(!buffer[1, 0].isContinuation)
        #expect(buffer.text(ofRow: 0) == " x前 ")
        // Writing over the left half of 前 clears its right half.
        buffer.draw("y", x: 2, y: 0)
        #expect(buffer.text(ofRow: 0) == " xy  ")
        #expect(!buffer[3, 0].isContinuation)
    }

    @Test func spansKeepTheirStylesAndTheLimit() {
        var buffer = ScreenBuffer(width: 20, height: 1)
        let bold = TextStyle(attributes: .bold)
        let drawn = buffer.draw([Span("1,280円", style: bold), Span(" shop")], x: 0, y: 0, maxColumns: 10)
        #expect(drawn == 10)
        #expect(buffer[0, 0].style == bold)
        #expect(buffer[8, 0].style == .plain)
        #expect(buffer.text == "1,280円 sh")
    }

    @Test func controlCharactersDrawAsSpaces() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.draw("a\tb\nc", x: 0, y: 0)
        #expect(buffer.text(ofRow: 0) == "a b c")
    }

    @Test func fillAndClear() {
        var buffer = ScreenBuffer(width: 3, height: 2)
        let reverse = TextStyle(attributes: .reverse)
        buffer.fill(Rect(x: 1, y: 0, width: 10, height: 1), style: reverse)
        #expect(buffer[0, 0].style == .plain)
        #expect(buffer[2, 0].style == reverse)
        buffer.cursor = (1, 1)
        buffer.clear()
        #expect(buffer[2, 0].style == .plain)
        #expect(buffer.cursor == nil)
    }
}
