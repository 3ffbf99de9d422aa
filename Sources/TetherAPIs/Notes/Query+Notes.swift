extension Query where Entity == Note {
    /// Every note, in one request; notes created with ``/TetherStore/EntityStore/create(_:)`` show in it at once.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherAPIs
    ///
    /// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
    /// let notes = store.query(.notes)
    /// await notes.load()
    /// ```
    public static var notes: Query<Note> { .list(Note.collectionPath) }
}
