import Synchronization
import TetherSync

/// At most one admitted request per `interval` for each application id.
///
/// A refused request does not restart the interval. Ids not seen for an interval are forgotten once the table
/// grows past a thousand entries, so it stays small.
///
/// - Thread safety: safe to call from any thread; state is behind a `Locked`.
final class RakutenRateLimiter: Sendable {
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lastAdmitted = Locked<[String: ContinuousClock.Instant]>([:])

    init(interval: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.interval = interval
        self.now = now
    }

    /// Whether a request for `applicationID` may go ahead now; if so, it is counted.
    func admit(_ applicationID: String) -> Bool {
        let instant = now()
        let interval = interval
        return lastAdmitted.withLock { table in
            if let last = table[applicationID], instant - last < interval { return false }
            if table.count > 1000 { table = table.filter { instant - $0.value < interval } }
            table[applicationID] = instant
            return true
        }
    }
}
