import Observation
import TetherTerminal

/// The full-screen app's state and behaviour, apart from any terminal: keys in, frames out.
///
/// ```swift
/// @testable import TetherCLI
/// import Foundation
/// import TetherHTTP
///
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
/// let context = AppContext(apiClient: client, itemClient: client, serverDescription: "127.0.0.1:3000")
/// let app = TerminalApp(context: context)
/// app.handle(.character("2"))                 // the notes screen
/// let frame = app.draw(width: 80, height: 24)  // what the terminal shows
/// ```
///
/// ``TerminalAppRunner`` connects it to a real terminal; tests drive it directly. Main actor only. Drawing reads
/// observable state (the stores', the screens' and its own), so a runner that draws inside `withObservationTracking` learns when to draw again.
@MainActor
@Observable
final class TerminalApp {
    /// The screens, in tab order.
    enum ScreenID: Int, CaseIterable, Sendable {
        case items, notes, posts
    }

    @ObservationIgnored let context: AppContext
    @ObservationIgnored let items: ItemsScreen
    @ObservationIgnored let notes: NotesScreen
    @ObservationIgnored let posts: PostsScreen

    /// The screen shown.
    private(set) var current: ScreenID
    /// The `?` overlay while it is open.
    private(set) var help: KeyHelp?
    /// The screen area at the last draw, where the overlay is laid out.
    @ObservationIgnored private var bodyRect = Rect(x: 0, y: 1, width: 80, height: 22)

    /// The keys that work on every screen.
    static let globalKeys: [KeyHelp.Entry] = [
        .init("Tab / Shift+Tab", "next / previous screen"), .init("1 2 3", "items, notes, posts"),
        .init("/", "search items"), .init("?", "this help (arrows scroll it, any other key closes it)"),
        .init("Ctrl+Z", "suspend to the shell (fg returns)"), .init("q / Ctrl+C", "quit"),
    ]

    /// Whether the help overlay is open.
    var showsHelp: Bool { help != nil }
    /// The question asked before quitting with unsaved text, while it is open.
    private var quitDialog: ConfirmDialog?
    /// Whether the user has quit.
    private(set) var isFinished = false

    init(context: AppContext, initialScreen: ScreenID = .items, initialSearch: String? = nil) {
        self.context = context
        items = ItemsScreen(context: context)
        notes = NotesScreen(context: context)
        posts = PostsScreen(context: context)
        current = initialScreen
        if let initialSearch { items.search(initialSearch) }
        screen(initialScreen).appear()
    }

    /// The screen for `id`.
    func screen(_ id: ScreenID) -> any AppScreen {
        switch id {
        case .items: items
        case .notes: notes
        case .posts: posts
        }
    }

    /// Whether any screen is loading or saving (spinners should move).
    var isBusy: Bool {
        ScreenID.allCases.contains { screen($0).isBusy } || context.activity.inFlight > 0
    }

    /// Shows screen `id`.
    func show(_ id: ScreenID) {
        current = id
        screen(id).appear()
    }

    /// Handles one key: dialogs first, then the current screen, then the app's own keys.
    func handle(_ key: Key) {
        if var dialog = quitDialog {
            switch dialog.handle(key) {
            case .confirmed?: isFinished = true
            case .cancelled?: quitDialog = nil
            case nil: quitDialog = dialog
            }
            return
        }
        if var open = help {
            if open.handle(key, in: bodyRect) {
                help = open
                return
            }
            help = nil
            if key == .character("q") || key == .control("c") { requestQuit() }
            return
        }
        if key == .control("c") {
            requestQuit()
            return
        }
        let screen = screen(current)
        if screen.handle(key) { return }
        if screen.isEditingText { return }
        switch key {
        case .tab: show(ScreenID(rawValue: (current.rawValue + 1) % ScreenID.allCases.count) ?? .items)
        case .backTab:
            let count = ScreenID.allCases.count
            show(ScreenID(rawValue: (current.rawValue + count - 1) % count) ?? .items)
        case .character("1"): show(.items)
        case .character("2"): show(.notes)
        case .character("3"): show(.posts)
        case .character("/"):
            show(.items)
            items.focusSearch()
        case .character("?"), .function(1):
            help = KeyHelp(sections: [
                .init("Everywhere", Self.globalKeys),
                .init(screen.title, screen.keyHelp.map { KeyHelp.Entry($0.keys, $0.action) }),
            ])
        case .character("q"): requestQuit()
        default: break
        }
    }

