public import Foundation
import TetherJSON
import TetherSync

/// Sends ``Request``s and returns decoded ``Response``s: one client for a whole app, used from any task or thread.
///
/// For each request the client builds the URL (query items percent-encoded per RFC 3986), encodes the body,
/// consults the ``HTTPCache``, joins an identical request already in flight, waits for the host's rate limit, lets
/// the interceptors adapt the request, sends it through its ``HTTPTransport`` under its own deadlines, follows
/// redirects, retries what may be retried, validates the status and decodes the body. Encoding and decoding never
/// run on the caller's actor.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// struct Post: Codable, Sendable { var id: Int; var title: String }
///
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
/// let posts = try await client.send(Request<[Post]>(path: "/posts", query: [("userId", "1")])).value
/// ```
///
/// Every failure is an ``HTTPError``.
public final class HTTPClient: Sendable {
    /// The URL relative paths are appended to.
    public let baseURL: URL?
    /// The configuration the client was made with.
    public let configuration: Configuration

    let transport: any HTTPTransport
    /// The transport when it is a ``URLSessionTransport``, which enforces deadlines itself.
    let urlSessionTransport: URLSessionTransport?
    /// Whether the transport ends a transfer at the deadline it is given (``URLSessionTransport`` through
    /// ``followRedirects(_:_:deadline:sharing:)``, ``NativeTransport`` through ``TransportRequest/timeout``), so
    /// an attempt needs no task of its own (``withDeadline(_:operation:)``).
    let transportEnforcesDeadlines: Bool
    let rateLimiter: RateLimiter
    let coalescer = RequestCoalescer<CoalescingKey, Exchange>()
    /// The URLs (cache keys) with a background revalidation under way: one at a time per URL, so a burst of
    /// stale-while-revalidate hits starts one (``revalidateInBackground(_:stored:validators:policy:summary:)``).
    let backgroundRevalidations = Locked<Set<String>>([])
    let redaction: Redaction

    /// A client for `baseURL` with `configuration`.
    public init(baseURL: URL?, configuration: Configuration = Configuration()) {
        self.baseURL = baseURL
        self.configuration = configuration
        transport =
            configuration.transport
            ?? Self.defaultTransport(maximumConnectionsPerHost: configuration.maximumConnectionsPerHost)
        urlSessionTransport = transport as? URLSessionTransport
        #if os(Linux)
            transportEnforcesDeadlines = urlSessionTransport != nil || transport is NativeTransport
        #else
            transportEnforcesDeadlines = urlSessionTransport != nil
        #endif
        rateLimiter = RateLimiter(limits: configuration.rateLimits)
        redaction = Redaction(queryItems: configuration.redactedQueryItems)
    }

    /// A client for `baseURL` whose default configuration `configure` changes.
    public convenience init(baseURL: URL?, configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(baseURL: baseURL, configuration: configuration)
    }

    /// Sends `request` and returns its decoded response.
    ///
    /// Cancelling the calling task cancels the request at whatever stage it is (waiting for the rate limit, on the
    /// network, waiting to retry) and throws ``HTTPError/Kind/cancelled``.
    ///
    /// - Throws: ``HTTPError``.
    @concurrent
    public func send<Value>(_ request: Request<Value>) async throws(HTTPError) -> Response<Value> {
        try await perform(request, progress: nil)
    }

    /// The absolute URL `request` goes to (before interceptors), or `nil` when it cannot be built.
    public func url<Value>(for request: Request<Value>) -> URL? {
        try? URLBuilder.url(baseURL: baseURL, path: request.path, query: request.query)
    }

    /// A `curl` command that repeats `request` (before interceptors), with secrets redacted.
    public func curlDescription<Value>(for request: Request<Value>) -> String {
        guard let prepared = try? prepare(request) else { return "curl '\(request.path)'" }
        return redaction.curlDescription(prepared)
    }

    /// The request as it will go on the wire, before interceptors.
    func prepare<Value>(_ request: Request<Value>) throws(RequestProblem) -> TransportRequest {
        let url = try URLBuilder.url(baseURL: baseURL, path: request.path, query: request.query)
        var headers = configuration.headers
        for field in request.headers {
            if field.name.isEmpty || field.name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") }) {
                throw RequestProblem("'\(field.name)' is not a valid header name")
            }
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                throw RequestProblem("the value of header '\(field.name)' contains a line break")
            }
        }
        var seen = Set<String>()
        for field in request.headers where seen.insert(field.name.lowercased()).inserted {
            headers.remove(field.name)
        }
        for field in request.headers { headers.add(field.name, field.value) }
        var body: Data?
        if request.body != nil, request.method == .get || request.method == .head {
            throw RequestProblem("a \(request.method.rawValue) request cannot have a body")
        }
        if let requestBody = request.body {
            do {
                body = try requestBody.encoded(with: configuration.encoder)
            } catch {
                throw RequestProblem("the body could not be encoded: \(error)")
            }
            if !headers.contains("Content-Type") { headers.add("Content-Type", requestBody.contentType) }
        }
        return TransportRequest(
            method: request.method, url: url, headers: headers, body: body,
            timeout: request.timeout ?? configuration.timeout, maximumResponseSize: configuration.maximumResponseSize)
    }
}

/// What the network (or the cache) produced for one request, before validation and decoding.
struct Exchange: Sendable {
    var response: TransportResponse
    var source: Response<Void>.Source
    var attempts: Int
    var attemptDurations: [Duration]
    var rateLimitWait: Duration
    /// Served from the cache past its freshness (``Response/isStale``).
    var isStale = false
    /// A background revalidation of the served response is under way (``Response/isRevalidating``).
    var isRevalidating = false
}

/// Identical requests: same method, URL, headers (in order) and no body.
struct CoalescingKey: Hashable, Sendable {
    let method: String
    let url: String
    let headers: [String]

    init(_ request: TransportRequest) {
        method = request.method.rawValue
        url = request.url.absoluteString
        headers = request.headers.map { "\($0.name.lowercased()):\($0.value)" }
    }
}
