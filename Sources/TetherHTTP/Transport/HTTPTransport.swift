public import Foundation

/// Moves one request to a server and its response back: the layer below ``HTTPClient``.
///
/// The client does everything else (URLs, retries, deadlines, redirects, the cache, decoding), so a transport is
/// small. ``URLSessionTransport`` is the default; `StubTransport` (module `TetherHTTPTesting`) answers from
/// closures in tests.
///
/// Implementation requirements:
/// - Do not follow redirects: return 3xx responses as they are (the client follows them, and strips credentials
///   on a change of origin).
/// - Do not cache, and do not add cookies.
/// - Stop reading once the body exceeds ``TransportRequest/maximumResponseSize`` and throw
///   ``HTTPError`` with ``HTTPError/Kind/responseTooLarge(limit:)`` (the client fills in the request).
/// - Honour task cancellation promptly (throwing any error; the client reports ``HTTPError/Kind/cancelled``). On
///   Linux, a transport over URLSession must not call `URLSessionTask.cancel()` inside a cancellation handler, nor
///   cancel a task that waits in `URLSession.data(for:)`: FoundationNetworking's `cancel()` waits for the session's
///   work queue while the Swift task's status lock is held, and the queue may need that lock to resume the task.
///   Cancel from a Dispatch thread instead, as ``URLSessionTransport`` does.
/// - Be safe to call from many tasks at once.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response, reporting progress to `progress` when it is given.
    func send(_ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws
        -> TransportResponse
}

/// A request as it goes on the wire: absolute URL, final headers, encoded body.
///
/// Interceptors see and change requests in this form (``HTTPInterceptor/adapt(_:)``).
public struct TransportRequest: Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// The attempt's deadline; the client enforces it itself, a transport may use it as a backstop.
    public var timeout: Duration
    /// The largest body the client accepts.
    public var maximumResponseSize: Int

    public init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil, timeout: Duration = .seconds(60),
        maximumResponseSize: Int = .max
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Replaces the value of query item `name` (appending it when absent), keeping the others in order.
    ///
    /// The name and value are percent-encoded per RFC 3986.
    public mutating func setQueryItem(_ name: String, _ value: String) {
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        let item = PercentEncoding.encode(name) + "=" + PercentEncoding.encode(value)
        if let question = text.firstIndex(of: "?") {
            let prefix = text[..<question]
            let pairs = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true)
            let encodedName = PercentEncoding.encode(name)
            var replaced = false
            let kept = pairs.map { pair -> String in
                let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if key == encodedName || key == name {
                    replaced = true
                    return item
                }
                return String(pair)
            }
            text = prefix + "?" + (replaced ? kept : kept + [item]).joined(separator: "&")
        } else {
            text += "?" + item
        }
        if let updated = URL(string: text + fragment) { url = updated }
    }
}

/// A response as it comes off the wire.
public struct TransportResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Data
    /// The URL this response answers.
    public var url: URL
    /// The transfer's timings and sizes, when the transport measures them (``NativeTransport`` does).
    public var metrics: TransferMetrics?

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}
