/// A one-line message across the screen: an error with a retry hint, a warning, a note.
///
/// Each kind has a symbol (`ℹ`, `⚠`, `✖`, or `i`, `!`, `x` with `ascii`) and a style, bold for warnings and
/// errors, so the kind reads in monochrome too; the colours (blue, yellow, red backgrounds) are extra. The
/// message is truncated with an ellipsis; an optional `hint` such as `"R retry"` is aligned right and wins the
/// space when narrow, like ``StatusBar``'s right part.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// let row = buffer.bounds.split(bottom: 2).bottom.split(top: 1).top
/// Banner("Too many requests (429)", kind: .error, hint: "R retry").draw(into: &buffer, in: row)
/// ```
///
/// A value type with no I/O.
public struct Banner: Sendable, Hashable {
    /// What the message is about.
    public enum Kind: Sendable, Hashable {
        case info, warning, error
    }

    public var message: String
    public var kind: Kind
    /// A short hint drawn at the right end, such as the key that acts on the message.
    public var hint: String?

    public init(_ message: String, kind: Kind = .info, hint: String? = nil) {
        self.message = message
        self.kind = kind
        self.hint = hint
    }

    /// The symbol in front of the message.
    public func symbol(ascii: Bool = false) -> String {
        switch kind {
        case .info: ascii ? "i" : "ℹ"
        case .warning: ascii ? "!" : "⚠"
        case .error: ascii ? "x" : "✖"
        }
    }

    /// The style of the whole banner.
    public var style: TextStyle {
        switch kind {
        case .info: TextStyle(foreground: .white, background: .blue)
        case .warning: TextStyle(foreground: .black, background: .yellow, attributes: .bold)
        case .error: TextStyle(foreground: .white, background: .red, attributes: .bold)
        }
    }

    /// Draws the banner on the first row of `rect`: symbol and message on the left, the hint on the right.
    public func draw(into buffer: inout ScreenBuffer, in rect: Rect, ascii: Bool = false) {
        let hintSpans = hint.map { [Span($0)] } ?? []
        StatusBar(left: [Span(symbol(ascii: ascii) + " " + message)], right: hintSpans, style: style)
            .draw(into: &buffer, in: rect)
    }
}
