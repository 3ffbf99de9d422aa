import Testing
import TetherSync
import TetherTerminal

@Suite struct ScreenRendererTests {
    /// A renderer and the virtual terminal its output goes to.
    private struct Harness {
        var renderer: ScreenRenderer
        var screen: VirtualScreen

        init(width: Int, height: Int, colorMode: ColorMode = .palette256) {
            renderer = ScreenRenderer(colorMode: colorMode)
            screen = VirtualScreen(width: width, height: height)
        }

        /// Renders `frame`, applies the bytes and returns them.
        @discardableResult
        mutating func show(_ frame: ScreenBuffer) -> [UInt8] {
            let bytes = renderer.render(frame)
            screen.apply(bytes)
            return bytes
        }
    }

    /// Expects the virtual screen to show `frame` exactly: text, styles, wide characters and the cursor.
    private func expectShows(
        _ harness: Harness, _ frame: ScreenBuffer, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let screen = harness.screen
        #expect(screen.text == frame.text, sourceLocation: sourceLocation)
        #expect(screen.firstDifference(from: frame) == nil, sourceLocation: sourceLocation)
        #expect(screen.unknown.isEmpty, "unknown sequences: \(screen.unknown)", sourceLocation: sourceLocation)
        #expect(screen.scrolls == 0, sourceLocation: sourceLocation)
        if let cursor = frame.cursor {
            #expect(screen.cursorVisible, sourceLocation: sourceLocation)
            #expect(screen.cursorX == cursor.x && screen.cursorY == cursor.y, sourceLocation: sourceLocation)
        } else {
            #expect(!screen.cursorVisible, sourceLocation: sourceLocation)
        }
    }

    private static let styles: [TextStyle] = [
        .plain, TextStyle(attributes: .bold), TextStyle(foreground: .red), TextStyle(attributes: [.dim, .underline]),
        TextStyle(foreground: .palette(208), background: .blue), TextStyle(attributes: .reverse),
        TextStyle(foreground: .brightGreen, attributes: .italic),
    ]

    private static let words = ["Tether", "ノート", "パソコン", "1,280円", "名前", "a", "  ", "😀", "x y z", "é", "——"]

    /// A frame with random text in random styles at random places.
    private func randomFrame(width: Int, height: Int, using generator: inout SplitMix64) -> ScreenBuffer {
        var frame = ScreenBuffer(width: width, height: height)
        for _ in 0..<Int.random(in: 0...(width * height / 4), using: &generator) {
            let word = Self.words.randomElement(using: &generator)!
            let style = Self.styles.randomElement(using: &generator)!
            frame.draw(
                word, x: Int.random(in: -1..<width, using: &generator),
                y: Int.random(in: 0..<height, using: &generator),
                style: style)
        }
        if Bool.random(using: &generator) {
            frame.cursor = (Int.random(in: 0..<width, using: &generator), Int.random(in: 0..<height, using: &generator))
        }
        return frame
    }

