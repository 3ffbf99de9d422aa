import Foundation
import Testing
import TetherAPIs
import TetherHTTP
import TetherJSON
import TetherServer
import TetherSync

@testable import TetherCLI

/// `APIOptions` (the shared `--api` and Rakuten options) and `APIEnvironment` (the clients, the embedded server
/// and its file).
@Suite struct APIEnvironmentTests {
    // MARK: - Options

    @Test func readsBothSpellingsAndLeavesTheRest() throws {
        var arguments = [
            "search", "--api", "http://127.0.0.1:3000/", "ノートパソコン", "--rakuten-app-id=123",
            "--rakuten-base=https://example.test:8443", "--json",
        ]
        let options = try APIOptions.parse(&arguments, environment: [:])
        #expect(options.api == URL(string: "http://127.0.0.1:3000"))
        #expect(options.rakutenApplicationID == "123")
        #expect(options.rakutenBase == URL(string: "https://example.test:8443"))
        #expect(arguments == ["search", "ノートパソコン", "--json"])
    }

    @Test func theApplicationIDComesFromTheEnvironmentUnlessGiven() throws {
        var none: [String] = []
        #expect(try APIOptions.parse(&none, environment: ["RAKUTEN_APP_ID": "env-id"]).rakutenApplicationID == "env-id")
        #expect(try APIOptions.parse(&none, environment: ["RAKUTEN_APP_ID": ""]).rakutenApplicationID == nil)
        var given = ["--rakuten-app-id", "option-id"]
        #expect(
            try APIOptions.parse(&given, environment: ["RAKUTEN_APP_ID": "env-id"]).rakutenApplicationID == "option-id")
        #expect(given.isEmpty)
    }

    @Test func argumentsAfterTheEndOfOptionsStay() throws {
        var arguments = ["show", "--", "--api", "x"]
        let options = try APIOptions.parse(&arguments, environment: [:])
        #expect(options == APIOptions())
        #expect(arguments == ["show", "--", "--api", "x"])
    }

    @Test(arguments: ["localhost:3000", "ftp://example.test", "http://", "/posts", "", "http:///x"])
    func invalidURLsAreUsageErrors(url: String) {
        var arguments = ["--api", url]
        #expect(throws: CLIError.self) { try APIOptions.parse(&arguments, environment: [:]) }
        do {
            _ = try APIOptions.parse(&arguments, environment: [:], command: "tether notes")
        } catch {
            #expect(error.exitCode == 2)
            #expect(error.message.contains("invalid URL '\(url)' for '--api'"))
            #expect(error.message.hasSuffix("see 'tether notes --help'\n"))
        }
    }

    @Test func aMissingValueIsAUsageError() {
        var arguments = ["list", "--rakuten-base"]
        #expect(throws: CLIError.usage("option '--rakuten-base' needs a value", hint: "tether --help")) {
            try APIOptions.parse(&arguments, environment: [:])
        }
    }

    // MARK: - The database file

    @Test func theDatabaseFileFollowsXDG() {
        #expect(
            APIEnvironment.databaseFile(variables: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])?.path
                == "/data/tether/embedded-db.json")
        #expect(
            APIEnvironment.databaseFile(variables: ["HOME": "/home/a"])?.path
                == "/home/a/.local/share/tether/embedded-db.json")
        // A relative XDG_DATA_HOME is ignored, as the specification says.
        #expect(
            APIEnvironment.databaseFile(variables: ["XDG_DATA_HOME": "rel", "HOME": "/home/a"])?.path
                == "/home/a/.local/share/tether/embedded-db.json")
        #expect(APIEnvironment.databaseFile(variables: ["HOME": "/home/a", "TETHER_EPHEMERAL": "1"]) == nil)
        #expect(APIEnvironment.databaseFile(variables: [:]) == nil)
    }

    // MARK: - Environments

    @Test func anAPIOptionNeedsNoEmbeddedServer() async throws {
        let options = APIOptions(api: URL(string: "http://127.0.0.1:9"))
        let environment = try await APIEnvironment.start(options, variables: [:])
        #expect(environment.embeddedServer == nil)
        #expect(environment.serverDescription == "http://127.0.0.1:9")
        #expect(environment.client.baseURL == URL(string: "http://127.0.0.1:9"))
        #expect(environment.rakuten.baseURL == URL(string: "http://127.0.0.1:9"))
        await environment.stop()
    }

    @Test func anApplicationIDSendsSearchesToRakuten() async throws {
        let options = APIOptions(api: URL(string: "http://127.0.0.1:9"), rakutenApplicationID: "123")
        let environment = try await APIEnvironment.start(options, variables: [:])
        #expect(environment.rakuten.baseURL == HTTPClient.rakutenBaseURL)
        #expect(environment.rakutenDescription == "Rakuten app.rakuten.co.jp")
        #expect(environment.serverDescription == "http://127.0.0.1:9 · Rakuten app.rakuten.co.jp")
        await environment.stop()
    }

    @Test func theEmbeddedServerKeepsWritesInItsFile() async throws {
        let sandbox = try APISandbox()
        let first = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        let server = try #require(first.embeddedServer)
        #expect(first.serverDescription == "embedded 127.0.0.1:\(server.port)")
        let created = try await first.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "Kept", "body": "across runs"])))
        await first.stop()
        #expect(FileManager.default.fileExists(atPath: sandbox.databaseFile.path))

        let second = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        let read = try await second.client.send(Request<Note>(path: "/notes/\(created.value.id)"))
        #expect(read.value.title == "Kept")
        // The item search of the embedded server answers without an application id of the user's.
        var search = RakutenItemSearch(keyword: "ノートパソコン")
        search.hits = 1
        let page = try await second.rakuten.send(search.request())
        #expect(page.value.items.count == 1)
        await second.stop()
    }

    /// Two runs serving the file at once each loaded it and wrote it whole, so the later write dropped the other's
    /// note. Now the second waits for the first to finish.
    @Test func twoRunsAtOnceTakeTurnsWithTheFile() async throws {
        let sandbox = try APISandbox()
        let variables = sandbox.variables
        let first = try await APIEnvironment.start(APIOptions(), variables: variables, sharesServer: false)
        _ = try await first.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "Zero", "body": ""])))
        let secondStarted = Locked(false)
        let go = Locked(false)
        let second = Task {
            let environment = try await APIEnvironment.start(APIOptions(), variables: variables, sharesServer: false)
            secondStarted.withLock { $0 = true }
            while !go.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            _ = try await environment.client.send(
                Request<Note>(path: "/notes", method: .post, body: .json(["title": "Second", "body": ""])))
            await environment.stop()
        }
        // Give a second run that does not wait the time to load the file before the first writes again.
        let deadline = ContinuousClock.now + .seconds(3)
        while !secondStarted.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!secondStarted.withLock { $0 }, "a second run started on the file while the first served it")
        _ = try await first.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "First", "body": ""])))
        await first.stop()
        go.withLock { $0 = true }
        try await second.value
        let third = try await APIEnvironment.start(APIOptions(), variables: variables, sharesServer: false)
        let titles = try await third.client.send(Request<[Note]>(path: "/notes")).value.map(\.title)
        #expect(titles.contains("Zero") && titles.contains("First") && titles.contains("Second"), "\(titles)")
        await third.stop()
    }

    @Test func aSecondEnvironmentUsesTheRunningEmbeddedServer() async throws {
        let sandbox = try APISandbox()
        let recordFile = SharedEmbeddedServer.recordFile(for: sandbox.databaseFile)
        let first = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        let server = try #require(first.embeddedServer)
        #expect(
            SharedEmbeddedServer.running(recordedIn: recordFile)
                == SharedEmbeddedServer(pid: ProcessInfo.processInfo.processIdentifier, port: server.port))

        let second = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        #expect(second.embeddedServer == nil)
        #expect(second.client.baseURL == URL(string: "http://127.0.0.1:\(server.port)"))
        #expect(second.serverDescription == "embedded 127.0.0.1:\(server.port) (shared)")
        // A write through the second is in the first's data: one copy of the notes, not two.
        let created = try await second.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "Shared", "body": ""])))
        let notes = try #require(server.database.json["notes"].array)
        #expect(notes.contains { $0["id"].number?.int == created.value.id })
        await second.stop()
        #expect(SharedEmbeddedServer.running(recordedIn: recordFile) != nil)

        await first.stop()
        #expect(!FileManager.default.fileExists(atPath: recordFile.path))
        let third = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        #expect(third.embeddedServer != nil)
        await third.stop()
    }

    @Test func commandsUseAnOfferedServerButOfferNone() async throws {
        let sandbox = try APISandbox()
        let recordFile = SharedEmbeddedServer.recordFile(for: sandbox.databaseFile)
        // A command on its own: its server is not offered.
        let alone = await sandbox.run("notes", "add", "--title", "Alone")
        #expect(alone.status == 0)
        #expect(!FileManager.default.fileExists(atPath: recordFile.path))
        // While a long-running environment offers its server, a command's note lands in that server's data.
        let app = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        let server = try #require(app.embeddedServer)
        let added = await sandbox.run("notes", "add", "--title", "Through the app", "--json")
        #expect(added.status == 0)
        let id = try #require(try JSONParser().parse(Array(added.stdout.utf8))["id"].number?.int)
        let notes = try #require(server.database.json["notes"].array)
        #expect(notes.contains { $0["id"].number?.int == id && $0["title"].string == "Through the app" })
        #expect(notes.contains { $0["title"].string == "Alone" })
        await app.stop()
    }

    @Test func aRecordLeftBehindIsIgnored() async throws {
        let sandbox = try APISandbox()
        let recordFile = SharedEmbeddedServer.recordFile(for: sandbox.databaseFile)
        try FileManager.default.createDirectory(
            at: recordFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        // This process is alive, but nothing listens on the port any more.
        let closed = try #require(URL(string: try await closedServerURL())?.port)
        SharedEmbeddedServer(pid: ProcessInfo.processInfo.processIdentifier, port: closed).write(to: recordFile)
        #expect(SharedEmbeddedServer.running(recordedIn: recordFile) == nil)
        let environment = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        #expect(environment.embeddedServer != nil)
        await environment.stop()
        // Garbage is ignored too.
        try Data("not json".utf8).write(to: recordFile)
        #expect(SharedEmbeddedServer.running(recordedIn: recordFile) == nil)
    }

    @Test func ephemeralRunsWriteNoFile() async throws {
        let sandbox = try APISandbox(extra: ["TETHER_EPHEMERAL": "1"])
        let environment = try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        _ = try await environment.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "Gone", "body": ""])))
        await environment.stop()
        #expect(!FileManager.default.fileExists(atPath: sandbox.databaseFile.path))
    }

    @Test func aDamagedFileIsAFailure() async throws {
        let sandbox = try APISandbox()
        try FileManager.default.createDirectory(
            at: sandbox.databaseFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"notes\": [".utf8).write(to: sandbox.databaseFile)
        await #expect {
            try await APIEnvironment.start(APIOptions(), variables: sandbox.variables)
        } throws: { error in
            guard let error = error as? CLIError, case .failure(let message) = error else { return false }
            return message.contains("is not valid JSON") && message.contains("delete \(sandbox.databaseFile.path)")
        }
    }
}

