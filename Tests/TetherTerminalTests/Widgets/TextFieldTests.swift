import Testing
import TetherTerminal

@Suite struct TextFieldTests {
    private func type(_ text: String, into field: inout TextField) {
        for character in text { #expect(field.handle(.character(character)) == true) }
    }

    @Test func typesAndMovesTheCursor() {
        var field = TextField()
        type("helo", into: &field)
        #expect(field.text == "helo")
        #expect(field.cursor == 4)
        #expect(field.handle(.left) == true)
        type("l", into: &field)
        #expect(field.text == "hello")
        #expect(field.cursor == 4)
        #expect(field.handle(.home) == true)
        #expect(field.cursor == 0)
        #expect(field.handle(.left) == true)
        #expect(field.cursor == 0)
        #expect(field.handle(.end) == true)
        #expect(field.handle(.right) == true)
        #expect(field.cursor == 5)
        #expect(field.handle(.control("a")) == true)
        #expect(field.cursor == 0)
        #expect(field.handle(.control("e")) == true)
        #expect(field.cursor == 5)
    }

    @Test func backspaceAndDelete() {
        var field = TextField(text: "abc")
        #expect(field.handle(.backspace) == true)
        #expect(field.text == "ab")
        #expect(field.handle(.delete) == true)  // At the end: nothing to delete, still an editing key.
        #expect(field.text == "ab")
        field.cursor = 0
        #expect(field.handle(.backspace) == true)
        #expect(field.text == "ab")
        #expect(field.handle(.delete) == true)
        #expect(field.text == "b")
        #expect(field.cursor == 0)
    }

    @Test func killKeys() {
        var field = TextField(text: "hello big world")
        field.cursor = 9
        #expect(field.handle(.control("k")) == true)
        #expect(field.text == "hello big")
        #expect(field.handle(.control("w")) == true)
        #expect(field.text == "hello ")
        field.text = "one two   "
        #expect(field.handle(.control("w")) == true)
        #expect(field.text == "one ")
        #expect(field.handle(.control("w")) == true)
        #expect(field.text == "")
        #expect(field.handle(.control("w")) == true)
        field.text = "abc def"
        field.cursor = 4
        #expect(field.handle(.control("u")) == true)
        #expect(field.text == "def")
        #expect(field.cursor == 0)
    }

    @Test func appKeysAreNotUsed() {
        var field = TextField(text: "x")
        for key: Key in [.enter, .escape, .tab, .backTab, .up, .down, .pageUp, .function(1), .control("c")] {
            #expect(field.handle(key) == false)
        }
        #expect(field.text == "x")
    }

    @Test func pasteReplacesNewlinesAndDropsControls() {
        var field = TextField(text: "ab")
        field.cursor = 1
        #expect(field.handle(.paste("one\ntwo\r\nthree\tfour\u{7}")) == true)
        #expect(field.text == "aone two three fourb")
        #expect(field.cursor == 19)
        field.text = "x\ny"
        #expect(field.text == "x y")
        #expect(field.cursor == 3)
    }

    @Test func editsJapaneseByCharacterAndPlacesTheCursorByColumns() {
        var field = TextField()
        type("ノートパソコン", into: &field)
        #expect(field.cursor == 7)
        #expect(field.cursorColumn == 14)
        _ = field.handle(.left)
        _ = field.handle(.left)
        _ = field.handle(.backspace)
        #expect(field.text == "ノートパコン")
        #expect(field.cursorColumn == 8)
        _ = field.handle(.paste("👍🏽"))
        #expect(field.text == "ノートパ👍🏽コン")
        #expect(field.cursor == 5)
        var buffer = ScreenBuffer(width: 20, height: 1)
        field.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "ノートパ👍🏽コン")
        #expect(buffer.cursor?.x == 10)
        #expect(buffer.cursor?.y == 0)
    }

    @Test func drawsThePlaceholderDimWhenEmpty() {
        var buffer = ScreenBuffer(width: 20, height: 2)
        let style = TextStyle(background: .blue)
        let field = TextField(placeholder: "Search items")
        field.draw(into: &buffer, in: Rect(x: 2, y: 1, width: 10, height: 1), style: style, isFocused: true)
        #expect(buffer.text(ofRow: 1) == "  Search ite        ")
        #expect(buffer[2, 1].style == TextStyle(background: .blue, attributes: .dim))
        #expect(buffer[11, 1].style.background == .blue)
        #expect(buffer[12, 1].style == .plain)
        #expect(buffer.cursor?.x == 2)
        #expect(buffer.cursor?.y == 1)
    }

    @Test func unfocusedFieldLeavesTheCursorAlone() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        TextField(text: "abc").draw(into: &buffer, in: buffer.bounds, isFocused: false)
        #expect(buffer.cursor == nil)
        #expect(buffer.text == "abc")
    }

    @Test func scrollsSidewaysToKeepTheCursorInView() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        var field = TextField(text: "abcdefgh")
        field.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        // The cursor after the last character sits in the last column.
        #expect(buffer.text(ofRow: 0) == "efgh ")
        #expect(buffer.cursor?.x == 4)
        field.cursor = 2
        buffer.clear()
        field.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text(ofRow: 0) == "abcde")
        #expect(buffer.cursor?.x == 2)
    }

    @Test func wideCharacterCutByTheLeftEdgeShowsAsASpace() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        let field = TextField(text: "aノート")
        // Cursor column 7: offset 4 starts in the middle of ト's left neighbour ー (columns 3-4).
        field.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text(ofRow: 0) == " ト ")
        #expect(buffer.cursor?.x == 3)
    }

    @Test func tinyRectsAreSafe() {
        var buffer = ScreenBuffer(width: 3, height: 1)
        let field = TextField(text: "名前")
        field.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 0, height: 0), isFocused: true)
        #expect(buffer.cursor == nil)
        field.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 1, height: 1), isFocused: true)
        #expect(buffer.cursor?.x == 0)
        #expect(buffer.text == "")
    }

    @Test func graphemeClustersAreOneStep() {
        var field = TextField(text: "a👨‍👩‍👧e\u{301}")
        #expect(field.cursor == 3)
        #expect(field.cursorColumn == 4)
        _ = field.handle(.backspace)
        #expect(field.text == "a👨‍👩‍👧")
        _ = field.handle(.backspace)
        #expect(field.text == "a")
        #expect(field.cursorColumn == 1)
    }
}
