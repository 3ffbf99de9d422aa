public import Foundation
import TetherJSON
import TetherSQLite

/// An entity as the database knows it: the server's version overlaid with its latest waiting write.
struct StoredEntity: Sendable {
    var id: String
    /// The value shown: the latest local edit while writes wait in the outbox, else the server's version.
    var value: Data?
    /// The server's version while local edits wait (`nil` when ``value`` is the server's version).
    var serverValue: Data?
    var etag: String?
    var fetchedAt: Date?
    /// Deleted here, the delete not yet confirmed.
    var deleted: Bool
}

/// A query's row: its ids in order, where the next page is, and when it was fetched.
struct StoredQuery: Sendable {
    var ids: [String]
    var nextCursor: PageCursor?
    var totalCount: Int?
    var fetchedAt: Date
    /// The rows of ``ids`` (those still in the database).
    var entities: [String: StoredEntity]
}

/// One entity as a page delivers it: its id and its encoded value.
struct EntityRow: Sendable {
    var id: String
    var value: Data
    var etag: String?
}

extension StoreDatabase {
    /// Saves a page of server versions and, when `key` is given, the query's ids, in one transaction.
    ///
    /// An entity with writes waiting in the outbox keeps its local value: the server version goes beside it.
    func savePage(
        type: String, rows: [EntityRow], query key: String?, ids: [String]?, next: PageCursor?, totalCount: Int?,
        at date: Date
    ) async throws(StoreError) {
        try await savePage(
            type: type, parts: 1, part: { _ in rows }, query: key, ids: ids, next: next, totalCount: totalCount,
            at: date)
    }

    /// ``savePage(type:rows:query:ids:next:totalCount:at:)`` with the rows in `parts` parts, written in order in
    /// one transaction as `part` hands each over: it may block until the part is made (encoded on other threads
    /// meanwhile), so that making the rows and writing them overlap.
    func savePage(
        type: String, parts: Int, part: @escaping @Sendable (Int) -> [EntityRow], query key: String?, ids: [String]?,
        next: PageCursor?, totalCount: Int?, at date: Date
    ) async throws(StoreError) {
        try await write { database in
            for index in 0..<parts { try Self.upsert(part(index), type: type, at: date, in: database) }
            if let key, let ids {
                try database.run(
                    """
                    INSERT INTO query (type, key, ids, next_cursor, total_count, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (type, key) DO UPDATE SET ids = excluded.ids, next_cursor = excluded.next_cursor,
                    total_count = excluded.total_count, fetched_at = excluded.fetched_at
                    """,
                    [
                        .text(type), .text(key), .text(Self.encodeIDs(ids)),
                        .optionalText(next.map(Self.encodeCursor)), .optionalInt(totalCount),
                        .real(date.timeIntervalSince1970),
                    ])
            }
        }
    }

    /// Saves the server's version of one entity (its JSON, as the server sent it) and its ETag, so that an edit
    /// queued after it is sent over that version.
    public func saveServerVersion<Entity: RemoteEntity>(
        _ type: Entity.Type, id: String, json: Data, etag: String?
    ) async throws(StoreError) {
        try await savePage(
            type: EntityStore.typeName(type), rows: [EntityRow(id: id, value: json, etag: etag)], query: nil, ids: nil,
            next: nil, totalCount: nil, at: Date())
    }

    /// The entity's local value (its latest waiting write, else the server's version), as JSON; `nil` when the
    /// database has none.
    public func localValue<Entity: RemoteEntity>(_ type: Entity.Type, id: String) async throws(StoreError) -> Data? {
        try await loadEntity(type: EntityStore.typeName(type), id: id)?.value
    }

    /// The server's version of the entity a waiting write changes, as JSON, the last the database saw; `nil` when it
    /// has none (a create, or an entity never read on this device). For tools that say what a write changes.
    public func serverVersion(of entry: OutboxEntry) async throws(StoreError) -> Data? {
        guard entry.kind != .create else { return nil }
        return try await read { database in
            // The row itself: the server's version, never overlaid with the waiting writes.
            let statement = try database.statement("SELECT value FROM entity WHERE type = ? AND id = ?")
            try statement.bind([.text(entry.entityType), .text(entry.entityID)])
            return try statement.step() ? statement.data(0) : nil
        }
    }

