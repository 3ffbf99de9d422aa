import Testing
import TetherTerminal

/// The interpreter the renderer's tests rely on: if it were wrong, they would prove nothing.
@Suite struct VirtualScreenTests {
    private func screen(_ width: Int, _ height: Int, _ text: String) -> VirtualScreen {
        var screen = VirtualScreen(width: width, height: height)
        screen.apply(Array(text.utf8))
        return screen
    }

    @Test func textAdvancesAndWrapsAfterTheLastColumn() {
        let screen = screen(4, 3, "abcdef")
        #expect(screen.text == "abcd\nef\n")
        #expect(screen.cursorX == 2 && screen.cursorY == 1)
        // The last column leaves a pending wrap: the cursor stays there until the next character.
        let full = self.screen(3, 2, "abc")
        #expect(full.cursorX == 2 && full.cursorY == 0)
        #expect(full.scrolls == 0)
    }

    @Test func writingPastTheBottomRightScrolls() {
        let screen = screen(2, 2, "abcde")
        #expect(screen.scrolls == 1)
        #expect(screen.text == "cd\ne")
    }

    @Test func cursorPositionAndMovement() {
        var screen = screen(10, 4, "\u{1B}[3;5Hx\u{1B}[Hy\u{1B}[2;2Hz\u{1B}[3Cw")
        #expect(screen.text == "y\n z   w\n    x\n")
        screen.apply(Array("\u{1B}[99;99H!".utf8))
        #expect(screen[9, 3].character == "!")
        screen.apply(Array("\u{1B}[1;1H\u{1B}[2B\u{1B}[A\u{1B}[3C\u{1B}[2D#".utf8))
        #expect(screen[1, 1].character == "#")
        screen.apply(Array("\r$\n%".utf8))
        #expect(screen[0, 1].character == "$" && screen[1, 2].character == "%")
        #expect(screen.unknown.isEmpty)
    }

    @Test func eraseInDisplayAndLine() {
        var screen = screen(5, 3, "aaaaabbbbbccccc")
        screen.apply(Array("\u{1B}[2;3H\u{1B}[K".utf8))
        #expect(screen.text == "aaaaa\nbb\nccccc")
        screen.apply(Array("\u{1B}[2J".utf8))
        #expect(screen.text == "\n\n")
    }

    @Test func sgrSetsAndResetsStyles() {
        let screen = screen(12, 1, "\u{1B}[0;1;31ma\u{1B}[0;38;5;208;48;5;17mb\u{1B}[0;7;94;102mc\u{1B}[0md\u{1B}[mE")
        #expect(screen[0, 0].style == TextStyle(foreground: .red, attributes: .bold))
        #expect(screen[1, 0].style == TextStyle(foreground: .palette(208), background: .palette(17)))
        #expect(
            screen[2, 0].style == TextStyle(foreground: .brightBlue, background: .brightGreen, attributes: .reverse))
        #expect(screen[3, 0].style == .plain && screen[4, 0].style == .plain)
        #expect(screen.sgrParameters.first == [0, 1, 31])
        #expect(screen.unknown.isEmpty)
    }

    @Test func wideCharactersTakeTwoCellsAndOverwritingAHalfErasesTheOther() {
        var screen = screen(6, 1, "名前")
        #expect(screen.text == "名前")
        #expect(screen[1, 0].isContinuation && screen.cursorX == 4)
        // Over the right half of 名: its left half goes.
        screen.apply(Array("\u{1B}[1;2Hx".utf8))
        #expect(screen.text(ofRow: 0) == " x前  ")
        // Over the left half of 前: its right half goes.
        screen.apply(Array("\u{1B}[1;3Hy".utf8))
        #expect(screen.text(ofRow: 0) == " xy   ")
        // A wide character that does not fit in the last column wraps.
        let wrapped = self.screen(3, 2, "ab名")
        #expect(wrapped.text == "ab\n名")
    }

    @Test func privateModesAndTheCursor() {
        var screen = screen(4, 1, "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h")
        #expect(screen.modes[1049] == true && screen.modes[2004] == true && !screen.cursorVisible)
        screen.apply(Array("\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8))
        #expect(screen.modes[1049] == false && screen.modes[2004] == false && screen.cursorVisible)
    }

    @Test func unknownInputIsRecorded() {
        let screen = screen(4, 1, "\u{1B}[5n\u{7}\u{1B}7\u{1B}[0;99m")
        #expect(screen.unknown.count == 4)
    }

    @Test func sequencesAndCharactersSplitAcrossCalls() {
        var screen = VirtualScreen(width: 8, height: 2)
        for byte in Array("\u{1B}[2;3Hノ\u{1B}[0;1mb".utf8) { screen.apply([byte]) }
        #expect(screen.text == "\n  ノb")
        #expect(screen[4, 1].style == TextStyle(attributes: .bold))
    }

    @Test func firstDifferenceFindsTheCell() {
        var buffer = ScreenBuffer(width: 4, height: 2)
        buffer.draw("ab", x: 0, y: 1, style: TextStyle(attributes: .bold))
        let matching = screen(4, 2, "\u{1B}[2H\u{1B}[0;1mab")
        #expect(matching.firstDifference(from: buffer) == nil)
        let plain = screen(4, 2, "\u{1B}[2Hab")
        #expect(plain.firstDifference(from: buffer)?.hasPrefix("(0, 1)") == true)
        #expect(screen(4, 2, "").firstDifference(from: ScreenBuffer(width: 3, height: 2)) == "size differs")
    }
}