    /// `frame` with a few random edits.
    private func edited(_ frame: ScreenBuffer, using generator: inout SplitMix64) -> ScreenBuffer {
        var frame = frame
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            let word = Self.words.randomElement(using: &generator)!
            frame.draw(
                word, x: Int.random(in: 0..<frame.width, using: &generator),
                y: Int.random(in: 0..<frame.height, using: &generator),
                style: Self.styles.randomElement(using: &generator)!)
        }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            frame.cursor = Bool.random(using: &generator) ? nil : (0, frame.height - 1)
        }
        return frame
    }

    @Test func firstFrameClearsAndDrawsEverything() {
        var harness = Harness(width: 20, height: 4)
        var frame = ScreenBuffer(width: 20, height: 4)
        frame.draw("Items", x: 0, y: 0, style: TextStyle(attributes: .bold))
        frame.draw("ノートパソコン 1,280円", x: 1, y: 2, style: TextStyle(foreground: .red))
        frame.draw("end", x: 17, y: 3)
        let bytes = harness.show(frame)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\u{1B}[2J"))
        expectShows(harness, frame)
    }

    @Test func unchangedFrameWritesNothing() {
        var harness = Harness(width: 10, height: 3)
        var frame = ScreenBuffer(width: 10, height: 3)
        frame.draw("hello", x: 0, y: 1)
        harness.show(frame)
        #expect(harness.show(frame).isEmpty)
        frame.cursor = (2, 1)
        harness.show(frame)
        #expect(harness.show(frame).isEmpty)
        expectShows(harness, frame)
    }

    @Test func oneCellChangeWritesAFewBytes() {
        var harness = Harness(width: 200, height: 60)
        var frame = ScreenBuffer(width: 200, height: 60)
        for row in 0..<60 { frame.draw(String(repeating: "row \(row) ", count: 20), x: 0, y: row) }
        harness.show(frame)
        let written = harness.screen.charactersWritten
        frame.draw("X", x: 100, y: 30)
        let bytes = harness.show(frame)
        // A cursor position (ESC[31;101H) and the character.
        #expect(bytes.count <= 12, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        #expect(harness.screen.charactersWritten == written + 1)
        expectShows(harness, frame)
    }

    @Test func aChangedLineIsWrittenAsOneRun() {
        var harness = Harness(width: 40, height: 5)
        var frame = ScreenBuffer(width: 40, height: 5)
        frame.draw("first line", x: 0, y: 0)
        frame.draw("second line", x: 0, y: 1)
        harness.show(frame)
        frame.draw("SECOND LINE", x: 0, y: 1)
        let bytes = harness.show(frame)
        // A move to the row, then the text with no moves in between.
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[2HSECOND LINE")
        expectShows(harness, frame)
    }

    @Test func shortHopsRewriteTextAndLongOnesMoveForward() {
        var harness = Harness(width: 40, height: 2)
        var frame = ScreenBuffer(width: 40, height: 2)
        frame.draw("abcdefghijklmnopqrstuvwxyz", x: 0, y: 0)
        harness.show(frame)
        frame.draw("B", x: 1, y: 0)
        frame.draw("D", x: 3, y: 0)
        frame.draw("Y", x: 24, y: 0)
        let text = String(decoding: harness.show(frame), as: UTF8.self)
        #expect(text == "\u{1B}[1;2HBcD\u{1B}[20CY")
        expectShows(harness, frame)
    }

    @Test func aRowThatEndsInBlanksIsErasedToItsEnd() {
        var harness = Harness(width: 60, height: 3)
        var frame = ScreenBuffer(width: 60, height: 3)
        frame.draw(String(repeating: "long text ", count: 6), x: 0, y: 1, style: TextStyle(foreground: .red))
        harness.show(frame)
        frame.fill(Rect(x: 0, y: 1, width: 60, height: 1))
        frame.draw("short", x: 0, y: 1, style: TextStyle(attributes: .bold))
        let text = String(decoding: harness.show(frame), as: UTF8.self)
        #expect(text == "\u{1B}[2H\u{1B}[0;1mshort\u{1B}[0m\u{1B}[K")
        expectShows(harness, frame)
        // Blanks in a style are written: erasing would lose the style.
        frame.fill(Rect(x: 10, y: 1, width: 50, height: 1), style: TextStyle(background: .blue))
        harness.show(frame)
        expectShows(harness, frame)
    }

    @Test func stylesAreSetOnlyWhenTheyChange() {
        var harness = Harness(width: 30, height: 2)
        var frame = ScreenBuffer(width: 30, height: 2)
        let bold = TextStyle(attributes: .bold)
        frame.draw("bold", x: 0, y: 0, style: bold)
        frame.draw("more", x: 5, y: 0, style: bold)
        frame.draw("red", x: 0, y: 1, style: TextStyle(foreground: .red))
        let text = String(decoding: harness.show(frame), as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}[0;1m").count == 2)
        #expect(text.contains("\u{1B}[0;31mred"))
        // Frames end in the plain style.
        #expect(text.hasSuffix("\u{1B}[0m\u{1B}[?25l") || text.hasSuffix("\u{1B}[0m"))
        expectShows(harness, frame)
        // A style change alone is written.
        frame.draw("bold", x: 0, y: 0, style: TextStyle(attributes: .underline))
        let change = String(decoding: harness.show(frame), as: UTF8.self)
        #expect(change.contains("\u{1B}[0;4mbold"))
        expectShows(harness, frame)
    }

    @Test func wideCharactersAreWrittenWholeAndReplacedCleanly() {
        var harness = Harness(width: 10, height: 2)
        var frame = ScreenBuffer(width: 10, height: 2)
        frame.draw("名前です", x: 0, y: 0)
        let first = harness.show(frame)
        // Each wide character once: 4 × 3 bytes of UTF-8.
        #expect(String(decoding: first, as: UTF8.self).contains("名前です"))
        expectShows(harness, frame)
        // Narrow over the right half of 前, wide over narrow, wide shifted by one column.
        frame.draw("x", x: 3, y: 0)
        harness.show(frame)
        expectShows(harness, frame)
        frame.draw("ab", x: 0, y: 1)
        harness.show(frame)
        frame.draw("漢", x: 1, y: 1)
        harness.show(frame)
        expectShows(harness, frame)
        frame.draw("字", x: 2, y: 1)
        harness.show(frame)
        expectShows(harness, frame)
    }

    @Test func theLastCellIsWrittenWithoutScrolling() {
        var harness = Harness(width: 5, height: 2)
        var frame = ScreenBuffer(width: 5, height: 2)
        frame.draw("abcde", x: 0, y: 0)
        frame.draw("fghij", x: 0, y: 1)
        harness.show(frame)
        expectShows(harness, frame)
        frame.draw("Z", x: 4, y: 1)
        frame.draw("A", x: 0, y: 0)
        harness.show(frame)
        expectShows(harness, frame)
    }

    @Test func cursorIsShownAtTheFrameCursorOrHidden() {
        var harness = Harness(width: 10, height: 3)
        var frame = ScreenBuffer(width: 10, height: 3)
        frame.draw("name: ab", x: 0, y: 1)
        frame.cursor = (8, 1)
        harness.show(frame)
        expectShows(harness, frame)
        frame.cursor = nil
        #expect(String(decoding: harness.show(frame), as: UTF8.self) == "\u{1B}[?25l")
        expectShows(harness, frame)
        // Out-of-range cursors are clamped to the screen.
        frame.cursor = (50, -3)
        harness.show(frame)
        #expect(harness.screen.cursorVisible && harness.screen.cursorX == 9 && harness.screen.cursorY == 0)
    }

    @Test func invalidateAndSizeChangesRedrawEverything() {
        var harness = Harness(width: 12, height: 3)
        var frame = ScreenBuffer(width: 12, height: 3)
        frame.draw("keep me", x: 0, y: 0)
        harness.show(frame)
        harness.renderer.invalidate()
        let redraw = String(decoding: harness.show(frame), as: UTF8.self)
        #expect(redraw.contains("\u{1B}[2J") && redraw.contains("keep me"))
        expectShows(harness, frame)

        var renderer = ScreenRenderer()
        _ = renderer.render(frame)
        var larger = ScreenBuffer(width: 20, height: 5)
        larger.draw("keep me", x: 0, y: 0)
        let resized = String(decoding: renderer.render(larger), as: UTF8.self)
        #expect(resized.contains("\u{1B}[2J") && resized.contains("keep me"))
        var screen = VirtualScreen(width: 20, height: 5)
        screen.apply(Array(resized.utf8))
        #expect(screen.text == larger.text)
    }

    @Test func changingTheColorModeRedraws() {
        var renderer = ScreenRenderer(colorMode: .palette256)
        var frame = ScreenBuffer(width: 8, height: 1)
        frame.draw("red", x: 0, y: 0, style: TextStyle(foreground: .palette(196)))
        _ = renderer.render(frame)
        renderer.colorMode = .basic16
        let text = String(decoding: renderer.render(frame), as: UTF8.self)
        #expect(text.contains("\u{1B}[2J") && text.contains("\u{1B}[0;91mred"))
    }

    @Test func monochromeWritesNoColours() {
        var harness = Harness(width: 30, height: 8, colorMode: .monochrome)
        var generator = SplitMix64(seed: 7)
        var frame = randomFrame(width: 30, height: 8, using: &generator)
        harness.show(frame)
        for _ in 0..<20 {
            frame = edited(frame, using: &generator)
            harness.show(frame)
        }
        let colours = harness.screen.sgrParameters.flatMap { $0 }.filter {
            (30...49).contains($0) || (90...107).contains($0)
        }
        #expect(colours.isEmpty)
        // Attributes are kept.
        #expect(harness.screen.sgrParameters.flatMap { $0 }.contains(1))
        #expect(harness.screen.sgrParameters.flatMap { $0 }.contains(7))
        #expect(harness.screen.firstDifference(from: frame) { TextStyle(attributes: $0.attributes) } == nil)
    }

    @Test func synchronizedUpdatesWrapFramesThatChange() {
        var renderer = ScreenRenderer(usesSynchronizedUpdate: true)
        var frame = ScreenBuffer(width: 8, height: 2)
        frame.draw("sync", x: 0, y: 0)
        let text = String(decoding: renderer.render(frame), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[?2026h") && text.hasSuffix("\u{1B}[?2026l"))
        #expect(renderer.render(frame).isEmpty)
    }

    @Test(arguments: [ColorMode.palette256, .basic16])
    func randomFramesAndEditsAlwaysEndInTheNewFrame(mode: ColorMode) {
        var generator = SplitMix64(seed: mode == .basic16 ? 16 : 256)
        for size in [
            (width: 1, height: 1), (width: 2, height: 2), (width: 7, height: 3), (width: 31, height: 9),
            (width: 80, height: 24),
        ] {
            var harness = Harness(width: size.width, height: size.height, colorMode: mode)
            var frame = randomFrame(width: size.width, height: size.height, using: &generator)
            for step in 0..<30 {
                if step % 10 == 9 {
                    frame = randomFrame(width: size.width, height: size.height, using: &generator)
                } else {
                    frame = edited(frame, using: &generator)
                }
                if step == 15 { harness.renderer.invalidate() }
                harness.show(frame)
                if mode == .palette256 {
                    expectShows(harness, frame)
                } else {
                    #expect(harness.screen.text == frame.text)
                    #expect(harness.screen.unknown.isEmpty && harness.screen.scrolls == 0)
                }
            }
        }
    }

    @Test func outputSplitAtEveryByteInterpretsTheSame() {
        var generator = SplitMix64(seed: 99)
        var renderer = ScreenRenderer(colorMode: .palette256)
        let frame = randomFrame(width: 20, height: 6, using: &generator)
        let bytes = renderer.render(frame)
        var screen = VirtualScreen(width: 20, height: 6)
        for byte in bytes { screen.apply([byte]) }
        #expect(screen.text == frame.text)
        #expect(screen.firstDifference(from: frame) == nil)
    }
}
