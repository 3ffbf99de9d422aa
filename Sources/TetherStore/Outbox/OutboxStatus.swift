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
}
