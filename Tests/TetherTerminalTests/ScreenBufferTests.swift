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

@Suite struct ScreenBufferFastPathTests {
    @Test func combiningMarksJoinTheCharacterBeforeThem() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        #expect(buffer.draw("e\u{301}か\u{3099}x", x: 0, y: 0) == 4)
        #expect(buffer[0, 0].character == "e\u{301}")
        #expect(buffer[1, 0].character == "か\u{3099}")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[3, 0].character == "x")
        #expect(buffer.text == "e\u{301}か\u{3099}x")
    }

    @Test func emojiSequencesTakeTwoCells() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        #expect(buffer.draw("a👨\u{200D}👩\u{200D}👧❤\u{FE0F}🇯🇵b", x: 0, y: 0) == 8)
        #expect(buffer[1, 0].character == "👨\u{200D}👩\u{200D}👧")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[3, 0].character == "❤\u{FE0F}")
        #expect(buffer[5, 0].character == "🇯🇵")
        #expect(buffer[7, 0].character == "b")
    }

    @Test func zeroWidthCharactersAreSkippedAndControlsAreSpaces() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        #expect(buffer.draw("a\u{200B}b\r\nc\u{7F}d\u{85}", x: 0, y: 0) == 7)
        #expect(buffer.text(ofRow: 0) == "ab c d  ")
        // A lone combining mark at the start takes no cell.
        #expect(buffer.draw("\u{301}z", x: 0, y: 0) == 1)
        #expect(buffer[0, 0].character == "z")
    }

    @Test func wideTextClipsAtTheLimitAndOffTheLeftEdge() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        #expect(buffer.draw("ＡＢ𠮷", x: 0, y: 0, maxColumns: 5) == 5)
        #expect(buffer.text(ofRow: 0) == "ＡＢ  ")
        #expect(!buffer[4, 0].isContinuation)
        buffer.clear()
        // The left half of Ａ is at column -1: its right half shows as a space.
        #expect(buffer.draw("ＡＢ", x: -1, y: 0) == 4)
        #expect(buffer.text(ofRow: 0) == " Ｂ   ")
        #expect(buffer[1, 0].character == "Ｂ")
        #expect(buffer[2, 0].isContinuation)
    }

    @Test func overwritingWideCharactersWithWideOnesKeepsThemWhole() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.draw("名前名", x: 0, y: 0)
        // Shifted by one column: every old wide character loses both halves.
        buffer.draw("ＡＢ", x: 1, y: 0)
        #expect(buffer.text(ofRow: 0) == " ＡＢ ")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[4, 0].isContinuation)
        #expect(!buffer[5, 0].isContinuation)
        buffer.fill(Rect(x: 2, y: 0, width: 1, height: 1))
        #expect(buffer.text(ofRow: 0) == "   Ｂ ")
        #expect(!buffer[2, 0].isContinuation)
    }

    @Test func nonASCIIAfterASCIIAndBackStaysInStep() {
        var buffer = ScreenBuffer(width: 50, height: 1)
        let text = "Post 1: ノートパソコン 1,280円 Ελλάδα ─ é"
        #expect(buffer.draw(text, x: 0, y: 0) == text.terminalColumns)
        #expect(buffer.text(ofRow: 0).hasPrefix(text))
    }
}
