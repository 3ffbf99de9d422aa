public import Foundation

/// One write in the outbox: made locally, saved on disk, not yet confirmed by the server.
///
/// Entries of one entity are sent one at a time, in the order they were made; every attempt of an entry sends the
/// same ``idempotencyKey``, in this process or after a restart, so a server that honours the key applies it once.
public struct OutboxEntry: Sendable, Hashable, Identifiable {
    /// What the write does.
    public enum Kind: String, Sendable, Hashable {
        /// `POST` to the collection; the server chooses the id.
        case create
        /// `PATCH` (the changed fields) or `PUT` (the whole entity) to the entity.
        case update
        /// `DELETE` of the entity.
        case delete
    }

    /// Where the entry stands.
    public enum State: String, Sendable, Hashable {
        /// Waiting to be sent (or being sent, or waiting for the network to come back).
        case queued
        /// The server refused it for good (a 4xx); it waits for the user to retry or discard it, and the entity's
        /// later entries wait behind it.
        case failed
        /// The server's version changed since the edit was made (412); it waits for the user to keep theirs
        /// (sent again over the server's version) or take the server's.
        case conflict
    }

    /// The entry's number: entries are sent in this order.
    public var id: Int64
    /// The entity's type, as the store names it (the Swift type, `TetherAPIs.Note`).
    public var entityType: String
    /// The entity's id (a temporary id for an entity created locally and not yet confirmed).
    public var entityID: String
    /// The entity's collection path (`/notes`).
    public var collectionPath: String
    /// What the write does.
    public var kind: Kind
    /// The HTTP method it is sent with.
    public var method: String
    /// The `Idempotency-Key` every attempt sends.
    public var idempotencyKey: String
    /// When the write was made.
    public var createdAt: Date
    /// Attempts so far.
    public var attempts: Int
    /// Where it stands.
    public var state: State
    /// The last failure, as a sentence.
    public var lastError: String?
    /// The status of the last answer, when there was one.
    public var lastStatus: Int?
    /// The entity as the user left it (JSON), for creates and updates.
    public var value: Data?

    /// The path the write goes to.
    public var path: String { kind == .create ? collectionPath : collectionPath + "/" + entityID }
}

/// How a write ended, or why it has not ended yet.
public enum OutboxOutcome: Sendable {
    /// The server has the write: its answer's body (the entity's version, for a create or an update) and ETag.
    case confirmed(body: Data, etag: String?)
    /// The server refused it for good; the entry stays in the outbox as ``OutboxEntry/State/failed`` or
    /// ``OutboxEntry/State/conflict`` until the user retries or discards it.
    case failed(StoreError)
    /// Not known yet (no answer, or a transient failure): the entry stays queued and will be sent again with the
    /// same key.
    case pending(StoreError)
}
