import Foundation
public import TetherJSON

extension HTTPClient {
    /// Everything about a client that is not per request. A value: build it, then give it to the client.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherHTTP
    ///
    /// let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("http-cache")
    /// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!) {
    ///     $0.timeout = .seconds(5)
    ///     $0.cache = HTTPCache(configuration: .init(directory: cacheFolder))
    ///     $0.rateLimits["app.rakuten.co.jp"] = .perSecond(1)
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Headers sent with every request (a request's own header of the same name wins).
        public var headers: HTTPHeaders = ["Accept": "application/json", "User-Agent": "Tether/0.1"]
        /// The deadline of one attempt, enforced by the client with sub-second precision.
        public var timeout: Duration = .seconds(30)
        /// The deadline of all attempts of one request together, waits included; `nil` for none.
        public var totalTimeout: Duration?
        /// When to retry.
        public var retryPolicy: RetryPolicy = .default
        /// The most retries interceptors may ask for in one request (``RetryDecision/retry``), beyond the policy's.
        public var maximumInterceptorRetries = 2
        /// The HTTP cache; `nil` (the default) for none.
        public var cache: HTTPCache?
        /// How requests use the cache unless they say otherwise.
        public var cachePolicy: CachePolicy = .useProtocol
        /// How far past its freshness any stored response may be served when the server cannot be reached or
        /// answers 500, 502, 503 or 504, whatever its headers say: for apps that prefer old data to an error
        /// screen. `nil` (the default): only responses that say `stale-if-error` are, within their window
        /// (RFC 5861). Either way a response marked `must-revalidate` or `no-cache` is never served stale, and a
        /// `no-store` one was never stored. A stale answer arrives as a success with ``Response/isStale`` set.
        public var maximumStaleOnError: Duration?
        /// Interceptors, in order.
        public var interceptors: [any HTTPInterceptor] = []
        /// Decodes JSON bodies.
        public var decoder = TetherJSONDecoder()
        /// Encodes ``RequestBody/json(_:)-(Value)`` bodies.
        public var encoder = TetherJSONEncoder()
        /// The largest response body accepted; a larger one fails with ``HTTPError/Kind/responseTooLarge(limit:)``.
        public var maximumResponseSize = 64 << 20
        /// Connections per host for the default transport.
        public var maximumConnectionsPerHost = 6
        /// Redirects followed per attempt.
        public var maximumRedirects = 5
        /// Statuses accepted as success.
        public var acceptableStatuses = 200..<300
        /// Request rates per host name (lowercase), for example `["app.rakuten.co.jp": .perSecond(1)]`.
        public var rateLimits: [String: RateLimit] = [:]
        /// Whether concurrent identical GET and HEAD requests share one transfer.
        public var coalescesRequests = true
        /// Receivers of every event.
        public var monitors: [any HTTPEventMonitor] = []
        /// Query items whose values never appear in logs, errors or `curl` descriptions (case-insensitive).
        /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` headers are always hidden.
        public var redactedQueryItems: Set<String> = [
            "applicationId", "accessKey", "affiliateId", "access_token", "api_key", "apiKey", "token", "secret",
        ]
        /// Decodes an API's error body for ``HTTPError/StatusFailure/apiError``, so that ``HTTPError/message``
        /// shows the server's own words. The default, ``APIErrorDecoder/standard``, reads RFC 9457 problem
        /// details and the common JSON shapes into an ``APIProblem``; `nil` decodes nothing.
        public var apiErrorDecoder: APIErrorDecoder? = .standard
        /// The transport; `nil` (the default) for a ``NativeTransport`` on Linux (a ``URLSessionTransport`` when
        /// `TETHER_TRANSPORT=urlsession`), a ``URLSessionTransport`` elsewhere.
        public var transport: (any HTTPTransport)?

        public init() {}
    }
}
