import Foundation
import TetherHTTP1
import TetherServer
import TetherSync
import TetherTestSupport

/// A route of an ``ImageServer``: the request and its number among the requests for its path (1 for the first).
typealias ImageRoutes = @Sendable (HTTPRequest, Int) async -> HTTPResponse?

/// An ``HTTPServer`` on 127.0.0.1 (an ephemeral port) with the test's own routes, counting requests per path.
struct ImageServer: Sendable {
    let port: Int
    let counts: RequestCounts

    /// The absolute URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}

/// How many requests reached each path, and their `If-None-Match` headers. Thread safe.
final class RequestCounts: Sendable {
    private let state = Locked<[String: [HTTPRequest]]>([:])

    func record(_ request: HTTPRequest) -> Int {
        let path = request.path ?? request.target
        return state.withLock { state in
            state[path, default: []].append(request)
            return state[path]!.count
        }
    }

    func count(_ path: String) -> Int { state.withLock { $0[path]?.count ?? 0 } }
    func requests(_ path: String) -> [HTTPRequest] { state.withLock { $0[path] ?? [] } }
}

private struct CountingResponder: HTTPResponder {
    let counts: RequestCounts
    let routes: ImageRoutes

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        await routes(request, counts.record(request))
    }
}

/// Starts an ``ImageServer`` answering with `routes`, runs `body`, and stops the server, also when `body` throws.
func withImageServer<Value>(
    _ routes: @escaping ImageRoutes, _ body: (ImageServer) async throws -> Value
) async throws -> Value {
    let counts = RequestCounts()
    let server = HTTPServer(
        configuration: .init(shutdownGracePeriod: .milliseconds(200)),
        responders: [CountingResponder(counts: counts, routes: routes)])
    let port = try await server.start()
    do {
        let value = try await body(ImageServer(port: port, counts: counts))
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

/// An image response: `Content-Type`, a strong ETag and `Cache-Control`.
func imageResponse(
    _ data: Data, type: String = "image/jpeg", etag: String = "\"v1\"", cacheControl: String = "public, max-age=3600"
) -> HTTPResponse {
    HTTPResponse(headers: ["Content-Type": type, "ETag": etag, "Cache-Control": cacheControl], body: [UInt8](data))
}

/// Routes that hold every answer until `gate` opens, then answer `data` as an image (``imageResponse(_:type:etag:cacheControl:)``).
func heldImageRoutes(_ data: Data, until gate: Gate) -> ImageRoutes {
    { _, _ in
        await gate.wait()
        return imageResponse(data)
    }
}
