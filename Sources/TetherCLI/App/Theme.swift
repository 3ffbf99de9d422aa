import TetherTerminal

/// The app's styles, in one place. Every style that carries meaning pairs its colour with an attribute or a
/// symbol, so the app reads the same under `NO_COLOR` (the renderer then drops the colours).
enum Theme {
    static let title = TextStyle(attributes: .bold)
    static let secondary = TextStyle(attributes: .dim)
    static let selected = TextStyle(attributes: .reverse)
    static let tab = TextStyle(foreground: .brightWhite, background: .blue)
    static let currentTab = TextStyle(foreground: .black, background: .brightWhite, attributes: .bold)
    static let price = TextStyle(foreground: .yellow, attributes: .bold)
    static let stars = TextStyle(foreground: .yellow)
    static let link = TextStyle(foreground: .cyan, attributes: .underline)
    static let error = TextStyle(foreground: .red, attributes: .bold)
    static let warning = TextStyle(foreground: .yellow, attributes: .bold)
    static let success = TextStyle(foreground: .green)
    static let syncing = TextStyle(foreground: .cyan)
    static let key = TextStyle(foreground: .cyan, attributes: .bold)
    static let thumbnail = TextStyle(foreground: .brightBlack, background: .black)
    static let field = TextStyle(attributes: .underline)
}
