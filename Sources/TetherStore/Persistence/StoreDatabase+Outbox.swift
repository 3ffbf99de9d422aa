import Foundation
import TetherHTTP
import TetherJSON
import TetherSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new write for the outbox.
struct OutboxDraft: Sendable {
    var entityType: String
    var entityID: String
    var collectionPath: String
    var kind: OutboxEntry.Kind
    var method: String
    /// The entity as the user left it (creates and updates).
    var value: Data?
    /// The `Idempotency-Key`; one is made when `nil`.
    var idempotencyKey: String? = nil
    /// The server's version as the caller knows it (JSON) and its ETag, for an entity the database has no row
    /// of yet: the edit is then sent over that version (`If-Match`, the changed fields).
    var serverValue: Data? = nil
    var etag: String? = nil
    /// Headers every attempt adds, and its timeout (``MutationOptions``).
    var headers: HTTPHeaders = [:]
    var timeout: Duration? = nil
}

/// An entry taken for sending: what goes on the wire, frozen at its first attempt so every retry sends the same
/// request.
struct ClaimedEntry: Sendable {
    var entry: OutboxEntry
    var body: Data?
    var ifMatch: String?
    /// The caller's extra headers and timeout, saved with the write.
    var headers: HTTPHeaders = [:]
    var timeout: Duration?
}

/// What the database did with a confirmed write.
struct Confirmation: Sendable {
    var entry: OutboxEntry
    /// The server's id for a created entity.
    var newID: String?
    /// The server's version (`nil` for a delete, or an answer without a JSON object).
    var serverValue: Data?
    var etag: String?
    /// Whether more writes of the entity wait.
    var hasMore: Bool
}

extension StoreDatabase {
    static let outboxColumns =
        "seq, type, entity_id, collection_path, kind, method, idempotency_key, created_at, attempts, state, last_error, last_status, value"

    static func entry(from statement: Statement) -> OutboxEntry {
        OutboxEntry(
            id: statement.int64("seq"), entityType: statement.text("type") ?? "",
            entityID: statement.text("entity_id") ?? "", collectionPath: statement.text("collection_path") ?? "",
            kind: OutboxEntry.Kind(rawValue: statement.text("kind") ?? "") ?? .update,
            method: statement.text("method") ?? "PATCH", idempotencyKey: statement.text("idempotency_key") ?? "",
            createdAt: Date(timeIntervalSince1970: statement.double("created_at")),
            attempts: statement.int("attempts"),
            state: OutboxEntry.State(rawValue: statement.text("state") ?? "") ?? .queued,
            lastError: statement.text("last_error"), lastStatus: statement.optionalInt("last_status"),
            value: statement.data("value"))
    }

    /// Saves a write, before anything is sent; it is the entity's local state from then on (read back through
    /// ``entities(type:ids:in:)``, which overlays the server's version with the latest waiting write), until the
    /// server confirms it.
    ///
    /// - Returns: the entry, with its number and key.
    func enqueue(_ draft: OutboxDraft, at date: Date = Date()) async throws(StoreError) -> OutboxEntry {
        try await write { database in try Self.enqueue(draft, at: date, lease: nil, in: database).entry }
    }

    /// Saves a write as ``enqueue(_:at:)`` does and, when no other write of its entity waits, takes it for its first
    /// attempt in the same transaction (as ``claim(_:lease:now:)`` would): one commit instead of two before the
    /// request goes out. `reserve` is called with the entry's number (and whether it was taken) before the commit,
    /// so the caller can keep other senders of this process off it until it sends; `after` runs once committed, on
    /// the same thread, with the entry and what to send when it was taken (`nil`: it waits behind the entity's
    /// earlier writes).
    ///
    /// A write whose entity has earlier writes waiting may join their send chain (``SendChains``): `joinChain` is
    /// asked inside the transaction (whose body runs once, see ``DatabaseQueue/write(_:)``), told whether the write
    /// can (an update, and every earlier write is queued and leased by this process). When it says yes, the entry
    /// is saved leased by this process as well, its request not made yet (it is made from the previous write's
    /// answer), and `after` gets it with `chained` set. With `claims` false the write is only saved, as
    /// ``enqueue(_:at:)`` does: never taken, never chained.
    func enqueueClaiming<U: Sendable>(
        _ draft: OutboxDraft, claims: Bool = true, lease: Duration = .seconds(60), at date: Date = Date(),
        joinChain: (@Sendable (_ eligible: Bool) -> Bool)? = nil,
        reserve: @escaping @Sendable (_ id: Int64, _ claimed: Bool) -> Void,
        then after: @escaping @Sendable (OutboxEntry, ClaimedEntry?, _ chained: Bool) -> U
    ) async throws(StoreError) -> U {
        let owner = owner
        return try await write(
            { database in
                let result = try Self.enqueue(
                    draft, at: date, lease: claims ? (owner, lease) : nil, joinChain: joinChain, in: database)
                reserve(result.entry.id, result.claimed != nil)
                return result
            },
            then: { after($0.entry, $0.claimed, $0.chained) })
    }

