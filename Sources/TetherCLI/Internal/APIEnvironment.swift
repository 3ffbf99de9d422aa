import Foundation
import TetherAPIs
import TetherHTTP
import TetherJSON
import TetherServer
import TetherStore
import TetherSync

/// The servers the API commands and the full-screen app talk to, ready to use: a client for the REST API
/// (posts, comments, users, notes), a client for the item search, and the embedded server when there is one.
///
/// ```swift
/// @testable import TetherCLI
/// import TetherAPIs
///
/// let options = APIOptions()                  // the embedded server
/// let environment = try await APIEnvironment.start(options)
/// let notes = try await environment.client.send(Request<[Note]>(path: "/notes"))
/// await environment.stop()
/// ```
///
/// Where requests go:
/// - REST: ``APIOptions/api``, else an embedded ``TetherServerApp`` on 127.0.0.1 and a free port. The embedded
///   server keeps its writes in `$XDG_DATA_HOME/tether/embedded-db.json` (`~/.local/share/tether/…` when
///   `XDG_DATA_HOME` is unset or relative), so a note added by one run is there in the next; the file is written
///   on the first write, from the built-in data set (whose photo URLs then point at `http://127.0.0.1:3000`,
///   where `tether serve` listens). `TETHER_EPHEMERAL=1` keeps the writes in memory instead. While a
///   long-running process (the full-screen app) serves the file, other processes use its server instead of
///   starting their own (see ``SharedEmbeddedServer``), so their writes cannot replace each other's. Short runs
///   (the subcommands) do not offer theirs; instead the process that serves the file holds its lock
///   (``DatabaseLock``), and another one waits for it (up to 20 s), so two subcommands at once take turns.
/// - Item search: with an application id, Rakuten (``APIOptions/rakutenBase`` or `https://app.rakuten.co.jp`),
///   with Rakuten's rate limit and error bodies; without one, the REST server's own Rakuten route (or
///   ``APIOptions/rakutenBase``) with the application id `tether-demo` and the same rate limit. With an access key
///   (``APIOptions/rakutenAccessKey``), Rakuten's 2026 gateway at its newest version
///   (``HTTPClient/rakuten(applicationID:accessKey:origin:baseURL:version:configure:)``): `openapi.rakuten.co.jp`
///   with an application id, the local search's gateway path without one.
///
/// - Thread safety: immutable and `Sendable`; ``stop()`` may be called from any task, more than once.
final class APIEnvironment: Sendable {
    /// The REST API's client.
    let client: HTTPClient
    /// The item search's client (Rakuten's rules: one request per 1.1 s, `applicationId` added, error bodies).
    let rakuten: HTTPClient
    /// Where REST requests go, for a status bar: `"embedded 127.0.0.1:43121"`, `"http://localhost:3000"`.
    let apiDescription: String
    /// Where item searches go: `"Rakuten app.rakuten.co.jp"`, or ``apiDescription`` for the local search.
    let rakutenDescription: String
    /// The embedded server this environment started: `nil` with ``APIOptions/api``, or when it uses the embedded
    /// server of another process.
    let embeddedServer: TetherServerApp?
    /// The record that tells other processes about ``embeddedServer``, and its file, to remove on ``stop()``.
    private let sharing: (record: SharedEmbeddedServer, file: URL)?
    /// The database file's lock while ``embeddedServer`` serves it, released on ``stop()``.
    private let lock: DatabaseLock?

    /// Both places in one line for a status bar: `"embedded 127.0.0.1:43121"`, or
    /// `"http://localhost:3000 · Rakuten app.rakuten.co.jp"` when searches go elsewhere.
    var serverDescription: String {
        rakutenDescription == apiDescription ? apiDescription : "\(apiDescription) · \(rakutenDescription)"
    }

    /// The application id sent to a local item search, which accepts any well-formed one.
    static let demoApplicationID = "tether-demo"

    private init(
        client: HTTPClient, rakuten: HTTPClient, apiDescription: String, rakutenDescription: String,
        embeddedServer: TetherServerApp?, sharing: (record: SharedEmbeddedServer, file: URL)?, lock: DatabaseLock?
    ) {
        self.client = client
        self.rakuten = rakuten
        self.apiDescription = apiDescription
        self.rakutenDescription = rakutenDescription
        self.embeddedServer = embeddedServer
        self.sharing = sharing
        self.lock = lock
    }

