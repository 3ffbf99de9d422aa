import Testing
import TetherTerminal

@Suite struct TextEditorTests {
    private func type(_ text: String, into editor: inout TextEditor) {
        for character in text { #expect(editor.handle(.character(character)) == true) }
    }

    @Test func textSplitsIntoLinesAndJoinsBack() {
        let editor = TextEditor(text: "one\ntwo\r\n\nfour")
        #expect(editor.lines == ["one", "two", "", "four"])
        #expect(editor.text == "one\ntwo\n\nfour")
        #expect(editor.cursorLine == 3)
        #expect(editor.cursorIndex == 4)
        #expect(TextEditor().lines == [""])
        #expect(TextEditor().isEmpty)
        #expect(TextEditor(text: "a\n").lines == ["a", ""])
    }

    @Test func enterSplitsAndBackspaceJoins() {
        var editor = TextEditor(text: "helloworld")
        editor.moveCursor(line: 0, index: 5)
        #expect(editor.handle(.enter) == true)
        #expect(editor.lines == ["hello", "world"])
        #expect(editor.cursorLine == 1)
        #expect(editor.cursorIndex == 0)
        #expect(editor.handle(.backspace) == true)
        #expect(editor.text == "helloworld")
        #expect(editor.cursorLine == 0)
        #expect(editor.cursorIndex == 5)
        // Backspace at the very start changes nothing.
        editor.moveCursor(line: 0, index: 0)
        #expect(editor.handle(.backspace) == true)
        #expect(editor.text == "helloworld")
    }

    @Test func deleteAtTheEndJoinsTheNextLine() {
        var editor = TextEditor(text: "ab\ncd")
        editor.moveCursor(line: 0, index: 2)
        #expect(editor.handle(.delete) == true)
        #expect(editor.lines == ["abcd"])
        editor.moveCursor(line: 0, index: 4)
        #expect(editor.handle(.delete) == true)
        #expect(editor.lines == ["abcd"])
        editor.moveCursor(line: 0, index: 1)
        #expect(editor.handle(.delete) == true)
        #expect(editor.text == "acd")
    }

    @Test func leftAndRightCrossLineEnds() {
        var editor = TextEditor(text: "ab\ncd")
        editor.moveCursor(line: 1, index: 0)
        #expect(editor.handle(.left) == true)
        #expect(editor.cursorLine == 0)
        #expect(editor.cursorIndex == 2)
        #expect(editor.handle(.right) == true)
        #expect(editor.cursorLine == 1)
        #expect(editor.cursorIndex == 0)
        editor.moveCursor(line: 0, index: 0)
        #expect(editor.handle(.left) == true)
        #expect(editor.cursorLine == 0)
        #expect(editor.cursorIndex == 0)
        #expect(editor.handle(.end) == true)
        #expect(editor.cursorIndex == 2)
        #expect(editor.handle(.control("a")) == true)
        #expect(editor.cursorIndex == 0)
    }

    @Test func upAndDownKeepTheDisplayColumn() {
        // Line 1 is Japanese: column 6 is after three wide characters.
        var editor = TextEditor(text: "abcdefgh\nノートパソコン\nxy\nabcdefgh")
        editor.moveCursor(line: 0, index: 6)
        #expect(editor.handle(.down) == true)
        #expect(editor.cursorLine == 1)
        #expect(editor.cursorIndex == 3)
        // A short line takes the cursor to its end, and the next long line gives the column back.
        #expect(editor.handle(.down) == true)
        #expect(editor.cursorIndex == 2)
        #expect(editor.handle(.down) == true)
        #expect(editor.cursorIndex == 6)
        // Column 5 falls in the middle of a wide character: the cursor stops before it.
        editor.moveCursor(line: 0, index: 5)
        #expect(editor.handle(.down) == true)
        #expect(editor.cursorIndex == 2)
        #expect(editor.handle(.up) == true)
        #expect(editor.cursorIndex == 5)
        // On the first line, Up goes to its start; on the last, Down to its end.
        #expect(editor.handle(.up) == true)
        #expect(editor.cursorIndex == 0)
        editor.moveCursor(line: 3, index: 1)
        #expect(editor.handle(.down) == true)
        #expect(editor.cursorIndex == 8)
    }

    @Test func pageKeysMoveByVisibleRows() {
        var editor = TextEditor(text: (0..<30).map { "line \($0)" }.joined(separator: "\n"))
        editor.moveCursor(line: 0, index: 2)
        #expect(editor.handle(.pageDown, visibleRows: 10) == true)
        #expect(editor.cursorLine == 10)
        #expect(editor.cursorIndex == 2)
        #expect(editor.handle(.pageDown, visibleRows: 25) == true)
        #expect(editor.cursorLine == 29)
        #expect(editor.handle(.pageUp, visibleRows: 10) == true)
        #expect(editor.cursorLine == 19)
    }

    @Test func pasteWithNewlinesAndTabs() {
        var editor = TextEditor(text: "[]")
        editor.moveCursor(line: 0, index: 1)
        #expect(editor.handle(.paste("a\nb\r\n\tc")) == true)
        #expect(editor.lines == ["[a", "b", "    c]"])
        #expect(editor.cursorLine == 2)
        #expect(editor.cursorIndex == 5)
    }

    @Test func killKeysWorkOnTheLine() {
        var editor = TextEditor(text: "one two three\nnext")
        editor.moveCursor(line: 0, index: 7)
        #expect(editor.handle(.control("k")) == true)
        #expect(editor.lines == ["one two", "next"])
        #expect(editor.handle(.control("k")) == true)
        #expect(editor.lines == ["one twonext"])
        #expect(editor.handle(.control("w")) == true)
        #expect(editor.lines == ["one next"])
        #expect(editor.handle(.control("u")) == true)
        #expect(editor.lines == ["next"])
        #expect(editor.cursorIndex == 0)
    }

    @Test func appKeysAreNotUsed() {
        var editor = TextEditor(text: "x")
        for key: Key in [.escape, .tab, .backTab, .function(2), .control("s"), .insert] {
            #expect(editor.handle(key) == false)
        }
        #expect(editor.text == "x")
    }

    @Test func editsJapanese() {
        var editor = TextEditor()
        type("メモ", into: &editor)
        #expect(editor.handle(.enter) == true)
        type("買い物", into: &editor)
        _ = editor.handle(.backspace)
        #expect(editor.text == "メモ\n買い")
        var buffer = ScreenBuffer(width: 10, height: 3)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "メモ\n買い\n")
        #expect(buffer.cursor?.x == 4)
        #expect(buffer.cursor?.y == 1)
    }

