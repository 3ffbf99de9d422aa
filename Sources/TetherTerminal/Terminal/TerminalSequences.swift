/// The escape sequences a session writes when it takes over the terminal and when it gives it back.
enum TerminalSequences {
    /// The alternate screen (`ESC [?1049h`), the cursor hidden (`ESC [?25l`), bracketed paste on (`ESC [?2004h`).
    static let enter: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h".utf8)
    /// Bracketed paste off, attributes reset, the cursor shown, the main screen back.
    static let leave: [UInt8] = Array("\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
}
