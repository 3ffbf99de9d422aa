public import Foundation
public import Observation

/// What a store's outbox holds and whether the server can be reached: for a status bar ("2 edits waiting,
/// offline") and for a warning before quitting.
///
/// Observable; changes on the main actor.
@MainActor
@Observable
public final class OutboxStatus {
    /// Whether the store's server answered lately.
    public enum Network: Sendable, Hashable {
        /// Nothing was sent yet.
        case unknown
        /// The last request got an answer.
        case reachable
        /// The last request got none (no connection, a timeout), since this date.
        case unreachable(since: Date)
    }

    /// Writes saved on this device and not yet confirmed by the server.
    public internal(set) var count = 0
    /// Of those, the ones the server refused, waiting for the user to retry or discard them.
    public internal(set) var failedCount = 0
    /// When the oldest waiting write was made.
    public internal(set) var oldest: Date?
    /// The last failure of a write.
    public internal(set) var lastError: StoreError?
    /// Whether the server can be reached.
    public internal(set) var network: Network = .unknown
    /// Why the store works without its database (it could not be opened, or was damaged and moved aside); `nil`
    /// while the database is in use or none was asked for.
    public internal(set) var databaseProblem: String?

    nonisolated init() {}

    /// Whether the server answered the last request.
    public var isOffline: Bool {
        if case .unreachable = network { return true }
        return false
    }

    /// The writes still on their way: queued, being sent, or waiting for the network (``count`` less the
    /// ``failedCount`` that wait for the user).
    public var waitingCount: Int { max(0, count - failedCount) }

    /// A value copy of the status.
    public struct Snapshot: Sendable {
        public var count: Int
        public var failedCount: Int
        public var oldest: Date?
        public var lastError: StoreError?
        public var network: Network
        public var databaseProblem: String?

        /// See ``OutboxStatus/waitingCount``.
        public var waitingCount: Int { max(0, count - failedCount) }
        /// See ``OutboxStatus/isOffline``.
        public var isOffline: Bool {
            if case .unreachable = network { return true }
            return false
        }

        @MainActor init(_ status: OutboxStatus) {
            count = status.count
            failedCount = status.failedCount
            oldest = status.oldest
            lastError = status.lastError
            network = status.network
            databaseProblem = status.databaseProblem
        }
    }

    /// The status as an asynchronous sequence, for code that does not use Observation: the current snapshot first,
    /// then one after each change (changes made in one turn of the main actor come as one snapshot). The sequence
    /// goes on until the task iterating it is cancelled or stops iterating.
    ///
    /// ```swift
    /// import TetherStore
    ///
    /// @MainActor func showWaitingEdits(of store: EntityStore) async {
    ///     for await status in store.outboxStatus.updates {
    ///         print("\(status.waitingCount) edits waiting", status.isOffline ? "(offline)" : "")
    ///     }
    /// }
    /// ```
    public var updates: AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
        track(continuation)
        return stream
    }

    /// Yields the current snapshot and yields again at the next change, until the consumer goes.
    private func track(_ continuation: AsyncStream<Snapshot>.Continuation) {
        let snapshot = withObservationTracking {
            Snapshot(self)
        } onChange: { [weak self] in
            // Called before the change is made: the next turn of the main actor reads it.
            Task { @MainActor in self?.track(continuation) }
        }
        if case .terminated = continuation.yield(snapshot) { return }
    }
}

extension OutboxStatus {
    /// What ``EntityStore/sendWaitingWrites(timeout:)`` found when it returned.
    public struct Drain: Sendable, Hashable {
        /// Writes still queued, being sent or waiting for the network: 0 unless the time ran out first.
        public var waiting: Int
        /// Writes the server refused (failed or in conflict), and the later writes of their entities queued behind
        /// them: they wait for the user (retry, discard, or resolve the conflict), so the call does not wait for them.
        public var needUser: Int

        /// Whether nothing is on its way any more.
        public var isDrained: Bool { waiting == 0 }
    }
}
