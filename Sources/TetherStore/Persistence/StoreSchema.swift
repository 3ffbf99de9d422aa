import TetherSQLite

/// The tables of a store's database, version by version. A new version is a new migration at the end; a shipped
/// migration is never changed (databases in users' hands have already run it).
///
/// Entities and queries are ordinary rowid tables with a unique key, not `WITHOUT ROWID`: their rows (a Rakuten
/// item is about 3 KB of JSON) are far larger than the few hundred bytes `WITHOUT ROWID` suits. An outbox entry's
/// `seq` is its rowid: new entries always get one above every entry there ever was (version 5).
///
/// - `entity`: one row per entity type and id: the last version the server sent or confirmed, its ETag and when it
///   came. Local changes are not here: what a user sees is this row overlaid with the entity's latest waiting
///   write in the outbox (a create, an update's value, or a delete that hides it).
/// - `query`: one row per query key: the ordered ids (a JSON array of id strings), the next page's cursor, the
///   total count and when it was fetched.
/// - `outbox` (version 2): every create, update and delete not yet confirmed by the server, in the order they
///   were made, each with the `Idempotency-Key` that all of its attempts send. Version 3 drops the key's unique
///   index: the keys are random (122 bits), nothing looks them up, and the index cost every save and every
///   confirmation a write of one more page, at a random place. Version 4 drops the `CHECK` and `NOT NULL`
///   constraints: every value comes from this module's own types (the kinds and states are Swift enums, read back
///   with a fallback), and SQLite evaluating them cost each save about a sixth of its time (measured in C on the
///   enqueue case's 3 KB rows: 31 µs with them, 26 µs without, against 21 µs for a bare 3-column row). Version 5
///   makes `seq` `AUTOINCREMENT`: an entry's number is never given to another entry, even after the entry with the
///   largest number left the outbox. Numbers identify entries beyond one transaction (a send's outcome recorded
///   by number, the entries a connection has taken, each edit's entry in an entity's state), and with plain rowids
///   a number freed by a confirmation went to the next write saved: a late outcome of the first entry (another
///   store's send of it) then deleted or marked the second, a write the user had made (found by the model-based
///   tests). It also adds `adopted_id`: the server's id of each confirmed create, by its temporary id, so that a
///   write saved after the confirmation under the temporary id (made from a value read before it) goes to the
///   server's id instead of to an id no server knows.
enum StoreSchema {
    static let migrator = DatabaseMigrator(migrations: [
        .init(
            name: "entities and queries",
            sql: """
                CREATE TABLE entity (
                    type TEXT NOT NULL,
                    id TEXT NOT NULL,
                    value BLOB,
                    etag TEXT,
                    fetched_at REAL,
                    UNIQUE (type, id)
                );
                CREATE TABLE query (
                    type TEXT NOT NULL,
                    key TEXT NOT NULL,
                    ids TEXT NOT NULL,
                    next_cursor TEXT,
                    total_count INTEGER,
                    fetched_at REAL NOT NULL,
                    UNIQUE (type, key)
                );
                """),
        .init(
            name: "outbox",
            sql: """
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY,
                    type TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    collection_path TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('create', 'update', 'delete')),
                    value BLOB,
                    method TEXT NOT NULL,
                    body BLOB,
                    if_match TEXT,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    prepared INTEGER NOT NULL DEFAULT 0,
                    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed', 'conflict')),
                    last_error TEXT,
                    last_status INTEGER,
                    lease_owner TEXT,
                    lease_until REAL,
                    headers TEXT,
                    timeout REAL
                );
                CREATE INDEX outbox_by_entity ON outbox (type, entity_id, seq);
                """),
        .init(
            name: "outbox keys without a unique index",
            sql: """
                CREATE TABLE outbox_v3 (
                    seq INTEGER PRIMARY KEY,
                    type TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    collection_path TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('create', 'update', 'delete')),
                    value BLOB,
                    method TEXT NOT NULL,
                    body BLOB,
                    if_match TEXT,
                    idempotency_key TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    prepared INTEGER NOT NULL DEFAULT 0,
                    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed', 'conflict')),
                    last_error TEXT,
                    last_status INTEGER,
                    lease_owner TEXT,
                    lease_until REAL,
                    headers TEXT,
                    timeout REAL
                );
                INSERT INTO outbox_v3 SELECT seq, type, entity_id, collection_path, kind, value, method, body, if_match,
                  idempotency_key, created_at, attempts, prepared, state, last_error, last_status, lease_owner,
                  lease_until, headers, timeout FROM outbox;
                DROP TABLE outbox;
                ALTER TABLE outbox_v3 RENAME TO outbox;
                CREATE INDEX outbox_by_entity ON outbox (type, entity_id, seq);
                """),
        .init(
            name: "outbox without constraint checks",
            sql: """
                CREATE TABLE outbox_v4 (
                    seq INTEGER PRIMARY KEY,
                    type TEXT,
                    entity_id TEXT,
                    collection_path TEXT,
                    kind TEXT,
                    value BLOB,
                    method TEXT,
                    body BLOB,
                    if_match TEXT,
                    idempotency_key TEXT,
                    created_at REAL,
                    attempts INTEGER DEFAULT 0,
                    prepared INTEGER DEFAULT 0,
                    state TEXT DEFAULT 'queued',
                    last_error TEXT,
                    last_status INTEGER,
                    lease_owner TEXT,
                    lease_until REAL,
                    headers TEXT,
                    timeout REAL
                );
                INSERT INTO outbox_v4 SELECT seq, type, entity_id, collection_path, kind, value, method, body, if_match,
                  idempotency_key, created_at, attempts, prepared, state, last_error, last_status, lease_owner,
                  lease_until, headers, timeout FROM outbox;
                DROP TABLE outbox;
                ALTER TABLE outbox_v4 RENAME TO outbox;
                CREATE INDEX outbox_by_entity ON outbox (type, entity_id, seq);
                """),
        .init(
            name: "outbox numbers never reused",
            sql: """
                CREATE TABLE outbox_v5 (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    type TEXT,
                    entity_id TEXT,
                    collection_path TEXT,
                    kind TEXT,
                    value BLOB,
                    method TEXT,
                    body BLOB,
                    if_match TEXT,
                    idempotency_key TEXT,
                    created_at REAL,
                    attempts INTEGER DEFAULT 0,
                    prepared INTEGER DEFAULT 0,
                    state TEXT DEFAULT 'queued',
                    last_error TEXT,
                    last_status INTEGER,
                    lease_owner TEXT,
                    lease_until REAL,
                    headers TEXT,
                    timeout REAL
                );
                INSERT INTO outbox_v5 SELECT seq, type, entity_id, collection_path, kind, value, method, body, if_match,
                  idempotency_key, created_at, attempts, prepared, state, last_error, last_status, lease_owner,
                  lease_until, headers, timeout FROM outbox;
                DROP TABLE outbox;
                ALTER TABLE outbox_v5 RENAME TO outbox;
                CREATE INDEX outbox_by_entity ON outbox (type, entity_id, seq);
                CREATE TABLE adopted_id (
                    type TEXT,
                    temporary_id TEXT,
                    server_id TEXT,
                    adopted_at REAL,
                    PRIMARY KEY (type, temporary_id)
                ) WITHOUT ROWID;
                """),
    ])
}
