import TetherTerminal

/// The `?` overlay: every key of the app and of the current screen, in a box over the screen.
@MainActor
enum HelpOverlay {
    /// The keys that work on every screen.
    static let globalKeys: [(keys: String, action: String)] = [
        ("Tab / Shift+Tab", "next / previous screen"), ("1 2 3", "items, notes, posts"),
        ("/", "search items"), ("?", "this help (any key closes it)"), ("q / Ctrl+C", "quit"),
    ]

    static func draw(for screen: any AppScreen, into buffer: inout ScreenBuffer, in rect: Rect) {
        let sections: [(String, [(keys: String, action: String)])] = [
            ("Everywhere", globalKeys), (screen.title, screen.keyHelp),
        ]
        let keyWidth = sections.flatMap { $0.1 }.map { $0.keys.terminalColumns }.max() ?? 0
        let width = min(rect.width, max(40, min(100, rect.width - 4)))
        let actionWidth = max(1, width - 4 - keyWidth - 2)
        var lines: [[Span]] = []
        for (title, keys) in sections {
            if !lines.isEmpty { lines.append([]) }
            lines.append([Span(title, style: Theme.title.adding(.underline))])
            for entry in keys {
                let wrapped = TextLayout.wrap(entry.action, toColumns: actionWidth)
                for (index, text) in wrapped.enumerated() {
                    let key =
                        index == 0
                        ? TextLayout.pad(entry.keys, toColumns: keyWidth)
                        : String(
                            repeating: " ", count: keyWidth)
                    lines.append([Span(key, style: Theme.key), Span("  " + text)])
                }
            }
        }
        let height = min(rect.height, lines.count + 2)
        let box = Rect(
            x: rect.x + (rect.width - width) / 2, y: rect.y + max(0, (rect.height - height) / 2), width: width,
            height: height)
        buffer.fill(box)
        buffer.drawBox(box, style: Theme.title, title: " Keys ")
        for (row, line) in lines.prefix(max(0, height - 2)).enumerated() {
            buffer.draw(line, x: box.x + 2, y: box.y + 1 + row, maxColumns: box.width - 4)
        }
    }
}
