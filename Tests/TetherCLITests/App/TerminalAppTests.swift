import Foundation
import Testing
import TetherAPIs
import TetherHTTP
import TetherServer
import TetherTerminal
import TetherTestSupport

@testable import TetherCLI

/// The full-screen app end to end against an in-process server: keys in, frames checked as text.
@MainActor
@Suite struct TerminalAppTests {
    @Test func searchingAJapaneseKeywordShowsItemsWithYenPricesAndTheirDetail() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        #expect(harness.screen.contains("Type a keyword"))
        harness.type("ノートパソコン")
        harness.press(.enter)
        let frame = await harness.waitFor("yen prices") { $0.contains("円") && $0.contains("items") }
        #expect(frame.contains("ノートパソコン"))
        let prices = frame.split(separator: "\n").filter { $0.contains("円") }
        #expect(prices.count >= 3, "rows with prices:\n\(frame)")

        // The detail: name, price, shop, URL and the caption.
        let item = try #require(harness.app.items.items.first)
        harness.press(.enter)
        let detail = await harness.waitFor("the item's detail") { $0.contains("Shop: ") }
        #expect(detail.contains(item.price.description))
        #expect(detail.contains(String(item.itemUrl.prefix(30))))
        harness.press(.escape)
        #expect(!harness.screen.contains("Shop: "))
    }

    @Test func sortCyclesAndScrollingLoadsTheNextPage() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        harness.app.items.search("ノートパソコン")
        await harness.waitFor("30 shown")
        harness.press(.character("s"))
        #expect(harness.app.items.sort == .itemPriceAscending)
        await harness.waitFor("sort: price ↑")
        await harness.waitFor("cheapest first") { _ in
            let prices = harness.app.items.items.map(\.itemPrice)
            return prices.count == 30 && prices == prices.sorted()
        }
        for _ in 0..<30 { harness.press(.down) }
        await harness.waitFor("60 shown")
        let ids = harness.app.items.items.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func aBadSearchShowsTheServersMessageAndAnEmptyFieldAHint() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        harness.press(.enter)
        #expect(harness.screen.contains("Type a keyword, then press Enter."))
        harness.type("a")
        harness.press(.enter)
        let frame = await harness.waitFor("an error banner") { $0.contains("R retry") }
        #expect(frame.contains("keyword"))
    }

    @Test func editingNote3InItsDetailShowsInTheListAndReachesTheServer() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        let list = await harness.waitForNotes()
        let original = try #require(harness.app.notes.rows.first { $0.id == 3 }?.value?.title)
        #expect(list.contains(String(original.prefix(20))))
        harness.press(.down, .down, .enter)
        await harness.waitFor("e edit")
        harness.press(.character("e"))
        #expect(harness.app.notes.isEditingText)
        harness.press(.control("u"))
        harness.type("東京の買い物リスト")
        // The server takes its time, so the frames before its answer can be read.
        harness.writeFault.value = "latency=400ms"
        harness.press(.control("s"))
        let saving = await harness.waitFor("the optimistic edit") { $0.contains("東京の買い物リスト") }
        #expect(saving.contains("saving…"))
        harness.press(.escape)
        let listWhileSaving = harness.screen
        #expect(listWhileSaving.contains("東京の買い物リスト"))
        #expect(listWhileSaving.contains("saving…"))
        harness.press(.enter)
        await harness.waitFor("✓ saved")
        harness.press(.escape)
        let after = harness.screen
        #expect(after.contains("東京の買い物リスト"))
        #expect(!after.contains(String(original.prefix(20))))
        let saved = try await harness.serverJSON("/notes/3")
        #expect(saved["title"] as? String == "東京の買い物リスト")
    }

    /// A refused edit is kept with its error in the detail and the list (nothing typed is lost); discarding it
    /// shows the server's version again.
    @Test func aRefusedEditIsKeptVisiblyAndCanBeDiscarded() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        await harness.waitForNotes()
        let original = try #require(harness.app.notes.rows.first?.value?.title)
        harness.writeFault.value = "status=422"
        harness.press(.enter, .character("e"), .control("u"))
        harness.type("Never saved")
        harness.press(.control("s"))
        let detail = await harness.waitFor("the failure") { $0.contains("Not saved") }
        #expect(detail.contains("Never saved"))
        #expect(detail.contains("t sends it again"))
        harness.press(.escape)
        let list = harness.screen
        #expect(list.contains("✗ not saved"))
        #expect(list.contains("Never saved"))
        harness.writeFault.value = nil
        harness.press(.character("x"))
        #expect(harness.screen.contains("Discard the change?"))
        harness.press(.character("y"))
        let back = await harness.waitFor("the server's version") { !$0.contains("Never saved") }
        #expect(back.contains(original))
        #expect(!back.contains("not saved"))
    }

    @Test func aConflictShowsBothVersionsAndTheServersCanBeChosen() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        await harness.waitForNotes()
        let note = try #require(harness.app.notes.rows.first?.value)
        harness.press(.enter)
        // Opening the note loads it, and with it its ETag.
        await harness.waitFor("GET /notes/\(note.id) 200")
        // Someone else saves first.
        _ = try await harness.environment.client.send(
            Request<Data>(
                path: "/notes/\(note.id)", method: .patch,
                body: .json(["title": "Changed elsewhere"] as [String: String])))
        harness.press(.character("e"), .control("u"))
        harness.type("Mine")
        harness.press(.control("s"))
        // The server's version is fetched for the conflict, then shown beside the user's.
        let conflict = await harness.waitFor("both versions") {
            $0.contains("Server version") && $0.contains("Changed elsewhere")
        }
        #expect(conflict.contains("Your version"))
        #expect(conflict.contains("Mine"))
        #expect(conflict.contains("Changed elsewhere"))
        harness.press(.character("s"))
        await harness.waitFor("the server's version") {
            !$0.contains("Server version") && $0.contains("Changed elsewhere")
        }
    }

    @Test func addingAndDeletingANote() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        await harness.waitForNotes()
        let before = harness.app.notes.rows.count
        harness.press(.character("n"))
        harness.type("Buy 牛乳")
        harness.press(.tab)
        harness.type("Two litres")
        harness.press(.control("s"))
        await harness.waitFor("Buy 牛乳")
        await harness.waitFor("the server's id") { _ in
            harness.app.notes.rows.contains { $0.value?.title == "Buy 牛乳" && $0.id > 0 }
        }
        #expect(harness.app.notes.rows.count == before + 1)

        // Delete it: select it, d, confirm.
        let index = try #require(harness.app.notes.rows.firstIndex { $0.value?.title == "Buy 牛乳" })
        harness.press(.home)
        for _ in 0..<index { harness.press(.down) }
        harness.press(.character("d"))
        #expect(harness.screen.contains("Delete note?"))
        harness.press(.character("y"))
        await harness.waitFor("Note deleted.")
        #expect(!harness.screen.contains("Buy 牛乳"))
        #expect(harness.app.notes.rows.count == before)
    }

    /// A note the server refuses to add stays in the list with its error (the text is kept), to send again or
    /// discard.
    @Test func aRefusedAddStaysInTheListWithItsText() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        await harness.waitForNotes()
        harness.writeFault.value = "status=422"
        harness.press(.character("n"))
        harness.type("Kept")
        harness.press(.control("s"))
        await harness.waitFor("The note was not added")
        #expect(harness.app.notes.rows.contains { $0.value?.title == "Kept" && $0.writeStatus == .failed })
        harness.writeFault.value = nil
    }

    @Test func postsShowAuthorsPageAndOpenWithComments() async throws {
        let harness = try await AppHarness(screen: .posts)
        defer { Task { await harness.stop() } }
        await harness.waitFor("20 of 100 shown")
        // The authors' names replace "user N" once the users arrive.
        let list = await harness.waitFor("the authors") { !$0.contains("user 1") }
        #expect(list.contains(harness.app.posts.author(of: 1)))
        for _ in 0..<20 { harness.press(.pageDown) }
        await harness.waitFor("40 of 100 shown")
        harness.press(.home, .enter)
        let detail = await harness.waitFor("comments") { $0.contains("5 comments") }
        #expect(detail.contains("by "))
        harness.press(.escape)
        harness.press(.character("r"))
        await harness.waitFor("of 100 shown")
    }

    @Test func escapeInTheItemListNeverPutsTheKeyboardInTheSearchField() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        harness.type("ノートパソコン")
        harness.press(.enter)
        await harness.waitFor("30 shown")
        #expect(harness.app.items.focus == .list)
        harness.press(.escape)
        harness.press(.escape)
        #expect(harness.app.items.focus == .list)
        #expect(harness.app.items.field.text == "ノートパソコン")
        // So `q` quits instead of typing a "q" into the field.
        harness.press(.character("q"))
        #expect(harness.app.isFinished)
        #expect(harness.app.items.field.text == "ノートパソコン")
    }

    @Test func wideScreensShowTheListBesideTheDetail() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        harness.width = 160
        harness.height = 40
        harness.app.items.search("ノートパソコン")
        await harness.waitFor("30 shown")
        let second = try #require(harness.app.items.items.dropFirst().first)
        harness.press(.enter)
        let wide = await harness.waitFor("the item's detail") { $0.contains("Shop: ") }
        // The list stays on the left: other items' names and prices are still drawn beside the detail.
        let rows = wide.split(separator: "\n")
        #expect(rows.contains { $0.contains("Shop: ") && $0.contains("│") }, "\(wide)")
        #expect(wide.contains(String(second.itemName.prefix(8))), "\(wide)")
        #expect(rows.filter { $0.contains("円") }.count >= 5, "\(wide)")
        for row in 0..<harness.height {
            #expect(harness.app.draw(width: 160, height: 40).text(ofRow: row).terminalColumns == 160)
        }
        // Narrower, the detail takes the whole screen.
        harness.width = 100
        let narrow = harness.screen
        #expect(narrow.contains("Shop: "))
        #expect(!narrow.contains(String(second.itemName.prefix(8))), "\(narrow)")
        // Notes and posts split the same way.
        harness.width = 160
        harness.press(.tab)
        await harness.waitForNotes()
        let titles = harness.app.notes.rows.prefix(3).compactMap { $0.value?.title }
        try #require(titles.count == 3)
        harness.press(.enter)
        let noteDetail = await harness.waitFor("a note beside the list") { $0.contains("│") }
        // The open note and the list's other notes, on one screen.
        for title in titles { #expect(noteDetail.contains(title), "\(noteDetail)") }
    }

    @Test func aDetailScrollsWithinItsContent() async throws {
        let harness = try await AppHarness(screen: .posts)
        defer { Task { await harness.stop() } }
        harness.height = 12
        await harness.waitFor("20 of 100 shown")
        harness.press(.enter)
        let top = await harness.waitFor("the comments") { _ in harness.app.posts.detail?.comments.status == .loaded }
        // Far past the end, the view stops at the last screenful, and one key up moves at once.
        for _ in 0..<200 { harness.press(.down) }
        let end = harness.screen
        #expect(end != top)
        harness.press(.character("j"))
        #expect(harness.screen == end)
        harness.press(.up)
        #expect(harness.screen != end)
        harness.press(.home)
        #expect(harness.screen == top)
        harness.press(.end)
        #expect(harness.screen == end)
    }

    @Test func screensSwitchWithTabAndDigitsAndHelpListsTheKeys() async throws {
        let harness = try await AppHarness()
        defer { Task { await harness.stop() } }
        harness.press(.escape)  // leave the search field
        harness.press(.character("2"))
        #expect(harness.app.current == .notes)
        harness.press(.tab)
        #expect(harness.app.current == .posts)
        harness.press(.tab)
        #expect(harness.app.current == .items)
        harness.press(.backTab)
        #expect(harness.app.current == .posts)
        harness.press(.character("?"))
        let help = harness.screen
        #expect(help.contains("Keys"))
        #expect(help.contains("quit"))
        harness.press(.character("x"))
        #expect(!harness.screen.contains(" Keys "))
        harness.press(.character("/"))
        #expect(harness.app.current == .items)
        #expect(harness.app.items.isEditingText)
        // While typing, digits and q are text.
        harness.type("q1")
        #expect(harness.app.items.field.text == "q1")
        #expect(!harness.app.isFinished)
    }

    @Test func quittingAsksFirstOnlyWithAnUnsavedEdit() async throws {
        let harness = try await AppHarness(screen: .notes)
        defer { Task { await harness.stop() } }
        await harness.waitForNotes()
        harness.press(.character("e"))
        harness.type(" more")
        harness.press(.control("c"))
        #expect(harness.screen.contains("Quit?"))
        harness.press(.character("n"))
        #expect(!harness.app.isFinished)
        #expect(harness.app.notes.isEditingText)
        harness.press(.escape)
        #expect(harness.screen.contains("Discard changes?"))
        harness.press(.character("y"))
        harness.press(.character("q"))
        #expect(harness.app.isFinished)
    }

    @Test(arguments: [(80, 24), (200, 60), (40, 12), (1, 1)])
    func drawsAtAnySize(width: Int, height: Int) async throws {
        let harness = try await AppHarness(screen: .posts)
        defer { Task { await harness.stop() } }
        harness.width = width
        harness.height = height
        if width >= 80 { await harness.waitFor("of 100 shown") }
        let frame = harness.app.draw(width: width, height: height)
        #expect(frame.width == width && frame.height == height)
        for row in 0..<height { #expect(frame.text(ofRow: row).terminalColumns == width) }
    }

    @Test func aServerThatIsDownShowsABannerNotAHang() async throws {
        let down = try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
        let environment = try await APIEnvironment.start(APIOptions(api: down), variables: [:])
        defer { Task { await environment.stop() } }
        let context = AppContext(
            apiClient: environment.client, itemClient: environment.rakuten,
            serverDescription: environment.serverDescription)
        let app = TerminalApp(context: context, initialScreen: .notes)
        let frame = await Self.frame(of: app) { $0.contains("could not be loaded") }
        #expect(frame.contains("Notes could not be loaded"), "the screen shows:\n\(frame)")
        #expect(frame.contains("r retry"))
        app.handle(.character("3"))
        let posts = await Self.frame(of: app) { $0.contains("Posts could not be loaded") }
        #expect(posts.contains("Posts could not be loaded"))
    }

    /// Notes saved on disk by an earlier run, with the server down: the rows are shown under an offline note with
    /// the time they were saved, not under an error.
    @Test func notesRestoredFromDiskWithTheServerDownSayOfflineNotFailed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-app-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("api.sqlite")
        let server = try await TetherServerApp.start(.init(writes: .inMemory))
        do {
            let client = HTTPClient(baseURL: server.baseURL)
            let context = await AppContext.open(
                apiClient: client, itemClient: client, serverDescription: "test", apiDatabase: database,
                itemDatabase: nil)
            let app = TerminalApp(context: context, initialScreen: .notes)
            let frame = await Self.frame(of: app) {
                $0.range(of: #"[1-9][0-9]* notes"#, options: .regularExpression) != nil
            }
            #expect(!frame.contains("could not be loaded"))
            await context.store.flush()
        }
        await server.stop()
        let down = try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
        let client = HTTPClient(baseURL: down) { $0.retryPolicy = .never }
        let context = await AppContext.open(
            apiClient: client, itemClient: client, serverDescription: "test", apiDatabase: database, itemDatabase: nil)
        let app = TerminalApp(context: context, initialScreen: .notes)
        let frame = await Self.frame(of: app) { $0.contains("Offline, showing the notes saved at") }
        #expect(frame.contains("Offline, showing the notes saved at"), "the screen shows:\n\(frame)")
        #expect(!frame.contains("could not be loaded"))
    }

    /// Waits up to 60 s for a frame of `app` that satisfies `condition`, and returns the last frame. (A failing load
    /// retries with backoff first; in a full test run on a busy machine that has taken over 20 s.)
    private static func frame(of app: TerminalApp, until condition: (String) -> Bool) async -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        var frame = app.draw(width: 100, height: 24).text
        while !condition(frame), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            frame = app.draw(width: 100, height: 24).text
        }
        return frame
    }
}
