/// A colour a terminal can draw text or background in.
///
/// The sixteen named colours are the terminal's own palette (the user's theme decides how they look);
/// ``palette(_:)`` picks one of the 256 indexed colours, ``rgb(_:_:_:)`` a 24-bit colour (shown as the nearest
/// palette or named colour when the terminal has fewer, see ``ColorMode``). ``default`` is the terminal's normal
/// colour.
public enum TerminalColor: Sendable, Hashable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// An entry of the 256-colour palette.
    case palette(UInt8)
    /// A 24-bit colour: red, green, blue.
    case rgb(UInt8, UInt8, UInt8)
}
