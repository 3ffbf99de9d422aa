/// A run of text in one style: the unit widgets draw with.
///
/// ```swift
/// import TetherTerminal
///
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// buffer.draw([Span("1,280円", style: .init(attributes: .bold)), Span("  Shop", style: .init(attributes: .dim))],
///             x: 2, y: 5, maxColumns: 40)
/// ```
public struct Span: Sendable, Hashable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// The columns the text takes.
    public var columns: Int { text.terminalColumns }
}