    /// Quits, or asks first when a screen holds unsaved text.
    private func requestQuit() {
        let waiting = context.store.outboxStatus.count
        if ScreenID.allCases.contains(where: { screen($0).hasUnsavedInput }) {
            quitDialog = ConfirmDialog(
                title: "Quit?", message: "You have an unsaved edit. Quit and lose it?", confirmLabel: "Quit",
                cancelLabel: "Keep editing")
        } else if waiting > 0 {
            let changes = waiting == 1 ? "1 change is" : "\(waiting) changes are"
            quitDialog = ConfirmDialog(
                title: "Quit?",
                message:
                    "\(changes) not on the server yet. They are kept on this device and sent at the next launch (or by 'tether sync').",
                confirmLabel: "Quit", cancelLabel: "Stay")
        } else {
            isFinished = true
        }
    }

    /// Draws the whole frame at `width` × `height`.
    func draw(width: Int, height: Int) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: width, height: height)
        guard width > 0, height > 0 else { return buffer }
        let (tabBar, rest) = buffer.bounds.split(top: 1)
        let (body, statusBar) = rest.split(bottom: 1)
        drawTabBar(into: &buffer, in: tabBar)
        screen(current).draw(into: &buffer, in: body)
        drawStatusBar(into: &buffer, in: statusBar)
        bodyRect = body
        help?.draw(into: &buffer, in: body)
        if let quitDialog {
            let cursor = buffer.cursor
            quitDialog.draw(into: &buffer, in: body)
            if buffer.cursor == nil { buffer.cursor = cursor }
        }
        return buffer
    }

    private func drawTabBar(into buffer: inout ScreenBuffer, in rect: Rect) {
        buffer.fill(rect, style: Theme.tab)
        var x = rect.x
        x += buffer.draw(" Tether ", x: x, y: rect.y, style: Theme.tab.adding(.bold))
        for id in ScreenID.allCases {
            let label = " \(id.rawValue + 1) \(screen(id).title) "
            x += buffer.draw(label, x: x, y: rect.y, style: id == current ? Theme.currentTab : Theme.tab)
        }
        let hint = " ? help  q quit "
        let hintX = rect.maxX - hint.terminalColumns
        if hintX > x { buffer.draw(hint, x: hintX, y: rect.y, style: Theme.tab) }
    }

    private func drawStatusBar(into buffer: inout ScreenBuffer, in rect: Rect) {
        let activity = context.activity
        var right: [Span] = []
        if activity.inFlight > 0 {
            let plural = activity.inFlight == 1 ? "request" : "requests"
            right.append(Span("\(Spinner().frame(tick: context.tick)) \(activity.inFlight) \(plural) "))
        } else if let last = activity.lastRequest {
            // The server in use matters more than the last request: the request line gets at most half the bar.
            right.append(Span(TextLayout.truncate(last, toColumns: max(10, rect.width / 2 - 1)) + " "))
        }
        var left = [Span(" ● " + context.serverDescription)]
        let outbox = context.store.outboxStatus
        if outbox.isOffline { left.append(Span(" · offline", style: Theme.warning)) }
        if outbox.count > 0 {
            let failed = outbox.failedCount > 0 ? ", \(outbox.failedCount) not saved" : ""
            left.append(Span(" · \(outbox.count) waiting to send\(failed)", style: Theme.warning))
        }
        if outbox.databaseProblem != nil { left.append(Span(" · no local database", style: Theme.error)) }
        StatusBar(left: left, right: right).draw(into: &buffer, in: rect)
    }
}
