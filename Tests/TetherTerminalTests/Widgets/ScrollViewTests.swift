import Testing
import TetherTerminal

@Suite struct ScrollViewTests {
    private let lines = (0..<20).map { [Span("line \($0)")] }

    @Test func keysScrollWithinTheContent() {
        var view = ScrollView()
        #expect(view.handle(.up, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 0)
        #expect(view.handle(.down, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 1)
        // A page keeps one line of context.
        #expect(view.handle(.pageDown, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 5)
        #expect(view.handle(.character(" "), lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 9)
        #expect(view.handle(.pageUp, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 5)
        #expect(view.handle(.end, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 15)
        #expect(view.isAtEnd(lineCount: 20, visibleRows: 5))
        #expect(view.handle(.down, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 15)
        #expect(view.handle(.home, lineCount: 20, visibleRows: 5) == true)
        #expect(view.offset == 0)
        #expect(!view.isAtEnd(lineCount: 20, visibleRows: 5))
        #expect(view.handle(.enter, lineCount: 20, visibleRows: 5) == false)
        #expect(view.handle(.character("q"), lineCount: 20, visibleRows: 5) == false)
    }

    @Test func shortContentDoesNotScroll() {
        var view = ScrollView()
        #expect(view.handle(.pageDown, lineCount: 3, visibleRows: 5) == true)
        #expect(view.offset == 0)
        #expect(view.isAtEnd(lineCount: 3, visibleRows: 5))
        view.scroll(toLine: 12, lineCount: 20, visibleRows: 5)
        #expect(view.offset == 12)
        view.clamp(lineCount: 10, visibleRows: 5)
        #expect(view.offset == 5)
        view.clamp(lineCount: 0, visibleRows: 5)
        #expect(view.offset == 0)
    }

    @Test func drawsTheVisibleLinesWithAScrollbar() {
        var buffer = ScreenBuffer(width: 10, height: 4)
        var view = ScrollView()
        view.scroll(toLine: 16, lineCount: 20, visibleRows: 4)
        view.draw(into: &buffer, in: buffer.bounds, lines: lines)
        #expect(buffer.text == "line 16  │\nline 17  │\nline 18  │\nline 19  █")
        var asked: [Int] = []
        view.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 10, height: 2), lineCount: 1_000) { index, width in
            asked.append(index)
            #expect(width == 9)
            return [Span(String(repeating: "x", count: 20))]
        }
        #expect(asked == [16, 17])
        #expect(buffer.text(ofRow: 0) == "xxxxxxxxx█")
    }

    @Test func noScrollbarWhenEverythingFitsAndTinyRects() {
        var buffer = ScreenBuffer(width: 8, height: 3)
        ScrollView().draw(into: &buffer, in: buffer.bounds, lines: Array(lines.prefix(2)))
        #expect(buffer.text == "line 0\nline 1\n")
        ScrollView().draw(into: &buffer, in: buffer.bounds, lines: [])
        #expect(buffer.text == "\n\n")
        ScrollView().draw(into: &buffer, in: Rect(x: 0, y: 0, width: 1, height: 1), lines: lines)
        #expect(buffer.text == "l\n\n")
        ScrollView().draw(into: &buffer, in: Rect(x: 0, y: 0, width: 0, height: 0), lines: lines)
        #expect(buffer.text == "l\n\n")
    }
}