    /// Starts the embedded server unless `options` names an API, and builds the clients.
    ///
    /// Nothing is sent: an `--api` server that is down shows up on the first request.
    ///
    /// - Parameters:
    ///   - variables: the environment variables (`XDG_DATA_HOME`, `HOME`, `TETHER_EPHEMERAL`).
    ///   - sharesServer: whether an embedded server started here is offered to other processes until ``stop()``;
    ///     for long-running processes, whose server outlives the others' requests.
    /// - Throws: ``CLIError/failure(_:)`` when the embedded database file cannot be read (or is not a json-server
    ///   database) or the embedded server cannot listen.
    static func start(
        _ options: APIOptions, variables: [String: String] = APIEnvironment.variables, sharesServer: Bool = true
    ) async throws(CLIError) -> APIEnvironment {
        var embedded: TetherServerApp?
        var sharing: (record: SharedEmbeddedServer, file: URL)?
        var lock: DatabaseLock?
        let apiBase: URL
        let apiDescription: String
        let databaseFile = databaseFile(variables: variables)
        let recordFile = databaseFile.map(SharedEmbeddedServer.recordFile(for:))
        if let api = options.api {
            apiBase = api
            apiDescription = api.absoluteString
        } else if let databaseFile, let recordFile,
            let shared = try await sharedServerOrLock(recordFile, databaseFile, &lock)
        {
            apiBase = URL(string: "http://127.0.0.1:\(shared.port)")!
            apiDescription = "embedded 127.0.0.1:\(shared.port) (shared)"
        } else {
            let server: TetherServerApp
            do {
                server = try await startEmbedded(databaseFile: databaseFile)
            } catch {
                lock?.release()
                throw error
            }
            embedded = server
            apiBase = server.baseURL
            apiDescription = "embedded \(server.baseURL.host ?? "127.0.0.1"):\(server.port)"
            if let recordFile, sharesServer {
                let record = SharedEmbeddedServer(pid: ProcessInfo.processInfo.processIdentifier, port: server.port)
                record.write(to: recordFile)
                sharing = (record, recordFile)
            }
        }
        let client = HTTPClient(baseURL: apiBase)
        let rakuten: HTTPClient
        let rakutenDescription: String
        if let accessKey = options.rakutenAccessKey {
            // Rakuten's 2026 gateway: the real one with an application id, else the local search's gateway path.
            let applicationID = options.rakutenApplicationID ?? demoApplicationID
            let base =
                options.rakutenBase ?? (options.rakutenApplicationID == nil ? apiBase : HTTPClient.rakutenGatewayURL)
            rakuten = .rakuten(
                applicationID: applicationID, accessKey: accessKey, origin: options.rakutenOrigin?.absoluteString,
                baseURL: base)
            rakutenDescription =
                options.rakutenApplicationID == nil && options.rakutenBase == nil
                ? apiDescription : "Rakuten \(base.host ?? base.absoluteString)"
        } else if let applicationID = options.rakutenApplicationID {
            let base = options.rakutenBase ?? HTTPClient.rakutenBaseURL
            rakuten = .rakuten(applicationID: applicationID, baseURL: base)
            rakutenDescription = "Rakuten \(base.host ?? base.absoluteString)"
        } else {
            let base = options.rakutenBase ?? apiBase
            rakuten = .rakuten(applicationID: demoApplicationID, baseURL: base)
            rakutenDescription = options.rakutenBase.map { "Rakuten \($0.absoluteString)" } ?? apiDescription
        }
        return APIEnvironment(
            client: client, rakuten: rakuten, apiDescription: apiDescription, rakutenDescription: rakutenDescription,
            embeddedServer: embedded, sharing: sharing, lock: lock)
    }

