import Observation
import TetherHTTP
import TetherSync

/// Request activity for the status bar: how many requests are in flight and how the last one ended.
///
/// Fed by ``ActivityMonitor`` from whatever thread the client reports on; read on the main actor.
@MainActor
@Observable
final class AppActivity {
    /// Requests sent and not yet answered.
    private(set) var inFlight = 0
    /// Requests answered since launch.
    private(set) var completed = 0
    /// A short line about the last request that ended: `"GET /notes 200 12 ms"`.
    private(set) var lastRequest: String?

    @ObservationIgnored private var lastSequence = 0

    /// Applies an update counted by the monitor, ignoring one older than an update already applied.
    fileprivate func apply(_ update: ActivityMonitor.Update) {
        guard update.sequence > lastSequence else { return }
        lastSequence = update.sequence
        inFlight = update.inFlight
        completed = update.completed
        if let line = update.lastRequest { lastRequest = line }
    }
}

/// An ``HTTPEventMonitor`` that counts requests for ``AppActivity``. Thread safe.
final class ActivityMonitor: HTTPEventMonitor {
    fileprivate struct Update: Sendable {
        var sequence: Int
        var inFlight: Int
        var completed: Int
        var lastRequest: String?
    }

    private struct Counts {
        var sequence = 0
        var inFlight = 0
        var completed = 0
    }

    private let counts = Locked(Counts())
    private let activity: AppActivity

    @MainActor init(activity: AppActivity) {
        self.activity = activity
    }

    func handle(_ event: HTTPEvent) {
        var line: String?
        let update = counts.withLock { counts -> Update in
            switch event {
            case .started(_, let attempt):
                if attempt == 1 { counts.inFlight += 1 }
            case .retrying:
                break
            case .finished(let request, let status, let source, let duration, _):
                counts.inFlight = max(0, counts.inFlight - 1)
                counts.completed += 1
                let milliseconds = Int((duration / .milliseconds(1)).rounded())
                let origin = source == .network ? "" : " (\(source))"
                line =
                    "\(request.method.rawValue) \(Self.path(of: request.url)) \(status.code) \(milliseconds) ms\(origin)"
            case .failed(let error):
                counts.inFlight = max(0, counts.inFlight - 1)
                counts.completed += 1
                if !error.isCancellation {
                    line = "\(error.request.method.rawValue) \(Self.path(of: error.request.url)) failed"
                }
            }
            counts.sequence += 1
            return Update(
                sequence: counts.sequence, inFlight: counts.inFlight, completed: counts.completed, lastRequest: line)
        }
        let activity = self.activity
        Task { @MainActor in activity.apply(update) }
    }

    /// The path and query of a (redacted) URL, for a short status line.
    private static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else {
            return url
        }
        return String(url[slash...])
    }
}
