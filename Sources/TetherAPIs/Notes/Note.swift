public import Foundation

/// A note of the notes example: `GET/POST /notes`, `GET/PATCH/PUT/DELETE /notes/<id>`.
///
/// ```swift
/// import Foundation
/// import TetherAPIs
///
/// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
/// let notes = store.query(.notes)
/// await notes.load()
/// let saved = try await store.create(Note.draft(title: "Groceries", body: "Milk"))
/// try await store.update(saved.edited(body: "Milk, eggs"))
/// ```
public struct Note: RemoteEntity, Hashable {
    public static let collectionPath = "/notes"

    /// The server's id; negative for a draft not saved yet (``draft(title:body:now:)``).
    public var id: Int
    public var title: String
    public var body: String
    /// When the note last changed, as ISO 8601 UTC text (`"2026-11-30T09:12:00Z"`); see ``updatedDate``.
    public var updatedAt: String?

    public init(id: Int, title: String, body: String, updatedAt: String? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
    }

    /// A new note for ``/TetherStore/EntityStore/create(_:)``: a temporary id (lists show it at once, and it takes the
    /// server's id when saved) and `updatedAt` set to `now`.
    public static func draft(title: String, body: String, now: Date = Date()) -> Note {
        Note(id: temporaryID(), title: title, body: body, updatedAt: timestamp(now))
    }

    /// This note with a new title and/or body and `updatedAt` set to `now`, for
    /// ``/TetherStore/EntityStore/update(_:)``.
    public func edited(title: String? = nil, body: String? = nil, now: Date = Date()) -> Note {
        Note(id: id, title: title ?? self.title, body: body ?? self.body, updatedAt: Self.timestamp(now))
    }

    /// Whether the note is a draft the server has not saved yet.
    public var isDraft: Bool { id < 0 }

    /// ``updatedAt`` as a date, `nil` when absent or not ISO 8601.
    public var updatedDate: Date? {
        updatedAt.flatMap { try? Date($0, strategy: .iso8601) }
    }

    /// `date` as ISO 8601 UTC text, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
