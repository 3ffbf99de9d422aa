import Testing
import TetherTerminal

@Suite struct ListViewTests {
    @Test func arrowsMoveTheSelectionAndClampAtTheEnds() {
        var list = ListView()
        #expect(list.handle(.up, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 0)
        #expect(list.handle(.down, itemCount: 5, visibleRows: 3) == true)
        #expect(list.handle(.down, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 2)
        #expect(list.scrollOffset == 0)
        #expect(list.handle(.down, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 3)
        #expect(list.scrollOffset == 1)
        #expect(list.handle(.end, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 4)
        #expect(list.scrollOffset == 2)
        #expect(list.handle(.down, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 4)
        #expect(list.handle(.home, itemCount: 5, visibleRows: 3) == true)
        #expect(list.selectedIndex == 0)
        #expect(list.scrollOffset == 0)
    }

    @Test func otherKeysAreLeftToTheApp() {
        var list = ListView()
        for key: Key in [.enter, .character("j"), .left, .right, .tab, .escape] {
            #expect(list.handle(key, itemCount: 5, visibleRows: 3) == false)
        }
        #expect(list == ListView())
    }

    @Test func pageKeysMoveByAPage() {
        var list = ListView()
        #expect(list.handle(.pageDown, itemCount: 100, visibleRows: 10) == true)
        #expect(list.selectedIndex == 10)
        #expect(list.scrollOffset == 10)
        _ = list.handle(.pageDown, itemCount: 100, visibleRows: 10)
        _ = list.handle(.up, itemCount: 100, visibleRows: 10)
        #expect(list.selectedIndex == 19)
        #expect(list.scrollOffset == 19)
        _ = list.handle(.pageUp, itemCount: 100, visibleRows: 10)
        #expect(list.selectedIndex == 9)
        #expect(list.scrollOffset == 9)
        for _ in 0..<20 { _ = list.handle(.pageDown, itemCount: 100, visibleRows: 10) }
        #expect(list.selectedIndex == 99)
        #expect(list.scrollOffset == 90)
        for _ in 0..<20 { _ = list.handle(.pageUp, itemCount: 100, visibleRows: 10) }
        #expect(list.selectedIndex == 0)
        #expect(list.scrollOffset == 0)
    }

    @Test func clampsWhenTheListShrinksOrEmpties() {
        var list = ListView()
        list.select(80, itemCount: 100, visibleRows: 10)
        #expect(list.selectedIndex == 80)
        #expect(list.scrollOffset == 71)
        list.clamp(itemCount: 30, visibleRows: 10)
        #expect(list.selectedIndex == 29)
        #expect(list.scrollOffset == 20)
        list.clamp(itemCount: 0, visibleRows: 10)
        #expect(list.selectedIndex == 0)
        #expect(list.scrollOffset == 0)
        #expect(list.handle(.down, itemCount: 0, visibleRows: 10) == true)
        #expect(list.handle(.end, itemCount: 0, visibleRows: 10) == true)
        #expect(list.selectedIndex == 0)
        // A taller view shows more of the end: the offset comes back so no empty rows show.
        list.select(99, itemCount: 100, visibleRows: 10)
        list.clamp(itemCount: 100, visibleRows: 40)
        #expect(list.scrollOffset == 60)
        list.select(-5, itemCount: 100, visibleRows: 10)
        #expect(list.selectedIndex == 0)
    }

    @Test func nearEndForLoadMore() {
        var list = ListView()
        #expect(!list.isNearEnd(itemCount: 0, threshold: 5))
        #expect(!list.isNearEnd(itemCount: 30, threshold: 5))
        list.select(23, itemCount: 30, visibleRows: 10)
        #expect(!list.isNearEnd(itemCount: 30, threshold: 5))
        list.select(24, itemCount: 30, visibleRows: 10)
        #expect(list.isNearEnd(itemCount: 30, threshold: 5))
        #expect(list.isNearEnd(itemCount: 1, threshold: 0))
        #expect(list.positionText(itemCount: 30) == "25/30")
        #expect(ListView().positionText(itemCount: 0) == "0/0")
    }

    @Test func drawsRowsWithTheSelectionHighlightedAcrossTheWidth() {
        var buffer = ScreenBuffer(width: 12, height: 4)
        var list = ListView()
        _ = list.handle(.down, itemCount: 3, visibleRows: 4)
        let names = ["apple", "名前", "cherry"]
        list.draw(into: &buffer, in: Rect(x: 1, y: 0, width: 10, height: 4), itemCount: 3) { index, isSelected, width in
            #expect(width == 10)
            return [[Span(names[index], style: TextStyle(attributes: .bold))]]
        }
        #expect(buffer.text == " apple\n 名前\n cherry\n")
        #expect(buffer[1, 0].style == TextStyle(attributes: .bold))
        #expect(buffer[1, 1].style == TextStyle(attributes: [.bold, .reverse]))
        // The highlight runs to the edge of the rect, and no further.
        #expect(buffer[10, 1].style.attributes.contains(.reverse))
        #expect(!buffer[11, 1].style.attributes.contains(.reverse))
        #expect(!buffer[0, 1].style.attributes.contains(.reverse))
        #expect(!buffer[10, 0].style.attributes.contains(.reverse))
    }

