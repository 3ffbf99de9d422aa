public import Foundation
import TetherHTTP1
import TetherSync

/// The standard Tether server, assembled and started: the json-server REST API on a database file or the
/// built-in data set, the Rakuten Ichiba item search and the generated images, on one ``HTTPServer``.
///
/// This is what `tether serve`, the embedded server of the `tether` app and tests use.
///
/// ```swift
/// import TetherServer
///
/// let app = try await TetherServerApp.start(.init(port: 0))   // built-in data, 127.0.0.1, a free port
/// // GET \(app.baseURL)/posts/1, \(app.baseURL)/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=...
/// await app.stop()
/// ```
///
/// Requests go to the responders in this order: ``RakutenSearchResponder`` (paths below `/services/api/`),
/// ``ImageResponder`` (`/images/<id>`), then ``JSONServerResponder`` (everything else, 404 `{}` for unknown
/// paths). A database collection called `images` is therefore hidden behind the image route.
///
/// - Thread safety: a value holding a running server; ``stop()`` may be called from any task, more than once.
public struct TetherServerApp: Sendable {
    /// Where the data comes from, what writes do, and how the server listens.
    public struct Options: Sendable {
        /// What writes (`POST`, `PUT`, `PATCH`, `DELETE`) do.
        public enum Writes: Sendable, Hashable {
            /// Writes are saved beside the database file (journaled, then folded into it; see ``JSONDatabase``);
            /// with the built-in data set, which has no file, they are kept in memory.
            case persistent
            /// Writes are kept in memory; the file is read once and never written.
            case inMemory
            /// Writes are refused with `403 Forbidden`.
            case readOnly
        }

        /// Where the REST API's data comes from.
        public enum DataSource: Sendable {
            /// ``BuiltInDataSet`` (seed 1), its photo URLs pointing at this server.
            case builtIn
            /// The json-server database file at this URL, read when the server starts.
            case file(URL)
            /// A database that is already open, served as is (its own mode decides what writes do, and
            /// ``Options/writes`` is ignored).
            case database(JSONDatabase)
        }

        /// Where the REST API's data comes from.
        public var data: DataSource
        /// What writes do.
        public var writes: Writes
        /// The address to bind (see ``HTTPServer/Configuration/host``).
        public var host: String
        /// The port; `0` picks a free one.
        public var port: Int
        /// Whether the Rakuten search admits one request per second and application id, as the real API does.
        public var rakutenRateLimit: Bool
        /// Random faults to inject.
        public var faults: FaultConfiguration
        /// Receives one line per request (see ``HTTPServer/Configuration/accessLog``); `nil` logs nothing.
        public var accessLog: (@Sendable (String) -> Void)?
        /// The certificate and key to serve HTTPS with (see ``HTTPServer/Configuration/tls``); `nil` for HTTP.
        public var tls: HTTPServer.TLSIdentity?
        /// The most connections open at once (see ``HTTPServer/Configuration/maximumConnections``); `0` (default)
        /// derives it from the open-file limit. At the limit the app's server closes the connection idle the
        /// longest to make room (``HTTPServer/Configuration/closesIdleConnectionsAtLimit``), so idle clients never
        /// lock others out.
        public var maximumConnections = 0

        public init(
            data: DataSource = .builtIn, writes: Writes = .persistent, host: String = "127.0.0.1", port: Int = 0,
            rakutenRateLimit: Bool = true, faults: FaultConfiguration = .none,
            accessLog: (@Sendable (String) -> Void)? = nil
        ) {
            self.data = data
            self.writes = writes
            self.host = host
            self.port = port
            self.rakutenRateLimit = rakutenRateLimit
            self.faults = faults
            self.accessLog = accessLog
        }
    }

    /// The running server.
    public let server: HTTPServer
    /// The database the REST API serves.
    public let database: JSONDatabase
    /// The port the server listens on.
    public let port: Int
    /// Where clients reach the server: `http://127.0.0.1:<port>` for `127.0.0.1`, `localhost`, `0.0.0.0`;
    /// `http://[::1]:<port>` for `::1` and `::`; otherwise the host as given (`https` with ``Options/tls``).
    public let baseURL: URL
    /// Whether ``stop()`` closes the database (folding its journal): when the app opened it from a file.
    let closesDatabase: Bool

    /// The database's top-level keys, which are the REST resources (`/posts`, `/profile`), in file order.
    public var resources: [String] {
        guard case .object(let object) = database.json else { return [] }
        return object.map(\.key)
    }

