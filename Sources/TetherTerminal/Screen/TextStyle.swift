/// How a cell's text is drawn: colours and attributes.
///
/// ```swift
/// import TetherTerminal
///
/// let title = TextStyle(attributes: .bold)
/// let error = TextStyle(foreground: .red, attributes: .bold)
/// ```
///
/// Under a monochrome ``ColorMode`` the colours are dropped and the attributes kept, so styles should not carry
/// meaning by colour alone: pair a colour with bold, dim, reverse or a symbol.
public struct TextStyle: Sendable, Hashable {
    /// Text attributes, combinable.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let italic = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
        /// Foreground and background swapped: the selection highlight that works without colours.
        public static let reverse = Attributes(rawValue: 1 << 4)
    }

    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: Attributes

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: Attributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's normal text.
    public static let plain = TextStyle()

    /// This style with `attributes` added.
    public func adding(_ attributes: Attributes) -> TextStyle {
        var style = self
        style.attributes.formUnion(attributes)
        return style
    }
}
