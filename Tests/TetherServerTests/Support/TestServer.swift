import Foundation
import TetherHTTP1

@testable import TetherServer

/// A responder made of a closure, for tests.
struct ClosureResponder: HTTPResponder {
    let handle: @Sendable (HTTPRequest) async -> HTTPResponse?

    init(_ handle: @escaping @Sendable (HTTPRequest) async -> HTTPResponse?) { self.handle = handle }

    func respond(to request: HTTPRequest) async -> HTTPResponse? { await handle(request) }
}

/// The routes most server tests use:
/// - `/hello`: `hello`
/// - `/echo`: the request body; `X-Method` says the method the responder saw, `X-Target` the target and
///   `X-Fault-Header` whether an `X-Tether-Fault` field reached it
/// - `/slow?ms=N`: `slow` after N milliseconds
/// - `/stream`: `a`, `b`, `c` as three streamed chunks
/// - `/big`: 100,000 bytes of `x`
let testRoutes = ClosureResponder { request in
    switch request.path {
    case "/hello":
        return HTTPResponse(headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
    case "/echo":
        return HTTPResponse(
            headers: [
                "X-Method": request.method.rawValue, "X-Target": request.target,
                "X-Fault-Header": request.headers.contains(FaultScript.headerName) ? "yes" : "no",
            ],
            body: request.body)
    case "/slow":
        let milliseconds = request.queryItems.first { $0.name == "ms" }.flatMap { Int($0.value) } ?? 100
        try? await Task.sleep(for: .milliseconds(milliseconds))
        return HTTPResponse(body: Array("slow".utf8))
    case "/stream":
        let stream = AsyncStream<[UInt8]> { continuation in
            Task {
                for part in ["a", "b", "c"] {
                    continuation.yield(Array(part.utf8))
                    try? await Task.sleep(for: .milliseconds(10))
                }
                continuation.finish()
            }
        }
        return HTTPResponse(stream: stream)
    case "/big":
        return HTTPResponse(body: [UInt8](repeating: UInt8(ascii: "x"), count: 100_000))
    default:
        return nil
    }
}

/// Collects access-log lines.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] { lock.withLock { storage } }

    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { storage.append(line) } } }
}

/// A one-shot signal between a responder and a test: `wait()` suspends until `open()`.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let pending = lock.withLock {
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in pending { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Blocks the calling thread (not a task) until opened or `timeout` passes; whether it opened.
    func waitBlocking(timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lock.withLock({ isOpen }) { return true }
            usleep(2000)
        }
        return false
    }
}

/// Runs `body` against a started server, stopping it afterwards even when `body` throws.
func withServer<Value>(
    _ configuration: HTTPServer.Configuration = .init(), responders: [any HTTPResponder] = [testRoutes],
    _ body: (HTTPServer, Int) async throws -> Value
) async throws -> Value {
    let server = HTTPServer(configuration: configuration, responders: responders)
    let port = try await server.start()
    do {
        let result = try await body(server, port)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs blocking client code off the Swift concurrency pool.
func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
