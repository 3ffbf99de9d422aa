import TetherSync

/// A request rate for one host, as a token bucket: up to ``burst`` requests at once, then ``requests`` per
/// ``interval``.
///
/// With a rate limit configured, callers wait for their turn instead of getting 429s (Rakuten allows one request per
/// second per application).
public struct RateLimit: Sendable, Hashable {
    /// Requests per interval.
    public var requests: Int
    /// The interval.
    public var interval: Duration
    /// Requests allowed back to back after a quiet period.
    public var burst: Int

    public init(requests: Int, per interval: Duration, burst: Int = 1) {
        self.requests = max(1, requests)
        self.interval = interval
        self.burst = max(1, burst)
    }

    /// `requests` per second.
    public static func perSecond(_ requests: Int, burst: Int = 1) -> RateLimit {
        RateLimit(requests: requests, per: .seconds(1), burst: burst)
    }
}

/// Token buckets per host. Thread safe.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let limits: [String: RateLimit]
    private let buckets = Locked<[String: Bucket]>([:])

    init(limits: [String: RateLimit]) {
        self.limits = Dictionary(limits.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    var isEmpty: Bool { limits.isEmpty }

    /// Waits until `host` may be sent another request and takes the token; returns the time waited.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting (the token is given back).
    func acquire(host: String?) async throws -> Duration {
        guard let host = host?.lowercased(), let limit = limits[host] else { return .zero }
        let rate = Double(limit.requests) / limit.interval.seconds
        let wait = buckets.withLock { buckets -> Double in
            let now = ContinuousClock.now
            var bucket = buckets[host] ?? Bucket(tokens: Double(limit.burst), updated: now)
            bucket.tokens = min(Double(limit.burst), bucket.tokens + (now - bucket.updated).seconds * rate)
            bucket.updated = now
            bucket.tokens -= 1
            buckets[host] = bucket
            return bucket.tokens >= 0 ? 0 : -bucket.tokens / rate
        }
        guard wait > 0 else { return .zero }
        let duration = Duration.nanoseconds(Int64(wait * 1e9))
        do {
            try await Task.sleep(for: duration)
        } catch {
            buckets.withLock { $0[host]?.tokens += 1 }
            throw error
        }
        return duration
    }
}
