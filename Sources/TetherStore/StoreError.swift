/// The one error TetherStore reports: on a query, on an entity, or on a mutation.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The request failed; the HTTP error says how (status, transport, timeout, decoding, …).
        case http(HTTPError)
        /// The server's version changed since the edit was based on it (412); see ``EntityState/conflict``.
        case conflict
        /// The entity is not in the store (never loaded, deleted, or released).
        case notFound(String)
        /// The entity could not be encoded for the request.
        case encoding(String)
        /// The local database could not be read or written (the message says which file and why).
        case database(String)
    }

    /// Boxed, so that an optional error costs one word in each entity's state.
    private final class Storage: Sendable {
        let kind: Kind
        let isPending: Bool
        init(_ kind: Kind, isPending: Bool = false) {
            self.kind = kind
            self.isPending = isPending
        }
    }

    private let storage: Storage

    /// What went wrong.
    public var kind: Kind { storage.kind }

    public init(_ kind: Kind) { storage = Storage(kind) }

    /// An error for a write that did not reach the server yet and is kept in the outbox, which sends it later.
    init(pending kind: Kind) { storage = Storage(kind, isPending: true) }

    /// Whether the write this error is about is kept in the outbox and will be sent again (a transient failure:
    /// the server could not be reached, timed out, or answered 408, 425, 429 or 5xx). `false` for a write that
    /// failed for good, and for reads.
    public var isPending: Bool { storage.isPending }

    /// The HTTP error, when there is one.
    public var httpError: HTTPError? {
        if case .http(let error) = kind { return error }
        return nil
    }

    /// Whether the request got no answer: no connection, a reset, a timeout.
    public var isUnreachable: Bool {
        switch httpError?.kind {
        case .transport, .timeout: true
        default: false
        }
    }

    /// Whether the failure is a cancellation (a superseded or abandoned load).
    public var isCancellation: Bool { httpError?.isCancellation ?? false }

    /// A short sentence for a UI.
    public var message: String {
        if isPending { return "Saved on this device; it will be sent when the server can be reached." }
        return switch kind {
        case .http(let error): error.message
        case .conflict: "Someone else changed this meanwhile."
        case .notFound: "This item is no longer available."
        case .encoding: "The change could not be prepared."
        case .database: "The local database could not be used."
        }
    }

    public var description: String {
        switch kind {
        case .http(let error): error.description
        case .conflict: "conflict: the server's version changed (412)"
        case .notFound(let what): "not found: \(what)"
        case .encoding(let reason): "encoding failed: \(reason)"
        case .database(let reason): "local database: \(reason)"
        }
    }
}

extension StoreError.Kind {
    /// The message of a ``database(_:)`` error, `nil` for the other kinds.
    public var databaseMessage: String? {
        if case .database(let message) = self { return message }
        return nil
    }
}