    /// Inserts the entry; with a `lease`, an entry first of its entity is inserted already taken by its owner,
    /// its request made.
    static func enqueue(
        _ draft: OutboxDraft, at date: Date, lease: (owner: String, duration: Duration)?,
        joinChain: ((_ eligible: Bool) -> Bool)? = nil, in database: Database
    ) throws -> (entry: OutboxEntry, claimed: ClaimedEntry?, chained: Bool) {
        var draft = draft
        if draft.kind != .create, let server = try adoptedID(type: draft.entityType, of: draft.entityID, in: database) {
            // Made from a value that still named the created entity's temporary id: it goes to the server's.
            draft.entityID = server.id
            if let bytes = draft.value, case .object(var object) = try JSON(parsing: bytes) {
                // The id keeps its JSON type: a string id stays a string.
                if case .string = object["id"] { object["id"] = .string(server.id) } else { object["id"] = server.json }
                draft.value = Data(try JSONWriter().bytes(.object(object)))
            }
        }
        if draft.kind == .create {
            if draft.entityID.isEmpty {
                // A temporary id below every one this database holds, chosen inside the transaction, so that two
                // processes creating at once never share one.
                // Temporary ids live only in the outbox (a create writes no entity row until it is confirmed).
                let smallest = try database.scalarInt(
                    "SELECT MIN(CAST(entity_id AS INTEGER)) FROM outbox WHERE entity_id GLOB '-[0-9]*'")
                draft.entityID = String(min(smallest, 0) - 1)
                if let bytes = draft.value, case .object(var object) = try JSON(parsing: bytes) {
                    object["id"] = .number(JSON.Number(Int64(draft.entityID)!))
                    draft.value = Data(try JSONWriter().bytes(.object(object)))
                }
            } else if try database.scalarInt(
                "SELECT COUNT(*) FROM outbox WHERE type = ? AND entity_id = ?",
                [.text(draft.entityType), .text(draft.entityID)]) > 0
            {
                // Two creates under one temporary id would be taken for one entity: refuse the second.
                throw StoreError(
                    .database("the temporary id \(draft.entityID) is already used by a waiting write"))
            }
        }
        let type = DatabaseValue.text(draft.entityType)
        let id = DatabaseValue.text(draft.entityID)
        // The server's version the caller knows is saved for an entity the database has no row of: the write is
        // then sent over it (If-Match, the changed fields). The row itself is never the local value.
        let callersServerVersion = draft.kind == .create ? nil : draft.serverValue
        let key = draft.idempotencyKey ?? RandomKey.uuid()
        var entry = OutboxEntry(
            id: 0, entityType: draft.entityType, entityID: draft.entityID, collectionPath: draft.collectionPath,
            kind: draft.kind, method: draft.method, idempotencyKey: key, createdAt: date, attempts: 0, state: .queued,
            lastError: nil, lastStatus: nil, value: draft.value)
        // Taken at once when no other write of the entity waits (a create's new temporary id has none); leased
        // without its request when every earlier one is this process's and the send chain takes it.
        var claim: (body: Data?, ifMatch: String?)?
        var chained = false
        if let lease {
            // Whether it goes now is the entity's write queue's decision: it does when it is the queue's next.
            var recorded = try writeQueue(
                type: type, entityID: id, owner: lease.owner, now: date, in: database)
            let made = WriteQueue.Write(
                number: (recorded.queue.writes.last?.number ?? 0) + 1, kind: draft.kind, key: key,
                entityID: draft.entityID)
            _ = recorded.queue.apply(.made(made))
            if recorded.queue.next?.number == made.number,
                case .record(let sending)? = recorded.queue.apply(.sendStarted).first
            {
                claim = try prepare(entry, in: database, savingIfMissing: callersServerVersion, etag: draft.etag)
                entry.attempts = sending.attempts
            } else if let joinChain {
                chained = joinChain(recorded.allQueuedAndMine && draft.kind == .update)
            }
        }
        if claim == nil, let server = callersServerVersion {
            try database.run(
                "INSERT OR IGNORE INTO entity (type, id, value, etag) VALUES (?, ?, ?, ?)",
                [type, id, .data(server), .optionalText(draft.etag)])
        }
        let insert = try database.statement(
            """
            INSERT INTO outbox (type, entity_id, collection_path, kind, method, idempotency_key, created_at, headers,
              timeout, attempts, prepared, body, if_match, lease_owner, lease_until, value)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let leased = claim != nil || chained
        let headers = encodeHeaders(draft.headers)
        let timeout = draft.timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        try insert.bind([
            type, id, .text(draft.collectionPath), .text(draft.kind.rawValue), .text(draft.method), .text(key),
            .real(date.timeIntervalSince1970), .optionalText(headers), timeout.map { .real($0) } ?? .null,
            .int(entry.attempts), .int(claim == nil ? 0 : 1), claim?.body.map { .data($0) } ?? .null,
            .optionalText(claim?.ifMatch), leased ? .optionalText(lease?.owner) : .null,
            leased ? .real(date.timeIntervalSince1970 + Double(lease?.duration.components.seconds ?? 0)) : .null,
        ])
        // The value is bound borrowed and stepped at once: SQLite copies it only into the row.
        try (draft.value ?? Data()).withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Void in
            if draft.value == nil { try insert.bind(at: 16, .null) } else { try insert.bind(borrowing: bytes, at: 16) }
            while try insert.step() {}
            insert.reset()
        }
        entry.id = database.lastInsertedRowID
        // A chained entry's request is made when it is sent (no body here).
        let claimed =
            leased
            ? ClaimedEntry(
                entry: entry, body: claim?.body, ifMatch: claim?.ifMatch, headers: draft.headers,
                timeout: timeout.map { .milliseconds(Int64($0 * 1000)) }) : nil
        return (entry, claimed, chained)
    }

    /// The outbox's entries, oldest first: all of them, those of one type (as ``EntityStore`` names it, the Swift
    /// type), or those of one entity.
    public func outboxEntries(type: String? = nil, entityID: String? = nil) async throws(StoreError) -> [OutboxEntry] {
        try await read { database in try Self.outboxEntries(type: type, entityID: entityID, in: database) }
    }

    static func outboxEntries(type: String?, entityID: String?, in database: Database) throws -> [OutboxEntry] {
        let statement: Statement
        if let type, let entityID {
            statement = try database.statement(
                "SELECT \(outboxColumns) FROM outbox WHERE type = ? AND entity_id = ? ORDER BY seq")
            try statement.bind([.text(type), .text(entityID)])
        } else if let type {
            statement = try database.statement("SELECT \(outboxColumns) FROM outbox WHERE type = ? ORDER BY seq")
            try statement.bind([.text(type)])
        } else {
            statement = try database.statement("SELECT \(outboxColumns) FROM outbox ORDER BY seq")
        }
        var entries: [OutboxEntry] = []
        while try statement.step() { entries.append(entry(from: statement)) }
        return entries
    }

    /// Where the writes of one entity stand in the database, for ``EntityTable/reconcileWrites(with:)``.
    struct WriteState: Sendable {
        /// The server's id that replaced the entity's temporary id (its create was confirmed), if any.
        var adoptedID: String?
        /// The numbers of its entries still in the outbox (under the adopted id when there is one).
        var waiting: Set<Int64>
        /// The server's version the database holds (its `entity` row).
        var server: Data?
    }

    /// For each of `ids` (entities of `type`): ``WriteState``, read in one transaction.
    func writeStates(type: String, ids: [String]) async throws(StoreError) -> [String: WriteState] {
        try await read { database in
            let entries = try database.statement("SELECT seq FROM outbox WHERE type = ? AND entity_id = ?")
            let row = try database.statement("SELECT value FROM entity WHERE type = ? AND id = ?")
            var states: [String: WriteState] = [:]
            for id in ids {
                let adopted = try Self.adoptedID(type: type, of: id, in: database)?.id
                let target = adopted ?? id
                entries.reset()
                try entries.bind([.text(type), .text(target)])
                var waiting = Set<Int64>()
                while try entries.step() { waiting.insert(entries.int64("seq")) }
                row.reset()
                try row.bind([.text(type), .text(target)])
                let server = try row.step() ? row.data("value") : nil
                states[id] = WriteState(adoptedID: adopted, waiting: waiting, server: server)
            }
            return states
        }
    }

    /// The entries of the entity that entry `id` writes, oldest first (empty when the entry is gone).
    func outboxEntries(sameEntityAs id: Int64) async throws(StoreError) -> [OutboxEntry] {
        try await read { database in
            let statement = try database.statement(
                """
                SELECT \(Self.outboxColumns) FROM outbox
                WHERE (type, entity_id) = (SELECT type, entity_id FROM outbox WHERE seq = ?) ORDER BY seq
                """)
            try statement.bind([.integer(id)])
            var entries: [OutboxEntry] = []
            while try statement.step() { entries.append(Self.entry(from: statement)) }
            return entries
        }
    }

    /// The entries that can be sent now: each entity's oldest, when it is queued and no other process holds it.
    func sendableEntries(now: Date = Date()) async throws(StoreError) -> [OutboxEntry] {
        let owner = owner
        return try await read { database in
            let statement = try database.statement(
                """
                SELECT \(Self.outboxColumns), lease_owner, lease_until FROM outbox o
                WHERE state = 'queued' AND seq = (SELECT MIN(seq) FROM outbox WHERE type = o.type AND entity_id = o.entity_id)
                ORDER BY seq
                """)
            var entries: [OutboxEntry] = []
            while try statement.step() {
                guard
                    Self.leaseIsFree(
                        owner: statement.text("lease_owner"), until: statement.double("lease_until"), me: owner,
                        now: now)
                else { continue }
                entries.append(Self.entry(from: statement))
            }
            return entries
        }
    }

    /// Takes entry `id` for one attempt when its entity's write queue (``WriteQueue``, rebuilt from the records by
    /// ``writeQueue(type:entityID:owner:now:in:)``) says it goes next: still queued, first of its entity, and not held
    /// by another live process. Its request is made at the first attempt (the fields that differ from the server's version,
    /// the `If-Match` ETag) and kept for every later one.
    ///
    /// - Returns: `nil` when the entry is gone, not first, not queued or held elsewhere.
    func claim(_ id: Int64, lease: Duration = .seconds(60), now: Date = Date()) async throws(StoreError)
        -> ClaimedEntry?
    {
        let owner = owner
        return try await write { database in
            let statement = try database.statement(
                """
                SELECT \(Self.outboxColumns), prepared, body, if_match, headers, timeout FROM outbox WHERE seq = ?
                """)
            try statement.bind([.integer(id)])
            guard try statement.step() else { return nil }
            // Whether it goes is the entity's write queue's decision: one write in flight per entity, the oldest,
            // and none while the oldest waits for the user.
            var recorded = try Self.writeQueue(
                type: .text(statement.text("type") ?? ""), entityID: .text(statement.text("entity_id") ?? ""),
                owner: owner, now: now, in: database)
            guard recorded.queue.next?.number == id,
                case .record(let sending)? = recorded.queue.apply(.sendStarted).first
            else { return nil }
            var entry = Self.entry(from: statement)
            var body = statement.data("body")
            var ifMatch = statement.text("if_match")
            let headers = statement.text("headers")
            let timeout: Double? = statement.isNull("timeout") ? nil : statement.double("timeout")
            if statement.int("prepared") == 0 {
                (body, ifMatch) = try Self.prepare(entry, in: database)
            }
            entry.attempts = sending.attempts
            try database.run(
                """
                UPDATE outbox SET attempts = ?, prepared = 1, body = ?, if_match = ?, lease_owner = ?, lease_until = ?
                WHERE seq = ?
                """,
                [
                    .int(entry.attempts), body.map { .data($0) } ?? .null, .optionalText(ifMatch), .text(owner),
                    .real(now.timeIntervalSince1970 + Double(lease.components.seconds)), .integer(id),
                ])
            return ClaimedEntry(
                entry: entry, body: body, ifMatch: ifMatch, headers: Self.decodeHeaders(headers),
                timeout: timeout.map { .milliseconds(Int64($0 * 1000)) })
        }
    }

    /// The write queue of one entity as the outbox records it (``WriteQueue/init(recorded:headIsInFlight:)``): its
    /// oldest write is in flight while a live process other than `owner` holds its lease
    /// (``leaseIsFree(owner:until:me:now:)``; `owner`'s own sends are kept apart in memory by the ``Outbox``). `allQueuedAndMine`: every write is queued
    /// and leased by `owner` (a send chain of this process, which a new update may join).
    static func writeQueue(
        type: DatabaseValue, entityID: DatabaseValue, owner: String, now: Date, in database: Database
    ) throws -> (queue: WriteQueue, allQueuedAndMine: Bool) {
        let statement = try database.statement(
            """
            SELECT seq, kind, idempotency_key, entity_id, state, attempts, lease_owner, lease_until
            FROM outbox WHERE type = ? AND entity_id = ? ORDER BY seq
            """)
        try statement.bind([type, entityID])
        var writes: [WriteQueue.Write] = []
        var headIsInFlight = false
        var allQueuedAndMine = true
        while try statement.step() {
            let state = OutboxEntry.State(rawValue: statement.text("state") ?? "") ?? .queued
            let leaseOwner = statement.text("lease_owner")
            if writes.isEmpty {
                headIsInFlight =
                    state == .queued
                    && !leaseIsFree(owner: leaseOwner, until: statement.double("lease_until"), me: owner, now: now)
            }
            if state != .queued || leaseOwner != owner { allQueuedAndMine = false }
            writes.append(
                WriteQueue.Write(
                    number: statement.int64("seq"),
                    kind: OutboxEntry.Kind(rawValue: statement.text("kind") ?? "") ?? .update,
                    key: statement.text("idempotency_key") ?? "", entityID: statement.text("entity_id") ?? "",
                    phase: WriteQueue.phase(of: state), attempts: statement.int("attempts")))
        }
        statement.reset()
        return (WriteQueue(recorded: writes, headIsInFlight: headIsInFlight), allQueuedAndMine)
    }

    /// Headers as saved in the outbox: a JSON array of `[name, value]` pairs, `nil` for none.
    static func encodeHeaders(_ headers: HTTPHeaders) -> String? {
        guard !headers.isEmpty else { return nil }
        let pairs = headers.map { JSON.array([.string($0.name), .string($0.value)]) }
        return try? JSONWriter().string(.array(pairs))
    }

    static func decodeHeaders(_ text: String?) -> HTTPHeaders {
        guard let text, let pairs = (try? JSON(parsing: text))?.array else { return [:] }
        return HTTPHeaders(
            pairs.compactMap { pair in pair[0]?.string.flatMap { name in pair[1]?.string.map { (name, $0) } } })
    }

    /// Whether an entry's lease lets process `me` take it: nobody holds it, `me` does, it ran out, or its holder
    /// (a process on this machine, see ``LeaseOwner``) is gone, killed in the middle of a send.
    static func leaseIsFree(owner: String?, until: Double, me: String, now: Date) -> Bool {
        guard let owner, owner != me, until >= now.timeIntervalSince1970 else { return true }
        return LeaseOwner.hasEnded(owner)
    }

    /// The request body and `If-Match` for an entry's first attempt: a create's value without its id, an update's
    /// fields that differ from the server's version the database holds (its whole value as PUT), over that
    /// version's ETag.
    ///
    /// With `missing` (the server's version the caller knows, and its ETag), an entity the database has no row of
    /// gets that row, and the request is made over it: one look-up of the row for both.
    private static func prepare(
        _ entry: OutboxEntry, in database: Database, savingIfMissing missing: Data? = nil,
        etag missingETag: String? = nil
    ) throws -> (Data?, String?) {
        let statement = try database.statement("SELECT value, etag FROM entity WHERE type = ? AND id = ?")
        try statement.bind([.text(entry.entityType), .text(entry.entityID)])
        var server: Data?
        var etag: String?
        let found = try statement.step()
        if found {
            server = statement.data("value")
            etag = statement.text("etag")
        }
        statement.reset()
        if !found, let missing {
            try database.run(
                "INSERT INTO entity (type, id, value, etag) VALUES (?, ?, ?, ?)",
                [.text(entry.entityType), .text(entry.entityID), .data(missing), .optionalText(missingETag)])
            server = missing
            etag = missingETag
        }
        return try requestBody(for: entry, over: server, etag: etag)
    }

    /// The request body and `If-Match` of an entry sent over the server's version `server` (JSON) with ETag
    /// `etag`: a create's value without its id, an update's fields that differ from `server` (its whole value as
    /// PUT), nothing for a delete. The same inputs always make the same bytes, so an attempt after a restart that
    /// made them again from the same version sends what the first did.
    static func requestBody(for entry: OutboxEntry, over server: Data?, etag: String?) throws -> (Data?, String?) {
        let ifMatch = entry.kind == .create ? nil : etag
        guard entry.kind != .delete, let valueBytes = entry.value else { return (nil, ifMatch) }
        guard case .object(let object) = try JSON(parsing: valueBytes) else {
            throw StoreError(.encoding("the entity does not encode as a JSON object"))
        }
        var body = JSON.Object()
        switch (entry.kind, entry.method) {
        case (.update, "PUT"):
            body = object
        case (.update, _):
            var old: JSON.Object?
            if let server, case .object(let object) = try JSON(parsing: server) { old = object }
            for (key, value) in object where key != "id" && old?[key] != value { body[key] = value }
        default:
            for (key, value) in object where key != "id" { body[key] = value }
        }
        return (Data(try JSONWriter().bytes(.object(body))), ifMatch)
    }

    /// Records a confirmed write: the entry leaves the outbox and the entity's row takes the server's version (a
    /// created entity its server id everywhere, in its later writes and the saved queries; a deleted one leaves).
    func confirm(_ entry: OutboxEntry, body: Data, etag: String?, at date: Date = Date()) async throws(StoreError)
        -> Confirmation
    {
        try await write { database in try Self.confirm(entry, body: body, etag: etag, at: date, in: database) }
    }

    /// Records a confirmed update or delete as ``confirm(_:body:etag:at:)`` does, but a moment later: in this
    /// database's next transaction or before its next read in this process, or about 20 ms later on its own (see
    /// ``DatabaseQueue/writeSoon(_:)``).
    /// Returns at once, without disk work, so the caller learns the outcome one commit sooner.
    ///
    /// A crash before the record lands leaves the entry waiting, and its lease stops other processes from sending
    /// it meanwhile: the next attempt sends it again with the same `Idempotency-Key` and the server answers with
    /// its record, as for a write whose answer was lost. A create is never recorded this way: its server id must be
    /// in place before its entity's next write.
    ///
    /// - Precondition: `entry` is not a create.
    func confirmSoon(_ entry: OutboxEntry, body: Data, etag: String?, at date: Date = Date()) -> Confirmation {
        precondition(entry.kind != .create, "a create is confirmed at once")
        let serverValue = entry.kind == .delete ? nil : Self.serverVersion(body)
        queue.writeSoon { database in
            try Self.record(entry, id: entry.entityID, serverValue: serverValue, etag: etag, at: date, in: database)
        }
        return Confirmation(entry: entry, newID: nil, serverValue: serverValue, etag: etag, hasMore: false)
    }

    /// Records, a moment later as ``confirmSoon(_:body:etag:at:)`` does, the request a chained entry (see
    /// ``enqueueClaiming(_:lease:at:joinChain:reserve:then:)``) is about to send: its first attempt, its body and
    /// `If-Match`, kept for every later attempt. It lands in the same transaction as the previous write's
    /// confirmation or after it. A crash before it lands loses nothing: the request is made again from the same
    /// version (the previous write's answer, which the server replays for its key) and comes out the same.
    func preparedSoon(_ entry: OutboxEntry, body: Data?, ifMatch: String?) {
        queue.writeSoon { database in
            try database.run(
                "UPDATE outbox SET attempts = attempts + 1, prepared = 1, body = ?, if_match = ? WHERE seq = ?",
                [body.map { .data($0) } ?? .null, .optionalText(ifMatch), .integer(entry.id)])
        }
    }

    /// Gives up, a moment later, this process's lease on a chained entry that was never sent (its chain stopped
    /// before it), so that other processes may send it at once.
    func releaseSoon(_ entry: OutboxEntry) {
        let owner = owner
        queue.writeSoon { database in
            try database.run(
                """
                UPDATE outbox SET lease_owner = NULL, lease_until = NULL
                WHERE seq = ? AND prepared = 0 AND lease_owner = ?
                """, [.integer(entry.id), .text(owner)])
        }
    }

    /// The server's version in an answer's body, written canonically; `nil` unless it is a JSON object.
    private static func serverVersion(_ body: Data) -> Data? {
        guard !body.isEmpty, let parsed = try? JSON(parsing: body), case .object = parsed else { return nil }
        return try? Data(JSONWriter().bytes(parsed))
    }

    private static func confirm(
        _ entry: OutboxEntry, body: Data, etag: String?, at date: Date, in database: Database
    ) throws -> Confirmation {
        try database.run("DELETE FROM outbox WHERE seq = ?", [.integer(entry.id)])
        let type = DatabaseValue.text(entry.entityType)
        var id = entry.entityID
        var newID: String?
        var serverJSON: JSON?
        if entry.kind != .delete, !body.isEmpty, let parsed = try? JSON(parsing: body), case .object = parsed {
            serverJSON = parsed
        }
        if entry.kind == .create, let serverID = serverJSON?["id"].flatMap(Self.idText) {
            newID = serverID
            try swapID(type: entry.entityType, from: id, to: serverID, idJSON: serverJSON!["id"]!, in: database)
            id = serverID
        }
        let remaining = try database.scalarInt(
            "SELECT COUNT(*) FROM outbox WHERE type = ? AND entity_id = ?", [type, .text(id)])
        let serverValue = try serverJSON.map { Data(try JSONWriter().bytes($0)) }
        try record(entry, id: id, serverValue: serverValue, etag: etag, at: date, in: database, removingEntry: false)
        return Confirmation(
            entry: entry, newID: newID, serverValue: serverValue, etag: etag, hasMore: remaining > 0)
    }

    /// Removes a confirmed entry (unless `removingEntry` is false: the caller did) and gives entity `id` the
    /// server's version: its row takes `serverValue`, or leaves with a delete.
    private static func record(
        _ entry: OutboxEntry, id: String, serverValue: Data?, etag: String?, at date: Date, in database: Database,
        removingEntry: Bool = true
    ) throws {
        if removingEntry { try database.run("DELETE FROM outbox WHERE seq = ?", [.integer(entry.id)]) }
        let type = DatabaseValue.text(entry.entityType)
        if entry.kind == .delete {
            try database.run("DELETE FROM entity WHERE type = ? AND id = ?", [type, .text(id)])
            try removeFromQueries(type: entry.entityType, id: id, in: database)
        } else if let serverValue {
            try database.run(
                """
                INSERT INTO entity (type, id, value, etag, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (type, id) DO UPDATE SET value = excluded.value, etag = excluded.etag,
                fetched_at = excluded.fetched_at
                """, [type, .text(id), .data(serverValue), .optionalText(etag), .real(date.timeIntervalSince1970)])
        }
    }

    static func idText(_ json: JSON) -> String? {
        switch json {
        case .string(let text): return text
        case .number(let number): return number.int64.map { String($0) } ?? "\(number.double)"
        default: return nil
        }
    }

    /// Gives a created entity its server id: its row, its later writes (their paths and values) and saved queries.
    /// The server's id of a confirmed create's temporary id (`nil` when `id` is not one), and the id as JSON.
    private static func adoptedID(type: String, of id: String, in database: Database) throws -> (
        id: String, json: JSON
    )? {
        // None before schema version 5 (only tests open a database with an older schema and write to it).
        guard
            let statement = try? database.statement(
                "SELECT server_id FROM adopted_id WHERE type = ? AND temporary_id = ?")
        else { return nil }
        try statement.bind([.text(type), .text(id)])
        guard try statement.step(), let server = statement.text(0) else { return nil }
        let json = (try? JSON(parsing: Data(server.utf8))).flatMap { value -> JSON? in
            if case .number = value { return value }
            return nil
        }
        return (server, json ?? .string(server))
    }

    private static func swapID(type: String, from old: String, to new: String, idJSON: JSON, in database: Database)
        throws
    {
        if let adopt = try? database.statement(
            "INSERT OR REPLACE INTO adopted_id (type, temporary_id, server_id, adopted_at) VALUES (?, ?, ?, ?)")
        {
            try adopt.bind([.text(type), .text(old), .text(new), .real(Date().timeIntervalSince1970)])
            _ = try adopt.step()
        }
        let later = try outboxEntries(type: type, entityID: old, in: database)
        for entry in later {
            var value: DatabaseValue = .null
            if let bytes = entry.value, case .object(var object) = try JSON(parsing: bytes) {
                object["id"] = idJSON
                value = .data(Data(try JSONWriter().bytes(.object(object))))
            }
            try database.run(
                "UPDATE outbox SET entity_id = ?, value = ? WHERE seq = ?", [.text(new), value, .integer(entry.id)])
        }
        try database.run("DELETE FROM entity WHERE type = ? AND id = ?", [.text(type), .text(new)])
        try database.run("UPDATE entity SET id = ? WHERE type = ? AND id = ?", [.text(new), .text(type), .text(old)])
        let queries = try database.statement(
            "SELECT key, ids FROM query WHERE type = ? AND EXISTS (SELECT 1 FROM json_each(ids) WHERE value = ?)")
        try queries.bind([.text(type), .text(old)])
        var updates: [(String, [String])] = []
        while try queries.step() {
            var seen = Set<String>()
            let ids = decodeIDs(queries.text(1) ?? "[]").map { $0 == old ? new : $0 }.filter {
                seen.insert($0).inserted
            }
            updates.append((queries.text(0) ?? "", ids))
        }
        for (key, ids) in updates {
            try database.run(
                "UPDATE query SET ids = ? WHERE type = ? AND key = ?", [.text(encodeIDs(ids)), .text(type), .text(key)])
        }
    }

    private static func removeFromQueries(type: String, id: String, in database: Database) throws {
        let queries = try database.statement(
            "SELECT key, ids FROM query WHERE type = ? AND EXISTS (SELECT 1 FROM json_each(ids) WHERE value = ?)")
        try queries.bind([.text(type), .text(id)])
        var updates: [(String, [String])] = []
        while try queries.step() {
            updates.append((queries.text(0) ?? "", decodeIDs(queries.text(1) ?? "[]").filter { $0 != id }))
        }
        for (key, ids) in updates {
            try database.run(
                "UPDATE query SET ids = ? WHERE type = ? AND key = ?", [.text(encodeIDs(ids)), .text(type), .text(key)])
        }
    }

    /// Records a failed attempt. A transient one leaves the entry queued (and lets another process take it); a
    /// final one marks it failed or in conflict, which stops its entity's writes until the user decides.
    func recordFailure(
        _ entry: OutboxEntry, state: OutboxEntry.State, message: String, status: Int?
    ) async throws(StoreError) {
        try await write { database in
            try database.run(
                """
                UPDATE outbox SET state = ?, last_error = ?, last_status = ?, lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """, [.text(state.rawValue), .text(message), .optionalInt(status), .integer(entry.id)])
        }
    }

    /// Puts a failed or conflicting entry back in the queue, to be sent again. A conflict is sent over the
    /// server's current version: its `If-Match` and body are made anew (with a new key, since it is a new request).
    func retry(_ id: Int64) async throws(StoreError) {
        try await write { database in
            try database.run(
                """
                UPDATE outbox SET
                  prepared = CASE WHEN state = 'conflict' THEN 0 ELSE prepared END,
                  idempotency_key = CASE WHEN state = 'conflict' THEN lower(hex(randomblob(16))) ELSE idempotency_key END,
                  state = 'queued', lease_owner = NULL, lease_until = NULL
                WHERE seq = ?
                """, [.integer(id)])
        }
    }

    /// Drops an entry the user gave up on. The entity shows what is left: its latest remaining write, else the
    /// server's version; a discarded create removes the local entity, a discarded delete brings it back.
    ///
    /// - Returns: the entity's row after the discard (`nil` when it is gone).
    @discardableResult
    func discard(_ id: Int64) async throws(StoreError) -> (OutboxEntry, StoredEntity?)? {
        try await write { database in
            let statement = try database.statement("SELECT \(Self.outboxColumns) FROM outbox WHERE seq = ?")
            try statement.bind([.integer(id)])
            guard try statement.step() else { return nil }
            let entry = Self.entry(from: statement)
            try database.run("DELETE FROM outbox WHERE seq = ?", [.integer(id)])
            let rest = try Self.outboxEntries(type: entry.entityType, entityID: entry.entityID, in: database)
            if entry.kind == .create && rest.isEmpty {
                try database.run(
                    "DELETE FROM entity WHERE type = ? AND id = ?", [.text(entry.entityType), .text(entry.entityID)])
                try Self.removeFromQueries(type: entry.entityType, id: entry.entityID, in: database)
                return (entry, nil)
            }
            return (
                entry, try Self.entities(type: entry.entityType, ids: [entry.entityID], in: database)[entry.entityID]
            )
        }
    }

    /// The number of entries, and the oldest one's date.
    func outboxSummary() async throws(StoreError) -> OutboxSummary {
        try await read(Self.outboxSummary(in:))
    }

    static func outboxSummary(in database: Database) throws -> OutboxSummary {
        let statement = try database.statement(
            "SELECT COUNT(*) AS count, MIN(created_at) AS oldest, SUM(state != 'queued') AS failed FROM outbox")
        guard try statement.step() else { return (0, nil, 0) }
        let count = statement.int("count")
        return (
            count, count == 0 ? nil : Date(timeIntervalSince1970: statement.double("oldest")), statement.int("failed")
        )
    }

    /// ``outboxSummary(in:)`` and the smallest temporary integer id the outbox holds (ids below zero; 0 when it
    /// holds none, so that new temporary ids never reuse one), in one statement (one pass), as a database opens.
    static func outboxSummaryAndSmallestTemporaryID(in database: Database) throws -> (OutboxSummary, Int) {
        let statement = try database.statement(
            """
            SELECT COUNT(*) AS count, MIN(created_at) AS oldest, SUM(state != 'queued') AS failed,
              MIN(CASE WHEN entity_id GLOB '-[0-9]*' THEN CAST(entity_id AS INTEGER) END) AS smallest_temporary_id
            FROM outbox
            """)
        guard try statement.step() else { return ((0, nil, 0), 0) }
        let count = statement.int("count")
        return (
            (
                count, count == 0 ? nil : Date(timeIntervalSince1970: statement.double("oldest")),
                statement.int("failed")
            ),
            statement.int("smallest_temporary_id")
        )
    }
}
