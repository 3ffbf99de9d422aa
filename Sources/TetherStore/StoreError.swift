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
    }

    /// Boxed, so that an optional error costs one word in each entity's state.
    private final class Storage: Sendable {
        let kind: Kind
        init(_ kind: Kind) { self.kind = kind }
    }

    private let storage: Storage

    /// What went wrong.
    public var kind: Kind { storage.kind }

    public init(_ kind: Kind) { storage = Storage(kind) }

    /// The HTTP error, when there is one.
    public var httpError: HTTPError? {
        if case .http(let error) = kind { return error }
        return nil
    }

    /// Whether the failure is a cancellation (a superseded or abandoned load).
    public var isCancellation: Bool { httpError?.isCancellation ?? false }

    /// A short sentence for a UI.
    public var message: String {
        switch kind {
        case .http(let error): error.message
        case .conflict: "Someone else changed this meanwhile."
        case .notFound: "This item is no longer available."
        case .encoding: "The change could not be prepared."
        }
    }

    public var description: String {
        switch kind {
        case .http(let error): error.description
        case .conflict: "conflict: the server's version changed (412)"
        case .notFound(let what): "not found: \(what)"
        case .encoding(let reason): "encoding failed: \(reason)"
        }
    }
}
