public import Foundation
public import TetherHTTP
import TetherSync

/// An ``/TetherHTTP/HTTPTransport`` that answers from a closure or a script, and records every request it sees: for
/// unit tests of code that uses ``/TetherHTTP/HTTPClient``, without a server.
///
/// ```swift
/// import Foundation
/// import Testing
/// import TetherHTTP
/// import TetherHTTPTesting
///
/// struct Note: Decodable, Sendable { var id: Int; var title: String }
///
/// @Test func retriesA503() async throws {
///     let stub = StubTransport(script: [
///         .status(503, headers: ["Retry-After": "0"]), .json(#"{"id": 1, "title": "a"}"#),
///     ])
///     let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) { $0.transport = stub }
///     let note = try await client.send(Request<Note>(path: "/notes/1")).value   // retried once, then decoded
///     #expect(note.id == 1)
///     #expect(stub.requests.count == 2)
/// }
/// ```
///
/// Thread safe. A scripted stub answers requests in arrival order and fails with ``StubTransport/Exhausted`` when
/// the script runs out.
public final class StubTransport: HTTPTransport {
    /// Answers one request.
    public typealias Handler = @Sendable (TransportRequest) async throws -> StubResponse

    /// Thrown by a scripted stub asked for more responses than its script has. It is a ``/TetherHTTP/TransportMisuse``:
    /// the client does not retry it, and the ``/TetherHTTP/HTTPError``'s message is this description, not a network
    /// failure.
    public struct Exhausted: TransportMisuse {
        public let request: String
        public var description: String { "StubTransport: no scripted response left for \(request)" }
    }

    private let handler: Handler
    private let recorded = Locked<[TransportRequest]>([])

    /// A stub that asks `handler` for every response.
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// A stub that gives the responses of `script` in order, one per request.
    public convenience init(script: [StubResponse]) {
        let remaining = Locked(script[...])
        self.init { request in
            guard let next = remaining.withLock({ $0.popFirst() }) else {
                throw Exhausted(request: "\(request.method.rawValue) \(request.url.absoluteString)")
            }
            return next
        }
    }

    /// Every request received so far, in order.
    public var requests: [TransportRequest] { recorded.withLock { $0 } }

    public func send(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> TransportResponse {
        recorded.withLock { $0.append(request) }
        let stub = try await handler(request)
        if let delay = stub.delay { try await Task.sleep(for: delay) }
        if let error = stub.error { throw error }
        if stub.body.count > request.maximumResponseSize {
            throw HTTPError(
                .responseTooLarge(limit: request.maximumResponseSize),
                request: RequestSummary(method: request.method, url: request.url.absoluteString))
        }
        progress?(TransferProgress(bytesReceived: stub.body.count, totalBytesExpected: stub.body.count))
        return TransportResponse(
            status: HTTPStatus(code: stub.status), headers: stub.headers, body: stub.body, url: request.url)
    }
}

/// One canned answer of a ``StubTransport``: a response, an error, or either after a delay.
public struct StubResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    /// Thrown instead of answering.
    public var error: (any Error)?
    /// Waited (cancellably) before answering.
    public var delay: Duration?

    public init(
        status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), error: (any Error)? = nil,
        delay: Duration? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.error = error
        self.delay = delay
    }

    /// A JSON body, `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse {
        var all = headers
        if !all.contains("Content-Type") { all.add("Content-Type", "application/json") }
        return StubResponse(status: status, headers: all, body: Data(text.utf8))
    }

    /// A status with an empty body.
    public static func status(_ status: Int, headers: HTTPHeaders = [:]) -> StubResponse {
        StubResponse(status: status, headers: headers)
    }

    /// A thrown error, as from a failed connection.
    public static func failure(_ error: any Error) -> StubResponse {
        StubResponse(error: error)
    }

    /// This response after `delay`.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}