    /// Replaces a query's ids (after a local create or delete changed the list), keeping its other fields.
    func saveQueryIDs(type: String, key: String, ids: [String]) async throws(StoreError) {
        try await write { database in
            try database.run(
                "UPDATE query SET ids = ? WHERE type = ? AND key = ?",
                [.text(Self.encodeIDs(ids)), .text(type), .text(key)])
        }
    }

    static func upsert(_ rows: [EntityRow], type: String, at date: Date, in database: Database) throws {
        let statement = try database.statement(
            """
            INSERT INTO entity (type, id, value, etag, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (type, id) DO UPDATE SET value = excluded.value, etag = excluded.etag,
              fetched_at = excluded.fetched_at
            """)
        let time = date.timeIntervalSince1970
        for row in rows {
            statement.reset()
            try statement.bind(at: 1, .text(type))
            try statement.bind(at: 2, .text(row.id))
            try statement.bind(etag: row.etag, time: time)
            try row.value.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Void in
                // Stepped while the bytes are borrowed, so SQLite need not copy them.
                try statement.bind(borrowing: bytes, at: 3)
                while try statement.step() {}
                statement.reset()
            }
        }
    }

    /// The query's saved ids and the rows of the first `limit` of them; `nil` when it was never saved.
    func loadQuery(type: String, key: String, limit: Int = .max) async throws(StoreError) -> StoredQuery? {
        try await read { database in
            let statement = try database.statement(
                "SELECT ids, next_cursor, total_count, fetched_at FROM query WHERE type = ? AND key = ?")
            try statement.bind([.text(type), .text(key)])
            guard try statement.step() else { return nil }
            let ids = Self.decodeIDs(statement.text("ids") ?? "[]")
            let next = statement.text("next_cursor").flatMap(Self.decodeCursor)
            let total = statement.optionalInt("total_count")
            let fetchedAt = Date(timeIntervalSince1970: statement.double("fetched_at"))
            statement.reset()
            let entities = try Self.entities(type: type, ids: Array(ids.prefix(limit)), in: database)
            return StoredQuery(ids: ids, nextCursor: next, totalCount: total, fetchedAt: fetchedAt, entities: entities)
        }
    }

    /// The entities `ids` as the user sees them: the server's version, overlaid with the latest waiting write (an
    /// update's or create's value; a delete hides it). Ids the database knows nothing of are left out.
    ///
    /// Most of the time no write of `type` waits: then the rows are read alone, without looking into the outbox for
    /// each (a cold start's first screen reads 30).
    static func entities(type: String, ids: [String], in database: Database) throws -> [String: StoredEntity] {
        let overlays =
            try database.scalarInt("SELECT EXISTS (SELECT 1 FROM outbox WHERE type = ?)", [.text(type)]) != 0
        let statement = try database.statement(
            overlays
                ? """
                SELECT e.value AS value, e.etag AS etag, e.fetched_at AS fetched_at,
                  (SELECT o.value FROM outbox o WHERE o.type = ?1 AND o.entity_id = ?2 AND o.kind != 'delete'
                    ORDER BY o.seq DESC LIMIT 1) AS local,
                  EXISTS (SELECT 1 FROM outbox o WHERE o.type = ?1 AND o.entity_id = ?2 AND o.kind = 'delete')
                    AS deleted
                FROM (SELECT 1) LEFT JOIN entity e ON e.type = ?1 AND e.id = ?2
                """
                : "SELECT value, etag, fetched_at FROM entity WHERE type = ?1 AND id = ?2")
        // Each column found by name once, before the rows.
        let (value, etag, fetchedAt) = (
            statement.column("value"), statement.column("etag"), statement.column("fetched_at")
        )
        let (local, deleted) = overlays ? (statement.column("local"), statement.column("deleted")) : (-1, -1)
        var result: [String: StoredEntity] = [:]
        result.reserveCapacity(ids.count)
        for id in ids {
            statement.reset()
            try statement.bind([.text(type), .text(id)])
            guard try statement.step() else { continue }
            let server = statement.data(value)
            let waiting = overlays ? statement.data(local) : nil
            guard server != nil || waiting != nil else { continue }
            result[id] = StoredEntity(
                id: id, value: waiting ?? server, serverValue: waiting == nil ? nil : server,
                etag: statement.text(etag),
                fetchedAt: statement.isNull(fetchedAt) ? nil : Date(timeIntervalSince1970: statement.double(fetchedAt)),
                deleted: overlays && statement.int(deleted) != 0)
        }
        return result
    }

    /// The saved rows of `ids`, for a query's rows after its first page.
    func loadEntities(type: String, ids: [String]) async throws(StoreError) -> [String: StoredEntity] {
        try await read { database in try Self.entities(type: type, ids: ids, in: database) }
    }

    /// One entity's saved row.
    func loadEntity(type: String, id: String) async throws(StoreError) -> StoredEntity? {
        try await read { database in try Self.entities(type: type, ids: [id], in: database)[id] }
    }

    /// Forgets what is older than `maximumAge` and keeps at most `maximumEntities` entities of each type: queries
    /// fetched before the cutoff, then entities that no remaining query names and no outbox entry needs, oldest
    /// first. Entities with writes waiting are never removed.
    ///
    /// - Returns: the number of queries and entities removed.
    @discardableResult
    func prune(now: Date, maximumAge: Duration, maximumEntities: Int) async throws(StoreError) -> (Int, Int) {
        let cutoff = now.timeIntervalSince1970 - Double(maximumAge.components.seconds)
        return try await write { database in
            let queries = try database.run("DELETE FROM query WHERE fetched_at < ?", [.real(cutoff)])
            // Temporary ids confirmed long ago: no value made before their confirmation is still about.
            try database.run("DELETE FROM adopted_id WHERE adopted_at < ?", [.real(cutoff)])
            // The ids the remaining queries name, once, instead of a scan of every query per entity.
            try database.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS kept (type TEXT, id TEXT, PRIMARY KEY (type, id)) WITHOUT ROWID;
                DELETE FROM kept;
                INSERT OR IGNORE INTO kept SELECT q.type, j.value FROM query q, json_each(q.ids) j;
                """)
            var entities = try database.run(
                """
                DELETE FROM entity WHERE (fetched_at IS NULL OR fetched_at < ?)
                AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.type = entity.type AND o.entity_id = entity.id)
                AND NOT EXISTS (SELECT 1 FROM kept k WHERE k.type = entity.type AND k.id = entity.id)
                """, [.real(cutoff)])
            let counts = try database.statement("SELECT type, COUNT(*) FROM entity GROUP BY type")
            var excess: [(String, Int)] = []
            while try counts.step() {
                if counts.int(1) > maximumEntities {
                    excess.append((counts.text(0) ?? "", counts.int(1) - maximumEntities))
                }
            }
            for (type, count) in excess {
                // The oldest first; never one with a write waiting.
                entities += try database.run(
                    """
                    DELETE FROM entity WHERE type = ?1 AND id IN (
                      SELECT e.id FROM entity e WHERE e.type = ?1
                      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.type = e.type AND o.entity_id = e.id)
                      ORDER BY e.fetched_at LIMIT ?2)
                    """, [.text(type), .int(count)])
            }
            return (queries, entities)
        }
    }

    // MARK: - Encodings

    static func encodeIDs(_ ids: [String]) -> String {
        var text = "["
        text.reserveCapacity(ids.count * 8 + 2)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in id.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }

    static func decodeIDs(_ text: String) -> [String] {
        guard let array = (try? JSON(parsing: text))?.array else { return [] }
        return array.compactMap(\.string)
    }

    static func encodeCursor(_ cursor: PageCursor) -> String {
        switch cursor {
        case .page(let number): "page:\(number)"
        case .url(let url): "url:" + url.absoluteString
        case .token(let token): "token:" + token
        }
    }

    static func decodeCursor(_ text: String) -> PageCursor? {
        if text.hasPrefix("page:") { return Int(text.dropFirst(5)).map { .page($0) } }
        if text.hasPrefix("url:") { return URL(string: String(text.dropFirst(4))).map { .url($0) } }
        if text.hasPrefix("token:") { return .token(String(text.dropFirst(6))) }
        return nil
    }
}

extension Statement {
    /// Binds parameters 4 (an ETag or NULL) and 5 (a time) of the entity upsert.
    fileprivate func bind(etag: String?, time: Double) throws(DatabaseError) {
        try bind(at: 4, etag.map { .text($0) } ?? .null)
        try bind(at: 5, .real(time))
    }
}
