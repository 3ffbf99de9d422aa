import Testing
import TetherTerminal

@Suite struct BannerTests {
    @Test func errorWithAHint() {
        var buffer = ScreenBuffer(width: 30, height: 1)
        Banner("Server down", kind: .error, hint: "R retry").draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0) == " ✖ Server down        R retry ")
        // Bold as well as red, so it reads in monochrome.
        #expect(buffer[3, 0].style == TextStyle(foreground: .white, background: .red, attributes: .bold))
        #expect(buffer[29, 0].style.background == .red)
    }

    @Test func symbolsPerKindWithASCIIFallback() {
        #expect(Banner("x", kind: .info).symbol() == "ℹ")
        #expect(Banner("x", kind: .warning).symbol() == "⚠")
        #expect(Banner("x", kind: .error).symbol(ascii: true) == "x")
        #expect(Banner("x", kind: .warning).symbol(ascii: true) == "!")
        #expect(Banner("x").symbol(ascii: true) == "i")
        #expect(Banner("x", kind: .warning).style.attributes.contains(.bold))
        #expect(!Banner("x").style.attributes.contains(.bold))
        var buffer = ScreenBuffer(width: 12, height: 1)
        Banner("Rate limited", kind: .warning).draw(into: &buffer, in: buffer.bounds, ascii: true)
        #expect(buffer.text(ofRow: 0) == " ! Rate li… ")
    }

    @Test func theHintWinsWhenNarrow() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        Banner("A long error message", kind: .error, hint: "R retry").draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0) == " ✖… R retry ")
        #expect(buffer.text(ofRow: 0).terminalColumns == 12)
    }
}
