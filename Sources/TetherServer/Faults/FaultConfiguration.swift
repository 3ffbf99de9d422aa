/// Random faults the server injects into responses, for testing a client's reliability: added latency, failed
/// requests, connections reset mid-response and truncated bodies. Off by default (``none``).
///
/// Each request draws from one seeded generator shared by all connections, always the same number of draws, so
/// a seed gives the same sequence of faults for the same sequence of requests. A request that carries a
/// ``FaultScript`` (the `X-Tether-Fault` header or the `_fault` query parameter) gets exactly its scripted
/// faults and no random ones.
///
/// ```swift
/// import TetherServer
///
/// let faults = try FaultConfiguration.parse(latency: "20ms..200ms", failRate: "0.1", seed: "7")
/// ```
///
/// The faults, in the order they apply:
/// - `latency`: the response waits a duration drawn uniformly from the range.
/// - `failRate`: the request is answered `503 Service Unavailable` with `Retry-After: 1` and a JSON error body,
///   without asking the responders.
/// - `resetRate`: the response head and part of the body are sent, then the connection is reset (RST).
/// - `truncateRate`: the head announces the full `Content-Length`, half the body is sent, then the connection is
///   closed.
public struct FaultConfiguration: Sendable, Hashable {
    /// Added latency, drawn uniformly from the range; `nil` for none.
    public var latency: ClosedRange<Duration>?
    /// The probability (0...1) that a request fails with 503.
    public var failRate: Double
    /// The probability (0...1) that a response is cut off by a connection reset.
    public var resetRate: Double
    /// The probability (0...1) that a response body is shorter than its `Content-Length`.
    public var truncateRate: Double
    /// The seed of the generator behind every random choice.
    public var seed: UInt64

    public init(
        latency: ClosedRange<Duration>? = nil, failRate: Double = 0, resetRate: Double = 0, truncateRate: Double = 0,
        seed: UInt64 = 0
    ) {
        self.latency = latency
        self.failRate = failRate
        self.resetRate = resetRate
        self.truncateRate = truncateRate
        self.seed = seed
    }

    /// No faults.
    public static let none = FaultConfiguration()

    /// Whether no random fault can happen.
    public var isNone: Bool { latency == nil && failRate <= 0 && resetRate <= 0 && truncateRate <= 0 }

    /// A configuration from command-line texts, each optional: `latency` as in ``parseLatency(_:)``, the rates as
    /// decimal probabilities (`0.1`), `seed` as a decimal integer.
    ///
    /// - Throws: ``ServerError`` with code `invalidOption`, naming the bad text.
    public static func parse(
        latency: String? = nil, failRate: String? = nil, resetRate: String? = nil, truncateRate: String? = nil,
        seed: String? = nil
    ) throws(ServerError) -> FaultConfiguration {
        var configuration = FaultConfiguration()
        if let latency { configuration.latency = try parseLatency(latency) }
        if let failRate { configuration.failRate = try parseRate(failRate) }
        if let resetRate { configuration.resetRate = try parseRate(resetRate) }
        if let truncateRate { configuration.truncateRate = try parseRate(truncateRate) }
        if let seed {
            guard let value = UInt64(seed) else {
                throw ServerError(.invalidOption, "invalid seed \"\(seed)\": expected a non-negative integer")
            }
            configuration.seed = value
        }
        return configuration
    }

    /// A probability from `0` to `1`, such as `0.05`.
    public static func parseRate(_ text: String) throws(ServerError) -> Double {
        guard let value = Double(text), value >= 0, value <= 1 else {
            throw ServerError(.invalidOption, "invalid rate \"\(text)\": expected a number from 0 to 1")
        }
        return value
    }

    /// A duration with a unit: `150ms`, `1.5s`, `250us` (or `µs`), `2m`, `500ns`.
    public static func parseDuration(_ text: String) throws(ServerError) -> Duration {
        let trimmed = text.trimmingSpaces
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9),
        ]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite
            else { continue }
            let nanoseconds = value * unit.nanoseconds
            guard nanoseconds < 1e18 else { break }
            return .nanoseconds(Int64(nanoseconds.rounded()))
        }
        throw ServerError(
            .invalidOption, "invalid duration \"\(text)\": expected a number and a unit, as in 150ms or 1.5s")
    }

    /// A duration (`150ms`, a range of one) or a range of them (`20ms..200ms`; `...` works too).
    public static func parseLatency(_ text: String) throws(ServerError) -> ClosedRange<Duration> {
        guard let dots = text.firstRange(of: "..") else {
            let value = try parseDuration(text)
            return value...value
        }
        let lowerText = String(text[..<dots.lowerBound])
        var upperText = text[dots.upperBound...]
        if upperText.hasPrefix(".") { upperText = upperText.dropFirst() }
        let lower = try parseDuration(lowerText)
        let upper = try parseDuration(String(upperText))
        guard lower <= upper else {
            throw ServerError(.invalidOption, "invalid latency range \"\(text)\": the lower bound is above the upper")
        }
        return lower...upper
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// A short text for logs: `150ms`, `1.5s`, `250µs`.
    var shortDescription: String {
        let nanoseconds = nanosecondCount
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        return "\(nanoseconds / 1000)µs"
    }
}
