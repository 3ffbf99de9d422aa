import Foundation
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherSync
import TetherTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request as a ``SocketTestServer`` received it.
struct ReceivedRequest: Sendable {
    var method: String
    var target: String
    var path: String
    var headers: HTTPHeaders
    var body: [UInt8]
    /// When the responder saw it, on the monotonic clock.
    var arrival: ContinuousClock.Instant
}

/// Every request that reached a test server's responder, in arrival order. Thread safe.
///
/// Requests answered by the server's fault injection (`X-Tether-Fault: status=...`) never reach the responder and
/// are not recorded.
final class RequestLog: Sendable {
    private let storage = Locked<[ReceivedRequest]>([])

    /// Records `request` and returns its number among the requests for the same path, from 1.
    func record(_ request: HTTPRequest) -> Int {
        let path = request.path ?? request.target
        let received = ReceivedRequest(
            method: request.method.rawValue, target: request.target, path: path, headers: request.headers,
            body: request.body, arrival: .now)
        return storage.withLock { requests in
            requests.append(received)
            return requests.count { $0.path == path }
        }
    }

    /// All requests so far.
    var requests: [ReceivedRequest] { storage.withLock { $0 } }

    /// The requests for `path` so far.
    func requests(for path: String) -> [ReceivedRequest] { requests.filter { $0.path == path } }

    /// How many requests for `path` arrived.
    func count(_ path: String) -> Int { requests(for: path).count }

    /// Waits until `count(path)` reaches `count`; whether it did before `timeout` (a guard against hangs only).
    func wait(for count: Int, on path: String, timeout: Duration = .seconds(30)) async -> Bool {
        await poll(timeout: timeout) { self.count(path) >= count }
    }
}

/// A test's route table: the request and its number among the requests for its path (1 for the first).
typealias Routes = @Sendable (HTTPRequest, Int) async -> HTTPResponse?

/// An ``HTTPResponder`` that records each request in a ``RequestLog`` and answers with ``Routes``.
struct RecordingResponder: HTTPResponder {
    let log: RequestLog
    let routes: Routes

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let number = log.record(request)
        return await routes(request, number)
    }
}

/// A started ``HTTPServer`` on 127.0.0.1 with routes of the test's own, for exact headers and hit counts.
struct SocketTestServer: Sendable {
    let port: Int
    /// What reached the routes.
    let log: RequestLog

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The absolute URL of `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}

/// Starts an ``HTTPServer`` on 127.0.0.1 (an ephemeral port) answering with `routes`, runs `body` and stops the
/// server, also when `body` throws.
///
/// The grace period for requests still in flight at the end is short (slow routes and latency faults must not
/// make the test wait); fault injection by header or query (`X-Tether-Fault`) works as on the real server.
func withSocketServer<Value>(
    _ routes: @escaping Routes, _ body: (SocketTestServer) async throws -> Value
) async throws -> Value {
    let log = RequestLog()
    let server = HTTPServer(
        configuration: .init(shutdownGracePeriod: .milliseconds(200)),
        responders: [RecordingResponder(log: log, routes: routes)])
    let port = try await server.start()
    do {
        let value = try await body(SocketTestServer(port: port, log: log))
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

/// Starts a test server whose every route answers `response` (a body of bytes), as ``withSocketServer(_:_:)``.
func withSocketServer<Value>(
    answering response: HTTPResponse, _ body: (SocketTestServer) async throws -> Value
) async throws -> Value {
    try await withSocketServer({ _, _ in response }, body)
}

/// Starts the whole ``TetherServerApp`` (built-in data set, in memory) on an ephemeral port, runs `body` with its
/// base URL and stops it, also when `body` throws.
func withSocketApp<Value>(
    rakutenRateLimit: Bool = false, _ body: (URL, TetherServerApp) async throws -> Value
) async throws -> Value {
    // Building the data set and the catalog takes a CPU-second in debug builds: off the cooperative pool, so
    // suites running in parallel (and their deadlines) are not starved while it happens.
    let options = TetherServerApp.Options(writes: .inMemory, rakutenRateLimit: rakutenRateLimit)
    let app = try await Task(executorPreference: StartupExecutor.shared) {
        try await TetherServerApp.start(options)
    }.value
    do {
        let value = try await body(app.baseURL, app)
        await app.stop()
        return value
    } catch {
        await app.stop()
        throw error
    }
}

/// The built-in data set, generated once for every test.
private let builtInData = BuiltInDataSet.make(imageBaseURL: "http://127.0.0.1")

/// Serves the built-in data set with ``TetherServerApp``'s REST responder (the json-server engine, in memory) on
/// a server of its own, without the Rakuten catalog and images, so it starts in milliseconds; runs `body` with
/// its base URL and database and stops it, also when `body` throws. Fault injection works as on the app.
func withSocketREST<Value>(_ body: (URL, JSONDatabase) async throws -> Value) async throws -> Value {
    let database = try JSONDatabase(builtInData, mode: .inMemory)
    let server = HTTPServer(
        configuration: .init(shutdownGracePeriod: .milliseconds(200)),
        responders: [JSONServerResponder(database: database)])
    let port = try await server.start()
    do {
        let value = try await body(URL(string: "http://127.0.0.1:\(port)")!, database)
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

extension HTTPResponse {
    /// A JSON response from text, with `headers` added.
    static func json(text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A redirect with `status` to `location`.
    static func redirect(_ status: Int, to location: String) -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: status), headers: ["Location": location])
    }
}

/// A task executor on a serial dispatch queue of its own, outside the Swift concurrency pool.
final class StartupExecutor: TaskExecutor {
    static let shared = StartupExecutor()

    private let queue = DispatchQueue(label: "tether.tests.startup")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
