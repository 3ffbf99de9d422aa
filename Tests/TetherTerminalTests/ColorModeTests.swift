import Testing

@testable import TetherTerminal

@Suite struct ColorModeTests {
    @Test func noColorWinsWhenNonEmpty() {
        let env = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]
        #expect(ColorMode.detect(environment: env, isTerminal: true) == .monochrome)
        // An empty NO_COLOR does not count (no-color.org).
        var empty = env
        empty["NO_COLOR"] = ""
        #expect(ColorMode.detect(environment: empty, isTerminal: true) == .trueColor)
    }

    @Test func dumbTerminalsAndNonTerminalsAreMonochrome() {
        #expect(ColorMode.detect(environment: ["TERM": "dumb"], isTerminal: true) == .monochrome)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"], isTerminal: false) == .monochrome)
    }

    @Test func paletteFromTermOrColorTerm() {
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"], isTerminal: true) == .palette256)
        #expect(ColorMode.detect(environment: ["TERM": "tmux-256color"], isTerminal: true) == .palette256)
        #expect(
            ColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor"], isTerminal: true) == .trueColor)
        #expect(
            ColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "24bit"], isTerminal: true) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm"], isTerminal: true) == .basic16)
        #expect(ColorMode.detect(environment: ["TERM": "linux"], isTerminal: true) == .basic16)
        #expect(ColorMode.detect(environment: [:], isTerminal: true) == .basic16)
    }

    private func sgr(_ style: TextStyle, _ mode: ColorMode) -> String {
        var bytes: [UInt8] = []
        mode.appendSGR(for: style, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func sgrSequences() {
        #expect(sgr(.plain, .basic16) == "\u{1B}[0m")
        #expect(sgr(TextStyle(foreground: .red, attributes: .bold), .basic16) == "\u{1B}[0;1;31m")
        #expect(sgr(TextStyle(foreground: .brightCyan, background: .blue), .basic16) == "\u{1B}[0;96;44m")
        #expect(sgr(TextStyle(background: .brightWhite), .basic16) == "\u{1B}[0;107m")
        #expect(
            sgr(TextStyle(attributes: [.bold, .dim, .italic, .underline, .reverse]), .palette256)
                == "\u{1B}[0;1;2;3;4;7m")
        #expect(
            sgr(TextStyle(foreground: .palette(208), background: .palette(7)), .palette256)
                == "\u{1B}[0;38;5;208;48;5;7m")
    }

    @Test func monochromeKeepsAttributesAndDropsColours() {
        let style = TextStyle(foreground: .palette(208), background: .red, attributes: [.bold, .reverse])
        #expect(sgr(style, .monochrome) == "\u{1B}[0;1;7m")
        #expect(sgr(TextStyle(foreground: .green), .monochrome) == "\u{1B}[0m")
    }

    @Test func basic16MapsPaletteColoursToNamedOnes() {
        // The first sixteen entries are the named colours themselves.
        #expect(sgr(TextStyle(foreground: .palette(1)), .basic16) == "\u{1B}[0;31m")
        #expect(sgr(TextStyle(foreground: .palette(12)), .basic16) == "\u{1B}[0;94m")
        // The cube: pure red, green, blue and orange-ish; the grey ramp.
        #expect(ColorMode.nearestNamed(toPaletteIndex: 196) == .brightRed)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 46) == .brightGreen)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 21) == .brightBlue)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 88) == .red)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 226) == .brightYellow)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 16) == .black)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 231) == .brightWhite)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 232) == .black)
        #expect(ColorMode.nearestNamed(toPaletteIndex: 255) == .brightWhite)
        // Never a palette escape under basic16.
        for index in 0...255 {
            let text = sgr(TextStyle(foreground: .palette(UInt8(index)), background: .palette(UInt8(index))), .basic16)
            #expect(!text.contains("38;5") && !text.contains("48;5"))
        }
    }
}
