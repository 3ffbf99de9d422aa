import TetherTerminal

/// One screen of the full-screen app (items, notes, posts): its state, its keys and its drawing.
///
/// Screens live on the main actor with the store they show. ``TerminalApp`` routes keys to the current screen
/// first; a screen returns `false` for keys it does not use, so the app's own keys (Tab, `1`-`3`, `?`, `q`)
/// work everywhere except while ``isEditingText`` is true, when the text field or editor gets every printable
/// key.
@MainActor
protocol AppScreen: AnyObject {
    /// The name in the tab bar.
    var title: String { get }
    /// The keys this screen understands, for the help overlay: `("e", "edit the note")`.
    var keyHelp: [(keys: String, action: String)] { get }
    /// Whether a text field or editor has the keyboard.
    var isEditingText: Bool { get }
    /// Whether quitting now would lose text the user typed and has not saved.
    var hasUnsavedInput: Bool { get }
    /// Whether something is loading or saving, so spinners should move.
    var isBusy: Bool { get }

    /// Called each time the screen is shown; the first call starts its loads.
    func appear()
    /// Handles a key; returns whether it was used.
    func handle(_ key: Key) -> Bool
    /// Draws the screen into `rect` of `buffer`.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect)
}
