/// An interceptor's answer to a failed attempt (``HTTPInterceptor/retryDecision(for:context:)``).
public enum RetryDecision: Sendable, Hashable {
    /// Let the next interceptor, then the ``RetryPolicy``, decide.
    case useDefault
    /// Do not retry; the failure stands.
    case doNotRetry
    /// Retry now, even where the policy would not (for example after refreshing a token). Such retries are
    /// bounded too: at most ``HTTPClient/Configuration/maximumInterceptorRetries`` per request.
    case retry
    /// Retry after waiting this long.
    case retryAfter(Duration)
}

/// What an interceptor knows about a failed attempt.
public struct RetryContext: Sendable {
    /// Attempts made so far (1 after the first).
    public var attempt: Int
    /// The response, when the failure is a status.
    public var response: TransportResponse?
    /// The error, when the attempt threw (connection error, timeout).
    public var error: HTTPError?
    /// The status of each attempt so far, in order (`nil` for attempts that threw).
    public var statuses: [Int?]
}
