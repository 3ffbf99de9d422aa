import Foundation
import Testing
import TetherAPIs
import TetherServer
import TetherSync

/// The real `tether` binary in a real terminal emulator (tmux): the full-screen app as a user sees it.
///
/// Skipped where tmux or the built `tether` is missing (`swift test` builds it; CI has tmux).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux and the built tether executable"))
struct TmuxAppTests {
    /// A shell command line that runs tether with a private data folder and records the terminal settings
    /// before and after, so a test can check that quitting restored them. The shell lingers after its last line:
    /// tmux may mark a pane dead before it has drawn the output its program wrote just before exiting.
    private static func command(_ arguments: String, folder: URL) -> String {
        let tether = TmuxSession.tether ?? "tether"
        let data = folder.path
        return "stty -g > '\(data)/before'; XDG_DATA_HOME='\(data)' XDG_CACHE_HOME='\(data)/cache' TERM=xterm-256color"
            + " '\(tether)' \(arguments);"
            + " echo \"exit $?\" > '\(data)/status'; stty -g > '\(data)/after'; echo TETHER-DONE; sleep 3"
    }

    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A server that outlived its test would keep the test runner's descriptors (and CI's pipes) open: tmux
    /// started from a concurrency thread inherits its blocked signals and then never reaps its program.
    @Test func theServerEndsWhenAsked() async throws {
        let tmux = try TmuxSession("sleep 60", width: 40, height: 10)
        try await tmux.waitFor("the window") { _ in true }
        #expect(await tmux.stop(), "the tmux server was still running 5 s after kill-server")
    }

    @Test func searchingShowsYenPricesAndQuittingRestoresTheTerminal() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try TmuxSession(Self.command("", folder: folder), width: 100, height: 30)
        try await tmux.waitFor("Type a keyword")
        try tmux.send("ノートパソコン", literally: true)
        try tmux.send("Enter")
        let results = try await tmux.waitFor("yen prices") { $0.contains("円") && $0.contains("30 shown") }
        #expect(results.contains("ノートパソコン"))
        #expect(results.contains("embedded 127.0.0.1"))

        // A resize redraws at the new size.
        try tmux.resize(width: 140, height: 40)
        let wide = try await tmux.waitFor("the wider frame") { screen in
            screen.split(separator: "\n").contains { $0.hasSuffix("q quit") && $0.count > 110 }
        }
        #expect(wide.contains("円"))

        try tmux.send("q")
        let after = try await tmux.waitFor("TETHER-DONE")
        #expect(!after.contains("30 shown"), "the alternate screen was left")
        let status = try String(contentsOf: folder.appendingPathComponent("status"), encoding: .utf8)
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "exit 0")
        let before = try String(contentsOf: folder.appendingPathComponent("before"), encoding: .utf8)
        let restored = try String(contentsOf: folder.appendingPathComponent("after"), encoding: .utf8)
        #expect(before == restored, "stty settings after quitting differ")
    }

    @Test func editingNote3ShowsInTheListAndTheServerHasIt() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TetherServerApp.start(.init(writes: .inMemory))
        let tmux = try TmuxSession(
            Self.command("--screen notes --api \(server.baseURL.absoluteString)", folder: folder), width: 90, height: 26
        )
        try await tmux.waitFor("notes ")
        try tmux.send("Down", "Down", "Enter")
        try await tmux.waitFor("e edit")
        try tmux.send("e")
        try tmux.send("C-u")
        try tmux.send("メモ三番 renamed", literally: true)
        try tmux.send("C-s")
        try await tmux.waitFor("✓ saved")
        try tmux.send("Escape")
        let list = try await tmux.waitFor("メモ三番 renamed")
        #expect(list.contains("notes"))
        let note = try await HTTPClient(baseURL: server.baseURL).send(Request<Note>(path: "/notes/3")).value
        #expect(note.title == "メモ三番 renamed")

        // The posts list pages as it scrolls.
        try tmux.send("3")
        try await tmux.waitFor("20 of 100 shown")
        for _ in 0..<12 { try tmux.send("PageDown") }
        try await tmux.waitFor("more pages") { $0.contains(" of 100 shown") && !$0.contains("20 of 100 shown") }
        try tmux.send("C-c")
        try await tmux.waitFor("TETHER-DONE")
        await server.stop()
    }

    @Test func anEditMadeWithTheServerDownIsKeptAcrossRestartsAndArrivesOnce() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let patches = RequestCounter()
        var server = try await TetherServerApp.start(
            .init(writes: .inMemory, accessLog: { line in if line.hasPrefix("PATCH /notes/3 ") { patches.add() } }))
        let port = server.port
        let api = "--screen notes --api http://127.0.0.1:\(port)"

        // 1. Online: the list loads (and is saved on disk). Then the server goes away and note 3 is edited.
        do {
            let tmux = try TmuxSession(Self.command(api, folder: folder), width: 100, height: 26)
            // "0 notes" is the header before the first load: wait for the loaded list.
            try await tmux.waitFor("the notes") {
                $0.range(of: #"[1-9][0-9]* notes"#, options: .regularExpression) != nil
            }
            await server.stop()
            try tmux.send("Down", "Down", "Enter")
            try await tmux.waitFor("e edit")
            try tmux.send("e")
            try tmux.send("C-u")
            try tmux.send("メモ三番 offline", literally: true)
            try tmux.send("C-s")
            let waiting = try await tmux.waitFor("waiting to send") { $0.contains("⏸ waiting to send") }
            #expect(waiting.contains("1 waiting to send"))
            #expect(waiting.contains("offline"))
            try tmux.send("Escape")
            try await tmux.waitFor("the edit in the list") { $0.contains("メモ三番 offline") }
            // Quitting says the change is kept.
            try tmux.send("q")
            try await tmux.waitFor("the quit question") { $0.contains("not on the server yet") }
            try tmux.send("y")
            try await tmux.waitFor("TETHER-DONE")
            _ = await tmux.stop()
        }

        // 2. A restart with the server still down shows the last known list, with the edit, from disk.
        do {
            let tmux = try TmuxSession(Self.command(api, folder: folder), width: 100, height: 26)
            let screen = try await tmux.waitFor("the list from disk") { $0.contains("メモ三番 offline") }
            #expect(screen.contains("1 waiting to send"))
            let banner = try await tmux.waitFor("the offline note") { $0.contains("Offline, showing the notes saved") }
            #expect(!banner.contains("could not be loaded"))
            try tmux.send("q")
            try await tmux.waitFor("the quit question") { $0.contains("not on the server yet") }
            try tmux.send("y")
            try await tmux.waitFor("TETHER-DONE")
            _ = await tmux.stop()
        }
        #expect(patches.count == 0)

        // 3. The server is back (on the same address): the next launch sends the edit, once.
        server = try await TetherServerApp.start(
            .init(
                writes: .inMemory, port: port,
                accessLog: { line in if line.hasPrefix("PATCH /notes/3 ") { patches.add() } }))
        do {
            let tmux = try TmuxSession(Self.command(api, folder: folder), width: 100, height: 26)
            try await tmux.waitFor("the edit sent") { !$0.contains("waiting to send") && $0.contains("メモ三番 offline") }
            let note = try await HTTPClient(baseURL: server.baseURL).send(Request<Note>(path: "/notes/3")).value
            #expect(note.title == "メモ三番 offline")
            try tmux.send("q")
            try await tmux.waitFor("TETHER-DONE")
            _ = await tmux.stop()
        }
        #expect(patches.count == 1)
        await server.stop()
    }

    @Test func theItemListShowsHalfBlockThumbnailsInColour() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Colours on whatever the test runner's environment says (NO_COLOR would turn the pictures off).
        let tmux = try TmuxSession("unset NO_COLOR; " + Self.command("", folder: folder), width: 100, height: 30)
        try await tmux.waitFor("Type a keyword")
        try tmux.send("カメラ", literally: true)
        try tmux.send("Enter")
        try await tmux.waitFor("yen prices") { $0.contains("円") && $0.contains("30 shown") }
        // Each row's thumbnail: six columns of upper half blocks over three rows, in 256 colours (tmux writes
        // only the colours that change from one cell to the next).
        func pictureRows(_ screen: String) -> [Substring] {
            screen.split(separator: "\n").filter { $0.count { $0 == "▀" } >= 6 && $0.contains("48;5;") }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        var colored = try tmux.coloredScreen()
        while pictureRows(colored).count < 9, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            colored = try tmux.coloredScreen()
        }
        let rows = pictureRows(colored)
        #expect(rows.count >= 9, "fewer than three thumbnails")
        // The picture has colours of its own, not one flat placeholder.
        let colours = Set(rows.flatMap { $0.components(separatedBy: "38;5;").dropFirst().map { $0.prefix(3) } })
        #expect(colours.count >= 3)
        try tmux.send("q")
        try await tmux.waitFor("TETHER-DONE")
        #expect(await tmux.stop())
    }
}

/// Counts lines of an access log, from the server's threads.
final class RequestCounter: Sendable {
    private let value = Locked(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