    @Test func multiLineRowsAndACustomHighlight() {
        var buffer = ScreenBuffer(width: 20, height: 5)
        var list = ListView()
        let rows = ListView.visibleRows(in: buffer.bounds, rowHeight: 2)
        #expect(rows == 2)
        _ = list.handle(.down, itemCount: 3, visibleRows: rows)
        _ = list.handle(.down, itemCount: 3, visibleRows: rows)
        let highlight = TextStyle(foreground: .black, background: .cyan)
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 3, rowHeight: 2, highlight: highlight) { index, _, _ in
            [[Span("title \(index)")], [Span("body \(index)")], [Span("ignored")]]
        }
        // Item 1 and 2 are visible; the scrollbar takes the last column.
        #expect(buffer.text(ofRow: 0).hasPrefix("title 1 "))
        #expect(buffer.text(ofRow: 1).hasPrefix("body 1 "))
        #expect(buffer.text(ofRow: 2).hasPrefix("title 2 "))
        #expect(buffer.text(ofRow: 3).hasPrefix("body 2 "))
        #expect(!buffer.text.contains("ignored"))
        #expect(buffer[0, 3].style.background == .cyan)
        #expect(buffer[18, 2].style.foreground == .black)
        #expect(buffer[0, 1].style == .plain)
        #expect(Set((0..<5).map { buffer[19, $0].character }).isSubset(of: ["│", "█"]))
    }

    @Test func drawsOnlyTheVisibleRowsOfAHugeList() {
        var buffer = ScreenBuffer(width: 80, height: 60)
        var list = ListView()
        list.select(5_000, itemCount: 10_000, visibleRows: 60)
        var asked: [Int] = []
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 10_000) { index, isSelected, _ in
            asked.append(index)
            return [[Span(isSelected ? "> row \(index)" : "row \(index)")]]
        }
        #expect(asked == Array(4_941...5_000))
        #expect(buffer.text(ofRow: 59).hasPrefix("> row 5000"))
        // The thumb is one line, near the middle of the track.
        let thumbRows = (0..<60).filter { buffer[79, $0].character == "█" }
        #expect(thumbRows.count == 1)
        #expect((25...35).contains(thumbRows[0]))
    }

    @Test func scrollbarAtTheEndsAndOff() {
        var buffer = ScreenBuffer(width: 10, height: 4)
        var list = ListView()
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 8) { _, _, _ in [[Span("x")]] }
        #expect(buffer.text(ofRow: 0) == "x        █")
        #expect(buffer.text(ofRow: 1) == "x        █")
        #expect(buffer.text(ofRow: 3) == "x        │")
        list.select(7, itemCount: 8, visibleRows: 4)
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 8) { _, _, _ in [[Span("x")]] }
        #expect(buffer[9, 3].character == "█")
        #expect(buffer[9, 0].character == "│")
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 8, showsScrollbar: false) { _, _, width in
            [[Span(String(repeating: "y", count: width + 5))]]
        }
        #expect(buffer.text(ofRow: 0) == "yyyyyyyyyy")
    }

    @Test func emptyListsAndTinyRectsDrawNothing() {
        var buffer = ScreenBuffer(width: 4, height: 3)
        buffer.draw("junk", x: 0, y: 0)
        let list = ListView()
        var calls = 0
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 0) { _, _, _ in
            calls += 1
            return []
        }
        #expect(buffer.text == "\n\n")
        for rect in [Rect(x: 0, y: 0, width: 0, height: 0), Rect(x: 0, y: 0, width: 4, height: 1)] {
            list.draw(into: &buffer, in: rect, itemCount: 10, rowHeight: 2) { _, _, _ in
                calls += 1
                return []
            }
        }
        #expect(calls == 0)
        // A 1x1 rect has no room for a scrollbar: the row gets the column.
        list.draw(into: &buffer, in: Rect(x: 3, y: 2, width: 1, height: 1), itemCount: 10) { index, _, width in
            [[Span("\(index)\(width)")]]
        }
        #expect(buffer.text(ofRow: 2) == "   0")
    }

    @Test func drawingUsesTheClampedStateWithoutChangingIt() {
        var buffer = ScreenBuffer(width: 8, height: 2)
        var list = ListView()
        list.select(9, itemCount: 10, visibleRows: 2)
        var asked: [Int] = []
        list.draw(into: &buffer, in: buffer.bounds, itemCount: 3) { index, isSelected, _ in
            asked.append(index)
            return [[Span(isSelected ? "*" : "-")]]
        }
        #expect(asked == [1, 2])
        #expect(buffer.text(ofRow: 1).hasPrefix("*"))
        #expect(list.selectedIndex == 9)
    }

    @Test func drawingReplacesWhateverWasInTheRect() {
        var buffer = ScreenBuffer(width: 8, height: 5)
        for y in 0..<5 { buffer.draw("########", x: 0, y: y, style: TextStyle(attributes: .underline)) }
        let list = ListView()
        list.draw(into: &buffer, in: Rect(x: 1, y: 0, width: 6, height: 4), itemCount: 1, rowHeight: 2) { _, _, _ in
            [[Span("名前")]]
        }
        #expect(buffer.text == "#名前  #\n#      #\n#      #\n#      #\n########")
        #expect(buffer[5, 0].style == TextStyle(attributes: .reverse))
        #expect(buffer[5, 1].style == TextStyle(attributes: .reverse))
        #expect(buffer[1, 2].style == .plain)
        #expect(buffer[0, 0].style == TextStyle(attributes: .underline))
    }
}
