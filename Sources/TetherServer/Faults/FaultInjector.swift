import TetherHTTP1
import TetherSync

/// The faults chosen for one request.
struct FaultPlan: Sendable, Equatable {
    var latency: Duration?
    var status: HTTPStatus?
    var reset = false
    var truncate = false

    var isEmpty: Bool { latency == nil && status == nil && !reset && !truncate }

    /// The faults for the access log: `latency=150ms,status=503,reset,truncate`.
    var logDescription: String {
        var parts: [String] = []
        if let latency { parts.append("latency=\(latency.shortDescription)") }
        if let status { parts.append("status=\(status.code)") }
        if reset { parts.append("reset") }
        if truncate { parts.append("truncate") }
        return parts.joined(separator: ",")
    }
}

/// Decides each request's faults: the request's own script when it has one, else random draws from the
/// configuration's seeded generator.
///
/// - Thread safety: called from every connection thread; the generator is behind a lock.
final class FaultInjector: Sendable {
    let configuration: FaultConfiguration
    private let generator: Locked<SplitMix64>

    init(configuration: FaultConfiguration) {
        self.configuration = configuration
        generator = Locked(SplitMix64(seed: configuration.seed))
    }

    /// Takes the fault script out of `request` (its header and query parameter) and returns the faults to apply,
    /// `nil` for none.
    ///
    /// - Throws: ``ServerError`` when the script cannot be read.
    func plan(for request: inout HTTPRequest) throws(ServerError) -> FaultPlan? {
        if let script = try FaultInjector.extractScript(from: &request) {
            var plan = FaultPlan(status: script.status, reset: script.reset, truncate: script.truncate)
            if let latency = script.latency {
                plan.latency =
                    latency.lowerBound == latency.upperBound
                    ? latency.lowerBound : draw(in: latency, unit: generator.withLock { $0.unit() })
            }
            return plan.isEmpty ? nil : plan
        }
        if configuration.isNone { return nil }
        let (latencyDraw, failDraw, resetDraw, truncateDraw) = generator.withLock {
            ($0.unit(), $0.unit(), $0.unit(), $0.unit())
        }
        var plan = FaultPlan()
        if let latency = configuration.latency { plan.latency = draw(in: latency, unit: latencyDraw) }
        if failDraw < configuration.failRate {
            plan.status = .serviceUnavailable
        } else if resetDraw < configuration.resetRate {
            plan.reset = true
        } else if truncateDraw < configuration.truncateRate {
            plan.truncate = true
        }
        return plan.isEmpty ? nil : plan
    }

    private func draw(in range: ClosedRange<Duration>, unit: Double) -> Duration {
        let lower = range.lowerBound.nanosecondCount
        let span = Double(range.upperBound.nanosecondCount - lower)
        return .nanoseconds(lower + Int64((span * unit).rounded(.down)))
    }

    /// The script in the request's `X-Tether-Fault` headers and `_fault` query items, removing them; `nil` when
    /// there is none.
    static func extractScript(from request: inout HTTPRequest) throws(ServerError) -> FaultScript? {
        var script: FaultScript?
        let headerValues = request.headers.values(for: FaultScript.headerName)
        if !headerValues.isEmpty {
            var parsed = FaultScript()
            for value in headerValues { try parsed.merge(value) }
            request.headers.remove(FaultScript.headerName)
            script = parsed
        }
        guard request.targetMayContain("_fault"), let question = request.target.utf8.firstIndex(of: UInt8(ascii: "?"))
        else { return script }
        let prefix = request.target[..<question]
        let query = request.target[request.target.index(after: question)...]
        var kept: [Substring] = []
        var found = false
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let rawName = item.firstIndex(of: "=").map { item[..<$0] } ?? item
            if HTTPTarget.percentDecode(rawName, plusIsSpace: true) == FaultScript.queryName {
                let rawValue = item.firstIndex(of: "=").map { item[item.index(after: $0)...] } ?? ""
                let value = HTTPTarget.percentDecode(rawValue, plusIsSpace: true) ?? String(rawValue)
                var parsed = script ?? FaultScript()
                try parsed.merge(value)
                script = parsed
                found = true
            } else {
                kept.append(item)
            }
        }
        if found {
            request.target = kept.isEmpty ? String(prefix) : prefix + "?" + kept.joined(separator: "&")
        }
        return script
    }
}
