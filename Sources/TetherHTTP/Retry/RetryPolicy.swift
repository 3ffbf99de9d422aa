import Foundation

/// When and how often a failed request is tried again.
///
/// A request is retried only when all of these hold:
/// - the failure is retryable: a connection error, a timeout of one attempt, or a status in ``retryableStatuses``
///   (408, 429 and 5xx by default);
/// - the method is idempotent (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) or the request carries an
///   `Idempotency-Key` header, so a retry cannot apply a write twice;
/// - fewer than ``maximumAttempts`` attempts were made, and the wait fits in the total deadline.
///
/// The wait before retry *n* (1, 2, …) is `initialDelay × multiplier^(n-1)`, capped at ``maximumDelay``, minus a
/// random fraction of up to ``jitter`` of it (so clients that failed together do not retry together). A
/// `Retry-After` header (seconds or an HTTP date) replaces that wait; one longer than ``maximumRetryAfter`` means
/// no retry, and the failure is returned at once. Waiting is cancellable.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 means never retry.
    public var maximumAttempts: Int
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// The growth of the wait per retry.
    public var multiplier: Double
    /// The longest computed wait.
    public var maximumDelay: Duration
    /// The largest random fraction taken off each wait, from 0 (none) to 1.
    public var jitter: Double
    /// The longest `Retry-After` honoured; a longer one ends the retries.
    public var maximumRetryAfter: Duration
    /// Statuses worth another try.
    public var retryableStatuses: Set<Int>
    /// Whether a `Retry-After` header is treated as no wait at all (``immediate(maximumAttempts:)``).
    public var ignoresRetryAfter = false

    public init(
        maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(200), multiplier: Double = 2,
        maximumDelay: Duration = .seconds(10), jitter: Double = 0.3, maximumRetryAfter: Duration = .seconds(30),
        retryableStatuses: Set<Int> = Set([408, 429]).union(500...599)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = min(1, max(0, jitter))
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatuses = retryableStatuses
    }

    /// Three attempts, 200 ms then 400 ms (less jitter), `Retry-After` up to 30 s.
    public static let `default` = RetryPolicy()

    /// One attempt, no retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Retries that wait for no real time (no backoff, no jitter, `Retry-After` taken as zero up to a day): for
    /// tests of retry behaviour that should not pay seconds of real backoff.
    public static func immediate(maximumAttempts: Int = 3) -> RetryPolicy {
        var policy = RetryPolicy(
            maximumAttempts: maximumAttempts, initialDelay: .zero, multiplier: 1, maximumDelay: .zero, jitter: 0,
            maximumRetryAfter: .seconds(86_400))
        policy.ignoresRetryAfter = true
        return policy
    }

    /// The wait before retry number `retry` (1 for the first retry), jitter included.
    func delay(beforeRetry retry: Int) -> Duration {
        let base = initialDelay.seconds * pow(multiplier, Double(max(0, retry - 1)))
        let capped = min(base, maximumDelay.seconds)
        let jittered = capped * (1 - jitter * Double.random(in: 0...1))
        return .nanoseconds(Int64(max(0, jittered) * 1e9))
    }

    /// Whether `method` with `headers` may be sent twice without harm.
    static func isRetrySafe(method: HTTPMethod, headers: HTTPHeaders) -> Bool {
        switch method.rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: headers.contains("Idempotency-Key")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
