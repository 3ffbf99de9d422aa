public import TetherHTTP

/// Settings of one create, update or delete: what the store's defaults do not say.
///
/// ```swift
/// import Foundation
/// import TetherAPIs
///
/// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
/// let notes = store.query(.notes)
/// await notes.load()
/// var note = notes.items[0]
/// note.title = "Groceries"
/// try await store.update(note, options: MutationOptions(headers: ["X-Reason": "typo"], timeout: .seconds(5)))
/// ```
///
/// With a database, the options are saved with the write in the outbox, so every attempt (after a restart too)
/// sends the same headers with the same timeout, and `idempotencyKey` (when given) is the key they all send.
public struct MutationOptions: Sendable {
    /// Headers added to the request (after the store's own: `If-Match`, `Idempotency-Key`).
    public var headers: HTTPHeaders
    /// The timeout of each attempt; `nil` for the client's.
    public var timeout: Duration?
    /// The `Idempotency-Key` the outbox sends with every attempt; `nil` to make one. Ignored without a database.
    public var idempotencyKey: String?

    public init(headers: HTTPHeaders = [:], timeout: Duration? = nil, idempotencyKey: String? = nil) {
        self.headers = headers
        self.timeout = timeout
        self.idempotencyKey = idempotencyKey
    }

    func apply<Value>(to request: inout Request<Value>) {
        for (name, value) in headers { request.headers.add(name, value) }
        if let timeout { request.timeout = timeout }
    }
}
