import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// A started server for the over-sockets suites, with requests sent by ``RawHTTPClient`` on a thread of their
/// own (a new connection each, unless the test holds a client itself).
///
/// Every request carries `Host: 127.0.0.1:<port>`, so the URLs the server builds from it (`Location`, `Link`,
/// image URLs) are the ones a client would use.
struct LiveServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    let port: Int

    /// The `Host` field value, and the authority of the URLs the server answers with.
    var authority: String { "127.0.0.1:\(port)" }
    /// `http://127.0.0.1:<port>`.
    var base: String { "http://\(authority)" }

    /// The text of a request: the request line, `Host`, the fields, `Content-Length` (and `Content-Type:
    /// application/json` unless a field sets one) when there is a body, then the body.
    func requestText(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body {
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                text += "Content-Type: application/json\r\n"
            }
            text += "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        } else {
            text += "\r\n"
        }
        return text
    }

    /// Sends one request on a new connection and reads the response.
    func send(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) async throws -> RawResponse {
        let text = requestText(method, target, body: body, headers: headers)
        let port = port
        return try await onThread {
            try RawHTTPClient(port: port).exchange(text, isHead: method == "HEAD")
        }
    }

    /// `GET target`.
    func get(_ target: String, headers: [(String, String)] = []) async throws -> RawResponse {
        try await send("GET", target, headers: headers)
    }

    /// Sends `GET target` on a new connection: the response, or how reading it failed (a response cut short by
    /// a fault, a timeout).
    func attempt(_ target: String, headers: [(String, String)] = []) async throws -> Result<RawResponse, RawClientError>
    {
        let text = requestText("GET", target, headers: headers)
        let port = port
        return try await onThread { () -> Result<RawResponse, RawClientError> in
            let client = try RawHTTPClient(port: port)
            do {
                return .success(try client.exchange(text))
            } catch let error as RawClientError {
                return .failure(error)
            }
        }
    }

    /// Sends `GET target` on a new connection where the response is expected to be cut short, and returns how
    /// it failed (`nil` when a whole response came).
    func failure(_ target: String, headers: [(String, String)] = []) async throws -> RawClientError? {
        guard case .failure(let error) = try await attempt(target, headers: headers) else { return nil }
        return error
    }
}

/// Starts a ``TetherServerApp`` with `options`, runs `body` against it and stops it, even when `body` throws.
func withLiveApp<Value>(
    _ options: TetherServerApp.Options, _ body: (LiveServer, TetherServerApp) async throws -> Value
) async throws -> Value {
    let app = try await TetherServerApp.start(options)
    do {
        let value = try await body(LiveServer(port: app.port), app)
        await app.stop()
        return value
    } catch {
        await app.stop()
        throw error
    }
}

/// Starts an ``HTTPServer`` on 127.0.0.1 with `responders`, runs `body` against it and stops it.
func withLiveServer<Value>(
    _ configuration: HTTPServer.Configuration = .init(), responders: [any HTTPResponder],
    _ body: (LiveServer) async throws -> Value
) async throws -> Value {
    try await withServer(configuration, responders: responders) { _, port in try await body(LiveServer(port: port)) }
}

/// Serves `database` with json-server's REST API (the responder ``TetherServerApp`` puts last) on a server of
/// its own, without the Rakuten catalog, so it starts in milliseconds.
func withJSONServer<Value>(
    _ database: JSONDatabase, _ configuration: HTTPServer.Configuration = .init(),
    _ body: (LiveServer) async throws -> Value
) async throws -> Value {
    try await withLiveServer(configuration, responders: [JSONServerResponder(database: database)], body)
}

/// Serves jsonplaceholder's `db.json`: by default one read-only copy shared between tests (for reads);
/// `writable` gives the test a copy of its own, in memory (the fixture file is never written).
func withJSONPlaceholderServer<Value>(
    writable: Bool = false, _ body: (LiveServer) async throws -> Value
) async throws -> Value {
    let database = writable ? try await JSONPlaceholder.writableCopy() : try await JSONPlaceholder.readOnlyCopy()
    return try await withJSONServer(database, .init(), body)
}

/// The built-in catalog (seed 1, as `tether serve` has it), shared by the tests and generated on a thread of
/// its own the first time (see ``JSONPlaceholder/writableCopy()`` for why).
func builtInCatalog() async throws -> RakutenCatalog {
    try await onThread { RakutenTestCatalog.shared }
}

extension RawResponse {
    /// The body parsed as JSON, `nil` when it is not.
    var json: JSON? { try? JSON(parsing: body) }

    /// The `id`s of a JSON array of objects, as integers.
    var ids: [Int] { (json?.array ?? []).compactMap { $0["id"].int } }

    /// Every value of header `name`, compared case-insensitively.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

/// jsonplaceholder's `db.json`, parsed once.
enum JSONPlaceholder {
    static let database: JSON = {
        guard let data = try? Data(contentsOf: JSONServerFixtures.jsonPlaceholderURL),
            let json = try? JSON(parsing: Array(data))
        else { return [:] }
        return json
    }()

    /// A collection of the fixture.
    static func collection(_ name: String) -> [JSON] { database[name].array ?? [] }

    private static let readOnly = Result { try JSONDatabase(database, mode: .readOnly) }

    /// One read-only database of the fixture, shared by every test that only reads.
    static func sharedReadOnly() throws -> JSONDatabase { try readOnly.get() }

    /// ``sharedReadOnly()``, made (the first time) on a thread of its own.
    static func readOnlyCopy() async throws -> JSONDatabase { try await onThread { try sharedReadOnly() } }

    /// A database of the fixture for one test, in memory, made on a thread of its own: parsing and normalizing
    /// 1.3 MB takes long enough in a debug build that doing it on the cooperative pool, for many tests at once,
    /// starves the tasks other suites' servers need (their streamed responses time out).
    static func writableCopy() async throws -> JSONDatabase { try await onThread { try JSONDatabase(database) } }
}

/// A fresh directory below the system's temporary one, removed when the value goes away.
final class ScratchDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-sockets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The directory's entries, sorted.
    var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Writes `bytes` to `name` in the directory and returns its URL.
    func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }
}
