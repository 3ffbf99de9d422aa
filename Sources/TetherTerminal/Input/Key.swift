/// A key the user pressed, decoded from the terminal's input bytes by ``KeyDecoder``.
///
/// Printable input, Japanese included, arrives as ``character(_:)``; Ctrl+letter as ``control(_:)`` with the
/// lowercase letter (Ctrl+C is `.control("c")`), except the keys terminals send as control codes of their own:
/// Enter (Ctrl+M), Tab (Ctrl+I) and Backspace (Ctrl+H or DEL).
public enum Key: Sendable, Hashable {
    case character(Character)
    case control(Character)
    case enter
    case escape
    case tab
    /// Shift+Tab.
    case backTab
    case backspace
    /// The forward Delete key.
    case delete
    case up, down, left, right
    case home, end
    case pageUp, pageDown
    case insert
    /// F1 to F12.
    case function(Int)
    /// Text pasted while bracketed paste mode is on, delivered whole.
    case paste(String)
}
