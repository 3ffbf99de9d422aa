import Testing
import TetherTerminal

@Suite struct KeyHelpTests {
    private let help = KeyHelp(sections: [
        .init("Everywhere", [.init("Tab", "next screen"), .init("q", "quit")]),
        .init("Notes", [.init("e", "edit the note in place"), .init("Ctrl+S", "save")]),
    ])

    @Test func laysOutKeysInAColumn() {
        let lines = help.lines(width: 40).map { $0.map(\.text).joined() }
        #expect(
            lines == [
                "Everywhere",
                "  Tab     next screen",
                "  q       quit",
                "",
                "Notes",
                "  e       edit the note in place",
                "  Ctrl+S  save",
            ])
        let bold = TextStyle(attributes: .bold)
        #expect(help.lines(width: 40)[0] == [Span("Everywhere", style: bold)])
        #expect(help.lines(width: 40)[1].first?.style == bold)
        #expect(help.lines(width: 40)[1].last?.style == .plain)
        #expect(help.lines(width: 0).isEmpty)
    }

    @Test func wrapsLongActionsUnderThemselves() {
        // 18 columns: the keys column is capped at 6 (a third), actions get 18 - 6 - 4 = 8.
        let lines = help.lines(width: 18).map { $0.map(\.text).joined() }
        #expect(lines[1] == "  Tab     next")
        #expect(lines[2] == "          screen")
        #expect(lines[6] == "  e       edit the")
        #expect(lines[7] == "          note in")
        #expect(lines[8] == "          place")
        for line in help.lines(width: 18) { #expect(line.reduce(0) { $0 + $1.columns } <= 18) }
    }

    @Test func drawsACenteredBox() {
        var buffer = ScreenBuffer(width: 40, height: 12)
        help.draw(into: &buffer, in: buffer.bounds, ascii: true)
        // The widest line is 32 columns: the box is 36 wide and 9 tall.
        #expect(help.frame(in: buffer.bounds) == Rect(x: 2, y: 1, width: 36, height: 9))
        let rows = buffer.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[1] == "  + Keys " + String(repeating: "-", count: 28) + "+")
        #expect(rows[2] == "  | Everywhere" + String(repeating: " ", count: 23) + "|")
        #expect(rows[7] == "  |   e       edit the note in place |")
        #expect(rows[9] == "  +" + String(repeating: "-", count: 34) + "+")
    }

    @Test func scrollsWhenTooTall() {
        var help = help
        let bounds = Rect(x: 0, y: 0, width: 40, height: 5)
        #expect(help.frame(in: bounds).height == 5)
        #expect(help.handle(.end, in: bounds) == true)
        // 7 lines in 3 rows: the last three show.
        #expect(help.scroll.offset == 4)
        var buffer = ScreenBuffer(width: 40, height: 5)
        help.draw(into: &buffer, in: bounds)
        #expect(buffer.text(ofRow: 3).contains("Ctrl+S  save"))
        #expect(buffer.text(ofRow: 3).contains("█"))
        #expect(help.handle(.escape, in: bounds) == false)
        #expect(help.handle(.character("?"), in: bounds) == false)
    }

    @Test func tinyBounds() {
        var buffer = ScreenBuffer(width: 3, height: 3)
        help.draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text == "┌─┐\n│ │\n└─┘")
        help.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 1, height: 1))
        var empty = KeyHelp(sections: [])
        #expect(empty.lines(width: 10).isEmpty)
        #expect(empty.handle(.down, in: buffer.bounds) == true)
    }
}
