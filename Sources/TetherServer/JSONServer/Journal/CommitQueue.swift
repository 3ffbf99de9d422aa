/// Group commit, as a pure state machine: which appended records are durable, who waits for which, and when to
/// start the next `fdatasync`.
///
/// Writes append their records one after the other (each numbered: 1, 2, …) and then wait until a sync covers
/// their number. One sync runs at a time; it covers everything written when it started. Writes appended while
/// it runs wait for the next one, which starts as soon as it ends, so concurrent writers share syncs (PostgreSQL's
/// and most databases' group commit) while each still waits for its own durability.
///
/// Invariants: `synced ≤ written`; a waiter is resumed exactly once, with `true` only when a sync covered its end;
/// at most one sync is in flight; when none is and someone waits, one is started.
///
/// - Thread safety: a plain value, owned by the ``JSONDatabase`` actor; the I/O it asks for is done by the actor.
struct CommitQueue<Waiter> {
    /// What the owner must do next.
    enum Action: Equatable {
        case none
        /// Start a sync (off the actor), which covers the records up to number `end`, and report with
        /// ``synced(upTo:)`` or ``failed()``.
        case startSync(upTo: Int)
    }

    /// The number of the last record written.
    private(set) var written: Int
    /// The number of the last record a sync made durable.
    private(set) var synced: Int
    private var isSyncing = false
    private var waiting: [(end: Int, waiter: Waiter)] = []

    /// A queue whose records up to `number` are durable.
    init(durableUpTo number: Int = 0) {
        written = number
        synced = number
    }

    /// Whether no write waits and no sync runs (a fold or a close may replace the journal then).
    var isIdle: Bool { !isSyncing && waiting.isEmpty }

    /// A record was written; its number is `end`.
    mutating func wrote(upTo end: Int) {
        written = max(written, end)
    }

    /// `waiter` waits until the records up to number `end` are durable.
    ///
    /// - Returns: whether it may go on at once (already durable: it is not kept), and what to do.
    mutating func wait(for end: Int, _ waiter: Waiter) -> (isDurable: Bool, action: Action) {
        if end <= synced { return (true, .none) }
        waiting.append((end, waiter))
        return (false, nextSync())
    }

    /// The sync started by the last ``Action/startSync(upTo:)`` succeeded.
    ///
    /// - Returns: the waiters now durable (in order), and what to do next.
    mutating func synced(upTo end: Int) -> (durable: [Waiter], action: Action) {
        isSyncing = false
        synced = max(synced, end)
        var durable: [Waiter] = []
        var rest: [(end: Int, waiter: Waiter)] = []
        for entry in waiting {
            if entry.end <= synced { durable.append(entry.waiter) } else { rest.append(entry) }
        }
        waiting = rest
        return (durable, nextSync())
    }

    /// The sync failed (or the storage stopped): nothing after ``synced`` can be called durable. Every waiter is
    /// returned, to be answered with a failure, and no sync is started.
    mutating func failed() -> [Waiter] {
        isSyncing = false
        let all = waiting.map(\.waiter)
        waiting = []
        written = synced
        return all
    }

    private mutating func nextSync() -> Action {
        guard !isSyncing, !waiting.isEmpty else { return .none }
        isSyncing = true
        return .startSync(upTo: written)
    }
}
