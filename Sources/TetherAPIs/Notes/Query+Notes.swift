extension Query where Entity == Note {
    /// Every note, in one request; notes created with ``EntityStore/create(_:)`` show in it at once.
    ///
    /// ```swift
    /// let notes = store.query(.notes)
    /// await notes.load()
    /// ```
    public static var notes: Query<Note> { .list(Note.collectionPath) }
}