    /// Reads the database, builds the responders and starts the server.
    ///
    /// The built-in data set's photo URLs point at ``baseURL``, which is known only once the port is; requests
    /// that arrive before then wait for it.
    ///
    /// - Throws: ``ServerError``: `databaseIO` or `invalidDatabase` (with line and column) for the file, or what
    ///   ``HTTPServer/start()`` throws (`addressInUse`, `invalidHost`, ...).
    public static func start(_ options: Options) async throws(ServerError) -> TetherServerApp {
        var openDatabase: JSONDatabase?
        switch options.data {
        case .builtIn: break
        case .file(let file): openDatabase = try openFile(file, writes: options.writes)
        case .database(let database): openDatabase = database
        }

        let catalog = RakutenCatalog.builtIn
        let search = RakutenSearchResponder(
            catalog: catalog,
            configuration: .init(rateLimit: options.rakutenRateLimit ? .seconds(1) : nil))
        let images = ImageResponder(itemCount: catalog.count)
        let rest = PendingResponder()
        var configuration = HTTPServer.Configuration(
            host: options.host, port: options.port, accessLog: options.accessLog, faults: options.faults)
        configuration.tls = options.tls
        configuration.maximumConnections = options.maximumConnections
        configuration.closesIdleConnectionsAtLimit = true
        let server = HTTPServer(configuration: configuration, responders: [search, images, rest])

        let port = try await server.start()
        let baseURL = baseURL(host: options.host, port: port, secure: options.tls != nil)
        let database: JSONDatabase
        if let openDatabase {
            database = openDatabase
        } else {
            do throws(ServerError) {
                database = try JSONDatabase(
                    BuiltInDataSet.make(imageBaseURL: baseURL.absoluteString),
                    mode: options.writes == .readOnly ? .readOnly : .inMemory)
            } catch {
                await server.stop()
                throw error
            }
        }
        rest.resolve(JSONServerResponder(database: database))
        var closesDatabase = false
        if case .file = options.data { closesDatabase = true }
        return TetherServerApp(
            server: server, database: database, port: port, baseURL: baseURL, closesDatabase: closesDatabase)
    }

    /// Opens the json-server database file at `url` with the mode `writes` asks for.
    ///
    /// - Throws: ``ServerError`` with code `databaseIO` when the file cannot be read, `invalidDatabase` when it
    ///   is not JSON (the message gives line and column) or not a json-server database.
    public static func openFile(_ url: URL, writes: Options.Writes) throws(ServerError) -> JSONDatabase {
        let mode: JSONDatabase.Mode =
            switch writes {
            case .persistent: .persistent(url)
            case .inMemory: .inMemory
            case .readOnly: .readOnly
            }
        return try JSONDatabase(contentsOf: url, mode: mode)
    }

    /// Stops the server gracefully (see ``HTTPServer/stop()``); then, for a database the app opened from a file,
    /// folds its journal into the file and closes it (see ``JSONDatabase/close()``). A fold that fails is
    /// reported to the database's log; the writes stay in the journal for the next start.
    public func stop() async {
        await server.stop()
        guard closesDatabase else { return }
        do {
            try await database.close()
        } catch {
            database.log("the journal could not be folded into the database file at stop: \(error.message)")
        }
    }

    /// The URL clients use for `host` and `port`.
    static func baseURL(host: String, port: Int, secure: Bool = false) -> URL {
        let name: String =
            switch host {
            case "127.0.0.1", "localhost", "0.0.0.0", "": "127.0.0.1"
            case "::1", "::", "[::1]", "[::]": "[::1]"
            default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            }
        return URL(string: "\(secure ? "https" : "http")://\(name):\(port)")!
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
    }
}

/// A responder that is known only after the server has started; requests that arrive before wait for it.
private final class PendingResponder: HTTPResponder {
    private enum State {
        case waiting([CheckedContinuation<any HTTPResponder, Never>])
        case resolved(any HTTPResponder)
    }

    private let state = Locked(State.waiting([]))

    /// Sets the responder and releases the waiting requests. Called once.
    func resolve(_ responder: any HTTPResponder) {
        let waiting = state.withLock { state -> [CheckedContinuation<any HTTPResponder, Never>] in
            guard case .waiting(let waiting) = state else { return [] }
            state = .resolved(responder)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: responder) }
    }

    /// `true`: it waits (suspended) for the json-server responder, which runs on the loop.
    var runsOnEventLoop: Bool { true }

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let responder = await withCheckedContinuation { continuation in
            state.withLock { state in
                switch state {
                case .resolved(let responder): continuation.resume(returning: responder)
                case .waiting(var waiting):
                    waiting.append(continuation)
                    state = .waiting(waiting)
                }
            }
        }
        return await responder.respond(to: request)
    }
}
