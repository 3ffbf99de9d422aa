/// The background sender's pauses between its passes over the outbox: a pure policy, apart from the loop that
/// waits (`EntityStore.startOutbox()`).
///
/// - After a pass that left nothing waiting, the sender waits for a signal only (a new write, the server
///   answering again, ``EntityStore/sendWaitingWrites()``).
/// - After a pass whose waiting writes include one the server could not be reached for (or answered with a
///   transient failure), it looks again after ``current``, which then doubles up to ``longest``: backing off is
///   for a server that is away or struggling.
/// - After a pass whose waiting writes are only held by another sender (another store or process on the database,
///   sending that entity's earlier write) or queued behind one, it looks again after ``first``: the holder settles
///   its write in one exchange and nothing tells this sender when it has, so a pause grown by earlier passes must
///   not keep the write waiting after that.
struct OutboxPause: Sendable, Equatable {
    let first: Duration
    /// The longest pause; a value below ``first`` means ``first``.
    let longest: Duration
    /// The pause after the next pass that leaves a write the server could not be reached for.
    private(set) var current: Duration

    init(first: Duration, longest: Duration) {
        self.first = first
        self.longest = longest
        current = first
    }

    /// How long to wait after a pass before the next one (`nil`: only for a signal), given whether writes are
    /// still waiting and whether the server could not be reached for any of them.
    mutating func wait(waiting: Bool, unreachable: Bool) -> Duration? {
        guard waiting else {
            current = first
            return nil
        }
        guard unreachable else {
            current = first
            return first
        }
        defer { current = min(current * 2, max(first, longest)) }
        return current
    }
}
