import Foundation
import Testing
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTerminal

@testable import TetherCLI
@testable import TetherStore

/// `tether notes` end to end: the add, list, edit, show, rm round trip on the embedded server (whose file keeps
/// the notes between runs) and on a test server, 404s, conflicts and usage errors.
@Suite struct NotesCommandTests {
    @Test func aRoundTripOnTheEmbeddedServerLastsAcrossRuns() async throws {
        let sandbox = try APISandbox(columns: 80)
        let added = await sandbox.run("notes", "add", "--title", "買い物リスト", "--body", "牛乳\n卵", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let note = try JSONParser().parse(Array(added.stdout.utf8))
        let id = try #require(note["id"].number?.int)
        #expect(note["title"].string == "買い物リスト")
        #expect(note["updatedAt"].string?.hasSuffix("Z") == true)

        // Another run (another embedded server) lists it.
        let listed = await sandbox.run("notes", "list")
        #expect(listed.status == 0)
        let row = try #require(
            lines(listed.stdout).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(id)  ") })
        #expect(row.contains("買い物リスト"))
        #expect(row.contains("牛乳"))
        #expect(!row.contains("卵"))
        #expect(lines(listed.stdout).first?.wholeMatch(of: #/ ?ID  TITLE +BODY +UPDATED/#) != nil)

        let edited = await sandbox.run("notes", "edit", String(id), "--title=Groceries")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(lines(edited.stdout).first == "Note \(id): Groceries")

        let shown = await sandbox.run("notes", "show", String(id))
        #expect(shown.status == 0)
        let shownLines = lines(shown.stdout)
        #expect(shownLines.first == "Note \(id): Groceries")
        #expect(shownLines[1].wholeMatch(of: /updated [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC/) != nil)
        #expect(Array(shownLines.suffix(2)) == ["牛乳", "卵"])

        let removed = await sandbox.run("notes", "rm", String(id))
        #expect(removed.status == 0)
        #expect(removed.stdout == "Deleted note \(id).\n")
        let again = await sandbox.run("notes", "rm", String(id))
        #expect(again.status == 1)
        #expect(again.stderr == "tether: note \(id) does not exist\n")
        let gone = await sandbox.run("notes", "show", String(id))
        #expect(gone.stderr == "tether: note \(id) does not exist\n")
    }

    @Test func editSendsOnlyTheGivenFieldsToAnAPI() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            let before = try JSONParser().parse(
                Array(await sandbox.run("notes", "show", "3", "--json", "--api", base).stdout.utf8))
            let edited = await sandbox.run("notes", "edit", "3", "--body", "new body", "--json", "--api", base)
            #expect(edited.status == 0, "\(edited.stderr)")
            let after = try JSONParser().parse(Array(edited.stdout.utf8))
            #expect(after["title"] == before["title"])
            #expect(after["body"].string == "new body")
            #expect(after["updatedAt"] != before["updatedAt"])
            // The server has it.
            let fetched = try JSONParser().parse(Array(await sandbox.run("get", "\(base)/notes/3").stdout.utf8))
            #expect(fetched["body"].string == "new body")
        }
    }

    @Test func listPrintsJSONAndFitsNarrowTerminals() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox(columns: 40)
            let json = await sandbox.run("notes", "list", "--json", "--api", base)
            let notes = try #require(try JSONParser().parse(Array(json.stdout.utf8)).array)
            #expect(notes.count == 20)
            let table = await sandbox.run("notes", "list", "--api", base)
            #expect(lines(table.stdout).count == 21)
            #expect(lines(table.stdout).allSatisfy { $0.terminalColumns <= 40 && !$0.hasSuffix(" ") })
        }
    }

    @Test func missingNotesAreFailures() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            for arguments in [["show", "42"], ["edit", "42", "--title", "x"], ["rm", "42"]] {
                let result = await sandbox.run(arguments: ["notes"] + arguments + ["--api", base])
                #expect(result.status == 1)
                #expect(result.stdout.isEmpty)
                #expect(result.stderr == "tether: note 42 does not exist\n")
            }
        }
    }

    @Test func anEditLosesToAChangeMadeSinceItsRead() async throws {
        // A server where someone else changes the note just before each PATCH arrives: the edit's If-Match
        // (the ETag of its GET) no longer holds.
        let database = try JSONDatabase(BuiltInDataSet.make(), mode: .inMemory)
        let server = HTTPServer(responders: [ChangesBeforePatch(rest: JSONServerResponder(database: database))])
        let port = try await server.start()
        let sandbox = try APISandbox()
        let result = await sandbox.run("notes", "edit", "3", "--title", "mine", "--api", "http://127.0.0.1:\(port)")
        await server.stop()
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "tether: note 3 changed on the server while it was being edited; edit it again\n")
        let notes = try #require(database.json["notes"].array)
        #expect(notes.first { $0["id"].number?.int == 3 }?["title"].string == "theirs")
    }

    @Test func anEmptyListIsAFriendlyLine() async throws {
        let database = try JSONDatabase(["notes": [], "posts": [], "users": []])
        let app = try await TetherServerApp.start(.init(data: .database(database)))
        let sandbox = try APISandbox()
        let notes = await sandbox.run("notes", "list", "--api", app.baseURL.absoluteString)
        let posts = await sandbox.run("posts", "list", "--api", app.baseURL.absoluteString)
        let json = await sandbox.run("notes", "list", "--json", "--api", app.baseURL.absoluteString)
        await app.stop()
        #expect(notes.status == 0)
        #expect(notes.stdout == "No notes yet. Add one with: tether notes add --title <title> --body <text>\n")
        #expect(posts.stdout == "No posts.\n")
        #expect(json.stdout == "[]\n")
    }

    @Test(arguments: [
        (["notes"], "missing the subcommand"),
        (["notes", "delete", "1"], "unknown subcommand 'delete' for 'tether notes'"),
        (["notes", "edit", "3"], "nothing to change: give --title, --body or both"),
        (["notes", "edit", "--title", "x"], "missing the id of the note"),
        (["notes", "add", "--body", "x"], "missing --title for the new note"),
        (["notes", "add", "Groceries"], "unexpected argument 'Groceries'"),
        (["notes", "add", "--title", " "], "a note's title cannot be empty"),
        (["notes", "edit", "2", "--title="], "a note's title cannot be empty"),
        (["notes", "rm", "x"], "invalid note id 'x'"),
        (["notes", "rm", "1", "--json"], "unknown option '--json' for 'tether notes rm'"),
        (["notes", "list", "--api", "http://"], "invalid URL 'http://' for '--api'"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(lines(result.stderr).count == 1)
        #expect(!FileManager.default.fileExists(atPath: sandbox.databaseFile.path))
    }

    @Test func aWriteToAServerThatIsDownIsKeptAndSentByTetherSync() async throws {
        let sandbox = try APISandbox()
        let closed = try await closedServerURL()
        let result = await sandbox.run("notes", "add", "--title", "kept 保存", "--api", closed)
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot connect to the server"), "\(result.stderr)")
        #expect(result.stderr.contains("'tether sync'"), "\(result.stderr)")
        #expect(lines(result.stderr).count == 1)
        let listed = await sandbox.run("sync", "--list", "--api", closed)
        #expect(listed.status == 1)
        #expect(listed.stdout.contains("POST /notes queued"), "\(listed.stdout)")
        #expect(listed.stdout.contains("    new note \"kept 保存\""), "\(listed.stdout)")
        #expect(listed.stdout.hasSuffix("1 waiting\n"))
        let stillDown = await sandbox.run("sync", "--api", closed)
        #expect(stillDown.status == 1)
        #expect(stillDown.stdout.contains("waiting  #1 POST /notes"), "\(stillDown.stdout)")

        // The same API comes back (a server on the same port is not guaranteed, so the outbox is read for
        // another --api by copying it: the database is per API URL).
        let database = try JSONDatabase(BuiltInDataSet.make(), mode: .inMemory)
        let app = try await TetherServerApp.start(.init(data: .database(database)))
        defer { Task { await app.stop() } }
        let base = app.baseURL.absoluteString
        let variables = sandbox.variables
        let from = try #require(
            APIEnvironment.storeDatabaseURL(APIOptions(api: URL(string: closed)), variables: variables))
        let to = try #require(APIEnvironment.storeDatabaseURL(APIOptions(api: app.baseURL), variables: variables))
        try FileManager.default.copyItem(at: from, to: to)
        let sent = await sandbox.run("sync", "--api", base)
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stdout.contains("sent     #1 POST /notes"), "\(sent.stdout)")
        #expect(sent.stdout.hasSuffix("nothing is waiting\n"))
        let notes = try #require(database.json["notes"].array)
        #expect(notes.filter { $0["title"].string == "kept 保存" }.count == 1)
        let again = await sandbox.run("sync", "--api", base)
        #expect(again.status == 0)
        #expect(again.stdout == "nothing is waiting\n")
    }

    /// `sync --list` says what each waiting write changes: the entity, its title, and for an edit the fields that
    /// differ from the server's version the database knows.
    @Test func syncListSaysWhatEachWaitingWriteChanges() async throws {
        let sandbox = try APISandbox()
        let closed = try await closedServerURL()
        #expect(await sandbox.run("notes", "edit", "3", "--title", "renamed 改名", "--api", closed).status == 3)
        #expect(await sandbox.run("notes", "rm", "2", "--api", closed).status == 3)
        let listed = await sandbox.run("sync", "--list", "--api", closed)
        #expect(listed.status == 1)
        let output = lines(listed.stdout)
        #expect(output.count == 5, "\(listed.stdout)")
        #expect(output.first?.hasPrefix("#1 PATCH /notes/3 queued") == true)
        #expect(output.dropFirst().first == "    note 3 \"renamed 改名\": changes title, updatedAt")
        #expect(output.dropFirst(3).first == "    deletes note 2")
    }

    @Test func aWaitingEditIsDescribedByTheFieldsThatDifferFromTheServersVersion() throws {
        let entry = OutboxEntry(
            id: 7, entityType: "TetherAPIs.Note", entityID: "3", collectionPath: "/notes", kind: .update,
            method: "PATCH", idempotencyKey: "k", createdAt: Date(), attempts: 0, state: .queued, lastError: nil,
            lastStatus: nil,
            value: Data(#"{"id": 3, "title": "Groceries\nand more", "body": "milk", "done": true}"#.utf8))
        let server = Data(#"{"id": 3, "title": "Groceries", "body": "milk", "done": false}"#.utf8)
        #expect(SyncCommand.describeChange(entry, server: server) == "note 3 \"Groceries\": changes title, done")
        #expect(SyncCommand.describeChange(entry, server: nil) == "note 3 \"Groceries\": changes title, body, done")
        var delete = entry
        delete.kind = .delete
        delete.value = nil
        #expect(SyncCommand.describeChange(delete, server: server) == "deletes note 3 \"Groceries\"")
    }

    @Test func writesUnderConnectionResetsTellTheTruthAndAreAppliedOnce() async throws {
        // Half of all requests are reset after the server handled them (the write applied, its answer lost).
        // Each command exits 0 (the server has it) or 3 (kept): never 1 for a write the server applied, and after
        // `tether sync` every write is there exactly once.
        let database = try JSONDatabase(BuiltInDataSet.make(), mode: .inMemory)
        let app = try await TetherServerApp.start(
            .init(data: .database(database), faults: FaultConfiguration(resetRate: 0.5, seed: 12)))
        defer { Task { await app.stop() } }
        let sandbox = try APISandbox()
        let base = app.baseURL.absoluteString
        let before = try #require(database.json["notes"].array)
        var statuses: [Int32] = []
        for index in 0..<8 {
            statuses.append(await sandbox.run("notes", "add", "--title", "reset \(index)", "--api", base).status)
        }
        statuses.append(await sandbox.run("notes", "edit", "2", "--title", "edited once", "--api", base).status)
        statuses.append(await sandbox.run("notes", "rm", "3", "--api", base).status)
        #expect(statuses.allSatisfy { $0 == 0 || $0 == 3 }, "\(statuses)")
        var synced = false
        for _ in 0..<10 where !synced {
            synced = await sandbox.run("sync", "--api", base).status == 0
        }
        #expect(synced)
        let notes = try #require(database.json["notes"].array)
        for index in 0..<8 {
            #expect(notes.filter { $0["title"].string == "reset \(index)" }.count == 1, "reset \(index)")
        }
        #expect(notes.count == before.count + 8 - 1)
        #expect(notes.first { $0["id"].number?.int == 2 }?["title"].string == "edited once")
        #expect(!notes.contains { $0["id"].number?.int == 3 })
    }

    @Test func helpListsEverySubcommand() async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run("notes", "add", "--help")
        #expect(result.status == 0)
        for usage in ["notes list", "notes show <id>", "notes add --title", "notes edit <id>", "notes rm <id>"] {
            #expect(result.stdout.contains("tether \(usage)"))
        }
        let overview = await sandbox.run("--help")
        for command in ["items search <keyword>", "posts list|show", "notes list|show|add|edit|rm"] {
            #expect(overview.stdout.contains("  \(command)"))
        }
    }
}

/// Forwards to the REST responder, but first applies another client's PATCH to the same note.
private struct ChangesBeforePatch: HTTPResponder {
    let rest: JSONServerResponder

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        if request.method == .patch {
            let theirs = HTTPRequest(
                method: .patch, target: request.target, headers: ["Content-Type": "application/json"],
                body: Array(#"{"title": "theirs"}"#.utf8))
            _ = await rest.respond(to: theirs)
        }
        return await rest.respond(to: request)
    }
}
