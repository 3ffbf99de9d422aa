public import Foundation

/// A successful answer: the decoded value with everything the client knows about how it was obtained.
public struct Response<Value: Sendable>: Sendable {
    /// Where a response came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A network transfer with a full body.
        case network
        /// The cache, without asking the server.
        case cache
        /// The cache, after the server confirmed it with 304 Not Modified.
        case revalidated

        public var description: String {
            switch self {
            case .network: "network"
            case .cache: "cache"
            case .revalidated: "revalidated"
            }
        }
    }

    /// The decoded body.
    public var value: Value
    /// The status (for a revalidated response, the stored one, usually 200).
    public var status: HTTPStatus
    /// The response headers.
    public var headers: HTTPHeaders
    /// The raw body.
    public var data: Data
    /// The URL the answer came from, after redirects.
    public var url: URL
    /// Network, cache or revalidated.
    public var source: Source
    /// Network attempts made (0 when served from the cache alone).
    public var attempts: Int
    /// Timings measured by the client.
    public var metrics: Metrics
    /// Whether the response was served from the cache past its freshness lifetime: within its
    /// `stale-while-revalidate` or `stale-if-error` window (RFC 5861), under the client's
    /// ``HTTPClient/Configuration/maximumStaleOnError``, or by ``CachePolicy/returnCacheElseLoad``,
    /// ``CachePolicy/cacheOnly`` or ``CachePolicy/staleWhileRevalidate``. Its `Age` field says how old it is.
    public var isStale = false
    /// Whether a background revalidation of this cached response is under way; the cache is refreshed when it
    /// ends (``HTTPClient/responses(for:)`` also delivers the new response).
    public var isRevalidating = false

    /// The same response with another value.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> Response<Other> {
        let source: Response<Other>.Source =
            switch source {
            case .network: .network
            case .cache: .cache
            case .revalidated: .revalidated
            }
        return Response<Other>(
            value: try transform(value), status: status, headers: headers, data: data, url: url, source: source,
            attempts: attempts, metrics: metrics, isStale: isStale, isRevalidating: isRevalidating)
    }
}

/// Timings of one `send`, measured by the client with a monotonic clock (URLSession's metrics are not delivered
/// on Linux).
public struct Metrics: Sendable, Hashable {
    /// Wall-clock time when `send` started.
    public var startDate: Date
    /// From the start of `send` to the decoded value.
    public var total: Duration
    /// The duration of each network attempt, in order.
    public var attempts: [Duration]
    /// Time spent waiting for the per-host rate limit.
    public var rateLimitWait: Duration
    /// Time spent decoding the body.
    public var decoding: Duration
    /// Bytes of the response body.
    public var bytesReceived: Int
    /// The last network transfer's timings and sizes as the transport measured them (DNS, connect, TLS, sent,
    /// first byte, complete, bytes in and out, reuse); `nil` when the transport does not measure them
    /// (``URLSessionTransport``) or the response came from the cache alone.
    public var transfer: TransferMetrics?
}
