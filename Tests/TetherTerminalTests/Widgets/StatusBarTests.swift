import Testing
import TetherTerminal

@Suite struct StatusBarTests {
    @Test func leftAndRightPartsInReverse() {
        var buffer = ScreenBuffer(width: 20, height: 2)
        let bar = StatusBar(left: [Span("Items", style: TextStyle(attributes: .bold))], right: [Span("12/100")])
        bar.draw(into: &buffer, in: buffer.bounds.split(bottom: 1).bottom)
        #expect(buffer.text(ofRow: 1) == " Items       12/100 ")
        #expect(buffer.text(ofRow: 0) == String(repeating: " ", count: 20))
        for x in 0..<20 { #expect(buffer[x, 1].style.attributes.contains(.reverse)) }
        #expect(buffer[1, 1].style == TextStyle(attributes: [.bold, .reverse]))
        #expect(buffer[13, 1].style == TextStyle(attributes: .reverse))
        #expect(buffer[0, 0].style == .plain)
    }

    @Test func theRightPartWinsWhenNarrow() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        let bar = StatusBar(left: [Span("Notes list here")], right: [Span("12/100")])
        bar.draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0) == " No… 12/100 ")
        var narrow = ScreenBuffer(width: 5, height: 1)
        bar.draw(into: &narrow, in: narrow.bounds)
        #expect(narrow.text(ofRow: 0) == " 12… ")
        var tiny = ScreenBuffer(width: 2, height: 1)
        bar.draw(into: &tiny, in: tiny.bounds)
        #expect(tiny.text(ofRow: 0) == "1…")
        bar.draw(into: &tiny, in: Rect(x: 0, y: 0, width: 0, height: 1))
        #expect(tiny.text(ofRow: 0) == "1…")
    }

    @Test func wideTextAndNoRightPart() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        StatusBar(left: [Span("ノートパソコン")]).draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0) == " ノート…  ")
        StatusBar(right: [Span("名前")]).draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0) == "     名前 ")
    }

    @Test func spanColoursShowOnTheBarsColours() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        let bar = StatusBar(
            left: [Span("ok", style: TextStyle(foreground: .red))],
            style: TextStyle(foreground: .black, background: .cyan))
        bar.draw(into: &buffer, in: buffer.bounds)
        #expect(buffer[1, 0].style == TextStyle(foreground: .red, background: .cyan))
        #expect(buffer[5, 0].style == TextStyle(foreground: .black, background: .cyan))
    }
}