    /// The server another process offers for `databaseFile`, or `nil` once this process holds the file's lock (in
    /// `lock`) and may serve the file itself. Waits up to 20 s while another process holds the lock without
    /// offering its server (a subcommand: they take a moment).
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the wait runs out or the lock file cannot be made.
    private static func sharedServerOrLock(
        _ recordFile: URL, _ databaseFile: URL, _ lock: inout DatabaseLock?
    ) async throws(CLIError) -> SharedEmbeddedServer? {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            if let shared = SharedEmbeddedServer.running(recordedIn: recordFile) { return shared }
            if let acquired = try DatabaseLock.tryAcquire(for: databaseFile) {
                // The holder may have offered its server just before it let go of the lock; use it if so.
                if let shared = SharedEmbeddedServer.running(recordedIn: recordFile) {
                    acquired.release()
                    return shared
                }
                lock = acquired
                return nil
            }
            guard ContinuousClock.now < deadline else {
                throw .failure(
                    "another tether process is using \(databaseFile.path) and did not finish within 20 s;"
                        + " try again, or set TETHER_EPHEMERAL=1 to work in memory")
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Stops the embedded server, if this environment started one (after withdrawing it from other processes),
    /// folds its database's journal into its file (a fold that fails leaves the writes in the journal, replayed
    /// by the next start), then lets other processes serve its file.
    func stop() async {
        if let sharing { sharing.record.remove(from: sharing.file) }
        if let embeddedServer {
            await embeddedServer.stop()
            try? await embeddedServer.database.close()
        }
        lock?.release()
    }

    // MARK: - The embedded server

    /// Where the embedded server keeps its data: `$XDG_DATA_HOME/tether/embedded-db.json`, `nil` for
    /// `TETHER_EPHEMERAL=1` or when there is no home folder.
    static func databaseFile(variables: [String: String]) -> URL? {
        if let ephemeral = variables["TETHER_EPHEMERAL"], !ephemeral.isEmpty, ephemeral != "0" { return nil }
        let dataHome: URL
        if let xdg = variables["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = variables["HOME"], home.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        } else {
            return nil
        }
        return dataHome.appendingPathComponent("tether").appendingPathComponent("embedded-db.json")
    }

    /// Opens (or seeds) the embedded database and starts the server on 127.0.0.1 and a free port.
    private static func startEmbedded(databaseFile: URL?) async throws(CLIError) -> TetherServerApp {
        let data: TetherServerApp.Options.DataSource
        let writes: TetherServerApp.Options.Writes
        if let file = databaseFile {
            data = .database(try openDatabase(file))
            writes = .persistent
        } else {
            data = .builtIn
            writes = .inMemory
        }
        do throws(ServerError) {
            return try await TetherServerApp.start(.init(data: data, writes: writes))
        } catch {
            throw .failure("cannot start the embedded server: \(error.message)")
        }
    }

    /// The database in `file`, or the built-in data set to be saved there on the first write.
    private static func openDatabase(_ file: URL) throws(CLIError) -> JSONDatabase {
        do throws(ServerError) {
            if FileManager.default.fileExists(atPath: file.path) {
                return try JSONDatabase(contentsOf: file, mode: .persistent(file))
            }
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServerError(.databaseIO, "cannot create \(file.deletingLastPathComponent().path)")
            }
            return try JSONDatabase(
                BuiltInDataSet.make(imageBaseURL: "http://127.0.0.1:3000"), mode: .persistent(file))
        } catch {
            throw .failure("the embedded server's data: \(error.message) (delete \(file.path) to start afresh)")
        }
    }
}

// MARK: - Running commands

extension APIEnvironment {
    /// The environment variables commands see: the process's, unless a caller (a test) binds others.
    @TaskLocal static var boundVariables: [String: String]?

    /// The environment variables for commands: ``boundVariables``, else the process's.
    static var variables: [String: String] { boundVariables ?? ProcessInfo.processInfo.environment }

    /// Starts an environment for `options`, runs `body` with it, stops it, and returns what `body` returned,
    /// blocking the calling thread until then. An embedded server started here is not offered to other processes
    /// (it lives for one command), but one offered by another process is used.
    ///
    /// For the synchronous commands: call it from the main thread or a thread of your own, never from a thread
    /// of the concurrency pool (the work needs the pool, which has as many threads as cores).
    ///
    /// - Throws: what ``start(_:variables:)`` or `body` throws.
    static func run<T: Sendable>(
        _ options: APIOptions, variables: [String: String] = APIEnvironment.variables,
        _ body: @escaping @Sendable (APIEnvironment) async throws(CLIError) -> T
    ) throws(CLIError) -> T {
        try runBlocking { () async throws(CLIError) -> T in
            let environment = try await start(options, variables: variables, sharesServer: false)
            let result: Result<T, CLIError>
            do throws(CLIError) {
                result = .success(try await body(environment))
            } catch {
                result = .failure(error)
            }
            await environment.stop()
            return try result.get()
        }
    }

    /// What `body` returned or threw, as a value: for `async let` of requests whose error stays typed.
    static func result<T: Sendable>(
        _ body: @Sendable () async throws(HTTPError) -> T
    ) async -> Result<T, HTTPError> {
        do throws(HTTPError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The database of the outbox (and saved lists) for the API `options` name: one per `--api` URL, one for the
    /// embedded server (whatever its port); `nil` with `TETHER_EPHEMERAL=1` or without a home folder. The app and
    /// the commands use the same one.
    static func storeDatabaseURL(_ options: APIOptions, variables: [String: String]) -> URL? {
        StoreDatabase.defaultURL(for: options.api ?? URL(string: "tether-embedded://embedded")!, environment: variables)
    }

    /// The database of the item searches' saved results: one per Rakuten host (or stand-in), one for the embedded
    /// server's search.
    static func itemDatabaseURL(_ options: APIOptions, variables: [String: String]) -> URL? {
        let base =
            options.rakutenBase ?? (options.rakutenApplicationID != nil ? HTTPClient.rakutenBaseURL : options.api)
        return StoreDatabase.defaultURL(
            for: (base ?? URL(string: "tether-embedded://embedded")!).appendingPathComponent("items"),
            environment: variables)
    }

    /// `error` as a one-line failure: `"<what>: <the server's message or HTTPError.message>"`.
    static func failure(_ error: HTTPError, _ what: String) -> CLIError {
        var text = error.message
        if text.hasSuffix(".") { text.removeLast() }
        if case .transport = error.kind { text = "cannot connect to the server (\(error.request.url))" }
        return .failure("\(what): \(text)")
    }
}
