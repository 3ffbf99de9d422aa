/// A yes-or-no question in a centered box: "Delete note 3?".
///
/// Keys (``handle(_:)``): `y` confirms and `n` or Escape cancels at once; Tab, Shift+Tab, Left and Right move the
/// focus between the two buttons, and Enter chooses the focused one. The focus starts on ``Choice/cancel`` by
/// default, so a stray Enter does not destroy anything.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let key = Key.enter   // from TerminalSession.keys
/// var dialog = ConfirmDialog(title: "Delete note", message: "Delete “Groceries”? This cannot be undone.",
///                            confirmLabel: "Delete", cancelLabel: "Keep")
/// switch dialog.handle(key) {
/// case .confirmed?: print("delete")
/// case .cancelled?: print("keep")
/// case nil: break  // still open
/// }
/// dialog.draw(into: &buffer, in: buffer.bounds)
/// ```
///
/// A value type with no I/O.
public struct ConfirmDialog: Sendable, Hashable {
    /// How the dialog was answered.
    public enum Outcome: Sendable, Hashable {
        case confirmed, cancelled
    }

    /// A button.
    public enum Choice: Sendable, Hashable {
        case confirm, cancel
    }

    public var title: String
    public var message: String
    public var confirmLabel: String
    public var cancelLabel: String
    /// The button Enter chooses.
    public var focus: Choice

    public init(
        title: String, message: String, confirmLabel: String = "Yes", cancelLabel: String = "No",
        focus: Choice = .cancel
    ) {
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.focus = focus
    }

    /// Answers the dialog or moves its focus; `nil` while it is still open (focus moves and unused keys alike).
    public mutating func handle(_ key: Key) -> Outcome? {
        switch key {
        case .character("y"), .character("Y"): return .confirmed
        case .character("n"), .character("N"), .escape: return .cancelled
        case .enter: return focus == .confirm ? .confirmed : .cancelled
        case .tab, .backTab, .left, .right:
            focus = focus == .confirm ? .cancel : .confirm
            return nil
        default: return nil
        }
    }

    /// The widest box the dialog takes, in columns, before the bounds shrink it.
    private static let preferredWidth = 50

    /// The box the dialog takes when drawn centered in `bounds`: wide enough for the title and the buttons, at
    /// most 50 columns unless those need more, and tall enough for the wrapped message; never larger than `bounds`.
    public func frame(in bounds: Rect) -> Rect {
        let buttons = buttonsText.terminalColumns
        let content = max(buttons, min(message.terminalColumns, Self.preferredWidth - 4))
        let width = min(bounds.width, max(content + 4, title.terminalColumns + 6))
        let lines = TextLayout.wrap(message, toColumns: max(1, width - 4)).count
        let height = min(bounds.height, lines + 4)
        return Rect(
            x: bounds.x + (bounds.width - width) / 2, y: bounds.y + (bounds.height - height) / 2, width: width,
            height: height)
    }

    /// Draws the dialog centered in `bounds` (the whole screen, usually): a bordered box filled with `style`, the
    /// title in its top edge, the message wrapped inside, and the buttons centered on its last inner row, the
    /// focused one reversed and bold. In a box too short for everything, the buttons stay and the message is cut.
    /// `ascii` draws the border with `+-|`.
    public func draw(into buffer: inout ScreenBuffer, in bounds: Rect, style: TextStyle = .plain, ascii: Bool = false) {
        let box = frame(in: bounds)
        guard box.width >= 2, box.height >= 2 else { return }
        buffer.fill(box, style: style)
        buffer.drawBox(box, style: style, title: title, ascii: ascii)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        guard !inner.isEmpty else { return }
        let messageRows = inner.height >= 3 ? inner.height - 2 : inner.height - 1
        for (offset, line) in TextLayout.wrap(message, toColumns: inner.width).prefix(messageRows).enumerated() {
            buffer.draw(line, x: inner.x, y: inner.y + offset, style: style, maxColumns: inner.width)
        }
        let buttons = buttonSpans(style: style)
        let columns = buttons.reduce(0) { $0 + $1.columns }
        let x = inner.x + max(0, (inner.width - columns) / 2)
        buffer.draw(buttons, x: x, y: inner.maxY - 1, maxColumns: inner.maxX - x)
    }

    private var buttonsText: String { "[ \(confirmLabel) ]   [ \(cancelLabel) ]" }

    private func buttonSpans(style: TextStyle) -> [Span] {
        let focused = style.adding([.reverse, .bold])
        return [
            Span("[ \(confirmLabel) ]", style: focus == .confirm ? focused : style),
            Span("   ", style: style),
            Span("[ \(cancelLabel) ]", style: focus == .cancel ? focused : style),
        ]
    }
}