/// The options of Rakuten's 2026 gateway: the access key and origin, from the command line or the environment,
/// and the key kept out of every message.
@Suite struct RakutenGatewayOptionsTests {
    @Test func theKeyAndOriginComeFromOptionsOrTheEnvironment() throws {
        var arguments: ArraySlice<String> = [
            "search", "--rakuten-access-key", "pk_1", "--rakuten-origin=https://a.example/",
        ]
        let options = try APIOptions.parse(&arguments, environment: [:])
        #expect(options.rakutenAccessKey == "pk_1")
        #expect(options.rakutenOrigin?.absoluteString == "https://a.example")
        #expect(arguments == ["search"])
        var none: ArraySlice<String> = []
        let fromEnvironment = try APIOptions.parse(
            &none, environment: ["RAKUTEN_ACCESS_KEY": "pk_env", "RAKUTEN_ORIGIN": "https://b.example"])
        #expect(fromEnvironment.rakutenAccessKey == "pk_env")
        #expect(fromEnvironment.rakutenOrigin?.absoluteString == "https://b.example")
        #expect(try APIOptions.parse(&none, environment: ["RAKUTEN_ACCESS_KEY": ""]).rakutenAccessKey == nil)
        var bad: ArraySlice<String> = ["--rakuten-access-key", "pk 1"]
        #expect(throws: CLIError.self) { try APIOptions.parse(&bad, environment: [:]) }
        var badOrigin: ArraySlice<String> = ["--rakuten-origin", "example.com"]
        #expect(throws: CLIError.self) { try APIOptions.parse(&badOrigin, environment: [:]) }
    }

    @Test func aKeyWithoutAnApplicationIDSearchesTheLocalGatewayPath() async throws {
        let sandbox = try APISandbox(extra: ["RAKUTEN_ACCESS_KEY": "pk_local"])
        let result = await sandbox.run("items", "search", "カメラ", "--hits", "2")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("円"))
    }

    @Test func theKeyNeverShowsInAFailure() async throws {
        let sandbox = try APISandbox()
        let base = try await closedServerURL()
        let result = await sandbox.run(
            "items", "search", "カメラ", "--rakuten-app-id", "123", "--rakuten-access-key", "pk_secret_key",
            "--rakuten-base", base)
        #expect(result.status == 1)
        #expect(!result.stderr.contains("pk_secret_key"))
        #expect(!result.stdout.contains("pk_secret_key"))
    }
}