    @Test func softWrapsLongLinesAtSpaces() {
        var buffer = ScreenBuffer(width: 10, height: 6)
        var editor = TextEditor(text: "The quick brown fox jumps\n\nノートパソコン")
        editor.moveCursor(line: 0, index: 12)  // In "brown".
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "The quick\nbrown fox\njumps\n\nノートパソ\nコン")
        #expect(buffer.cursor?.x == 2)
        #expect(buffer.cursor?.y == 1)
        // At a wrapped row's first character, the cursor starts that row.
        editor.moveCursor(line: 2, index: 5)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.cursor?.x == 0)
        #expect(buffer.cursor?.y == 5)
        // The cursor after a line that fills the width sits in the last column.
        TextEditor(text: "abcdefghij").draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text(ofRow: 0) == "abcdefghij")
        #expect(buffer.cursor?.x == 9)
        #expect(buffer.cursor?.y == 0)
    }

    @Test func scrollsToKeepTheCursorRowInView() {
        var buffer = ScreenBuffer(width: 8, height: 3)
        var editor = TextEditor(text: (0..<10).map { "row \($0)" }.joined(separator: "\n"))
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "row 7\nrow 8\nrow 9")
        #expect(buffer.cursor?.y == 2)
        editor.moveCursor(line: 1, index: 0)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "row 0\nrow 1\nrow 2")
        #expect(buffer.cursor?.y == 1)
    }

    @Test func placeholderAndTinyRects() {
        var buffer = ScreenBuffer(width: 12, height: 2)
        let editor = TextEditor(placeholder: "Write something here")
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "Write\nsomething")
        #expect(buffer[0, 0].style.attributes.contains(.dim))
        #expect(buffer.cursor?.x == 0)
        buffer.clear()
        TextEditor(text: "名前").draw(into: &buffer, in: Rect(x: 0, y: 0, width: 0, height: 0), isFocused: true)
        #expect(buffer.cursor == nil)
        TextEditor(text: "名前").draw(into: &buffer, in: Rect(x: 0, y: 0, width: 1, height: 1), isFocused: true)
        #expect(buffer.cursor?.x == 0)
        #expect(buffer.cursor?.y == 0)
    }

    @Test func longWordsBreakByColumnsAndSpacesHangAtTheEdge() {
        var buffer = ScreenBuffer(width: 5, height: 4)
        var editor = TextEditor(text: "abcdefghijkl\nhello     world")
        editor.moveCursor(line: 0, index: 0)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "abcde\nfghij\nkl\nhello")
        // The cursor among the hanging spaces stays in the last column of their row.
        editor.moveCursor(line: 1, index: 7)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.cursor?.x == 4)
        #expect(buffer.cursor?.y == 3)
        // The next word is on the row below: the view scrolls one row.
        editor.moveCursor(line: 1, index: 11)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "fghij\nkl\nhello\nworld")
        #expect(buffer.cursor?.x == 1)
        #expect(buffer.cursor?.y == 3)
    }

    @Test func wideCharactersWrapWhole() {
        var buffer = ScreenBuffer(width: 5, height: 4)
        let editor = TextEditor(text: "名前名前名前")
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.text == "名前\n名前\n名前\n")
        #expect(buffer.cursor?.x == 4)
        #expect(buffer.cursor?.y == 2)
        var narrow = ScreenBuffer(width: 1, height: 2)
        TextEditor(text: "名前").draw(into: &narrow, in: narrow.bounds, isFocused: false)
        #expect(narrow.text == "\n")
        #expect(narrow[0, 0].style == .plain)
    }

    @Test func upAndDownMoveByWrappedRowsWhenGivenTheWidth() {
        var editor = TextEditor(text: "abcdefghijkl\nxy")
        editor.moveCursor(line: 0, index: 2)
        let used = editor.handle(.down, width: 5)
        #expect(used)
        #expect(editor.cursorLine == 0 && editor.cursorIndex == 7, "row 'fghij', column 2")
        _ = editor.handle(.down, width: 5)
        #expect(editor.cursorLine == 0 && editor.cursorIndex == 12, "row 'kl' is shorter: its end")
        _ = editor.handle(.down, width: 5)
        #expect(editor.cursorLine == 1 && editor.cursorIndex == 2, "'xy': column 2 is its end")
        _ = editor.handle(.up, width: 5)
        #expect(editor.cursorLine == 0 && editor.cursorIndex == 12)
        _ = editor.handle(.up, width: 5)
        #expect(editor.cursorIndex == 7, "the goal column is kept across shorter rows")
        _ = editor.handle(.pageUp, visibleRows: 5, width: 5)
        #expect(editor.cursorLine == 0 && editor.cursorIndex == 0, "past the first row: the start of its line")
        _ = editor.handle(.pageDown, visibleRows: 2, width: 5)
        #expect(editor.cursorLine == 0 && editor.cursorIndex == 10)
        _ = editor.handle(.pageDown, visibleRows: 5, width: 5)
        #expect(editor.cursorLine == 1 && editor.cursorIndex == 2, "past the last row: the end of its line")
        // Without a width, Up and Down move by lines of the text.
        editor.moveCursor(line: 0, index: 2)
        _ = editor.handle(.down)
        #expect(editor.cursorLine == 1 && editor.cursorIndex == 2)
    }

    @Test func wrappedRowsOfWideCharactersKeepTheCursorInsideTheRow() {
        var editor = TextEditor(text: "名前名前名前")
        _ = editor.handle(.up, width: 5)
        // From the end (column 4 of the last row) to the row above, which breaks after its second character: the
        // cursor stops before the break, between the two (the break's index is the next row's start).
        #expect(editor.cursorIndex == 3)
        var buffer = ScreenBuffer(width: 5, height: 3)
        editor.draw(into: &buffer, in: buffer.bounds, isFocused: true)
        #expect(buffer.cursor?.x == 2)
        #expect(buffer.cursor?.y == 1)
        _ = editor.handle(.up, width: 5)
        #expect(editor.cursorIndex == 1)
        _ = editor.handle(.down, width: 5)
        _ = editor.handle(.down, width: 5)
        #expect(editor.cursorIndex == 6)
    }
}
