public import TetherHTTP1

/// The faults one request asks for, scripted by the client so a test gets exactly the failure it needs.
///
/// Sent as the `X-Tether-Fault` header or the `_fault` query parameter (repeatable), as comma-separated
/// directives:
///
/// | directive | effect |
/// |---|---|
/// | `latency=150ms`, `latency=20ms..200ms` | wait before answering (a range draws from the seeded generator) |
/// | `status=503` | answer this status (200 to 599) with a JSON error body instead of asking the responders (`Retry-After: 1` for 503 and 429); a 1xx is refused, as it is never a final answer |
/// | `fail` | the same as `status=503` |
/// | `reset` | send the head and part of the body, then reset the connection |
/// | `truncate` | announce the full `Content-Length`, send half the body, then close |
/// | `none` | no faults, not even the configured random ones |
///
/// ```
/// GET /posts/1 HTTP/1.1
/// X-Tether-Fault: latency=150ms, reset
///
/// GET /posts/1?_fault=status=503
/// ```
///
/// The server removes the header and the query parameter before the request reaches the responders. A script
/// that cannot be read is answered `400` with a JSON error.
public struct FaultScript: Sendable, Hashable, CustomStringConvertible {
    /// The latency to add; a range draws a value uniformly.
    public var latency: ClosedRange<Duration>?
    /// The status to answer instead of the real response.
    public var status: HTTPStatus?
    /// Whether to reset the connection mid-response.
    public var reset: Bool
    /// Whether to send a body shorter than its `Content-Length`.
    public var truncate: Bool

    public init(
        latency: ClosedRange<Duration>? = nil, status: HTTPStatus? = nil, reset: Bool = false, truncate: Bool = false
    ) {
        self.latency = latency
        self.status = status
        self.reset = reset
        self.truncate = truncate
    }

    /// The request header that carries a script.
    public static let headerName = "X-Tether-Fault"
    /// The query parameter that carries a script.
    public static let queryName = "_fault"

    /// Reads a script such as `latency=150ms, status=503, reset`.
    ///
    /// - Throws: ``ServerError`` with code `invalidOption`, naming the directive it cannot read.
    public static func parse(_ text: String) throws(ServerError) -> FaultScript {
        var script = FaultScript()
        try script.merge(text)
        return script
    }

    /// Adds the directives in `text` to this script.
    mutating func merge(_ text: String) throws(ServerError) {
        for part in text.split(separator: ",") {
            let directive = String(part).trimmingSpaces
            if directive.isEmpty { continue }
            let name: String
            let value: String?
            if let equals = directive.firstIndex(of: "=") {
                name = String(directive[..<equals]).trimmingSpaces.lowercased()
                value = String(directive[directive.index(after: equals)...]).trimmingSpaces
            } else {
                name = directive.lowercased()
                value = nil
            }
            switch (name, value) {
            case ("latency", let value?):
                latency = try FaultConfiguration.parseLatency(value)
            case ("status", let value?):
                status = try FaultScript.parseStatus(value)
            case ("fail", nil):
                status = .serviceUnavailable
            case ("reset", nil):
                reset = true
            case ("truncate", nil):
                truncate = true
            case ("none", nil):
                break
            default:
                throw ServerError(
                    .invalidOption,
                    "invalid fault directive \"\(directive)\": expected latency=<duration>, status=<code>, fail, reset, truncate or none"
                )
            }
        }
    }

    /// The final status a `status=` directive names: 200 to 599.
    ///
    /// A 1xx is refused, as it can never be a final answer: sent in place of the response, a client would take
    /// the next response on the connection for this one. `101` in particular is only ever sent with `Upgrade`.
    static func parseStatus(_ value: String) throws(ServerError) -> HTTPStatus {
        guard let code = Int(value), (100...599).contains(code) else {
            throw ServerError(.invalidOption, "invalid fault status \"\(value)\": expected 200...599")
        }
        if code == 101 {
            throw ServerError(
                .invalidOption,
                "invalid fault status 101: 101 Switching Protocols is only sent with Upgrade, never as an injected answer"
            )
        }
        if code < 200 {
            throw ServerError(
                .invalidOption,
                "invalid fault status \(code): a 1xx response is informational, never a final answer; expected 200...599"
            )
        }
        return HTTPStatus(code: code)
    }

    /// The script as the header value that asks for it: `latency=150ms, status=503, reset, truncate`, or `none`.
    public var description: String {
        var parts: [String] = []
        if let latency {
            parts.append(
                latency.lowerBound == latency.upperBound
                    ? "latency=\(latency.lowerBound.shortDescription)"
                    : "latency=\(latency.lowerBound.shortDescription)..\(latency.upperBound.shortDescription)")
        }
        if let status { parts.append("status=\(status.code)") }
        if reset { parts.append("reset") }
        if truncate { parts.append("truncate") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
