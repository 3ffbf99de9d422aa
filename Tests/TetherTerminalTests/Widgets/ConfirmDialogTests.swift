import Testing
import TetherTerminal

@Suite struct ConfirmDialogTests {
    private let question = ConfirmDialog(title: "Delete", message: "Delete note 3? This cannot be undone.")

    @Test func lettersAndEscapeAnswerAtOnce() {
        var dialog = question
        #expect(dialog.handle(.character("y")) == .confirmed)
        #expect(dialog.handle(.character("Y")) == .confirmed)
        #expect(dialog.handle(.character("n")) == .cancelled)
        #expect(dialog.handle(.escape) == .cancelled)
        #expect(dialog.handle(.character("x")) == nil)
        #expect(dialog.handle(.down) == nil)
    }

    @Test func enterChoosesTheFocusedButtonWhichStartsOnCancel() {
        var dialog = question
        #expect(dialog.focus == .cancel)
        #expect(dialog.handle(.enter) == .cancelled)
        #expect(dialog.handle(.tab) == nil)
        #expect(dialog.focus == .confirm)
        #expect(dialog.handle(.enter) == .confirmed)
        #expect(dialog.handle(.left) == nil)
        #expect(dialog.focus == .cancel)
        #expect(dialog.handle(.right) == nil)
        #expect(dialog.handle(.backTab) == nil)
        #expect(dialog.focus == .cancel)
        var focused = ConfirmDialog(title: "Quit", message: "Quit?", focus: .confirm)
        #expect(focused.handle(.enter) == .confirmed)
    }

    @Test func drawsACenteredBoxWithTheWrappedMessage() {
        var buffer = ScreenBuffer(width: 30, height: 9)
        buffer.fill(buffer.bounds, style: TextStyle(attributes: .dim))
        question.draw(into: &buffer, in: buffer.bounds)
        let rule = String(repeating: "─", count: 28)
        let expected = [
            "",
            "┌ Delete " + String(repeating: "─", count: 20) + "┐",
            "│ Delete note 3? This cannot │",
            "│ be undone.                 │",
            "│                            │",
            "│      [ Yes ]   [ No ]      │",
            "└" + rule + "┘",
            "",
            "",
        ]
        #expect(buffer.text == expected.joined(separator: "\n"))
        // The focused button is reversed; the box hides what was under it.
        #expect(buffer[17, 5].style == TextStyle(attributes: [.reverse, .bold]))
        #expect(buffer[7, 5].style == .plain)
        #expect(buffer[5, 4].style == .plain)
        #expect(buffer[5, 0].style == TextStyle(attributes: .dim))
        #expect(question.frame(in: buffer.bounds) == Rect(x: 0, y: 1, width: 30, height: 6))
    }

    @Test func aShortMessageGetsASmallBoxInTheMiddle() {
        let dialog = ConfirmDialog(title: "Quit", message: "Quit tether?", confirmLabel: "Quit", cancelLabel: "Stay")
        let frame = dialog.frame(in: Rect(x: 0, y: 0, width: 80, height: 24))
        // "[ Quit ]   [ Stay ]" is 19 columns, wider than the message: 19 + 4.
        #expect(frame == Rect(x: 28, y: 9, width: 23, height: 5))
        var buffer = ScreenBuffer(width: 80, height: 24)
        dialog.draw(into: &buffer, in: buffer.bounds, ascii: true)
        let lines = buffer.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[9].hasSuffix("+ Quit ---------------+"))
        #expect(lines[10].hasSuffix("| Quit tether?        |"))
        #expect(lines[12].hasSuffix("| [ Quit ]   [ Stay ] |"))
    }

    @Test func tinyBoundsKeepTheButtonsOrDrawNothing() {
        var buffer = ScreenBuffer(width: 10, height: 3)
        question.draw(into: &buffer, in: buffer.bounds)
        #expect(buffer.text(ofRow: 0).hasPrefix("┌"))
        #expect(buffer.text(ofRow: 1) == "│ [ Yes  │")
        #expect(buffer.text(ofRow: 2).hasPrefix("└"))
        var empty = ScreenBuffer(width: 1, height: 1)
        question.draw(into: &empty, in: empty.bounds)
        #expect(empty.text == "")
        question.draw(into: &empty, in: Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(empty.text == "")
    }
}
