import CSQLite
import Foundation

/// One SQLite connection: statements prepared once and reused, transactions, errors as ``DatabaseError``.
///
/// The seam is shaped like GRDB's `Database`: a ``DatabaseQueue`` owns the connection and hands it to one closure at
/// a time, which runs statements through it.
///
/// - Thread safety: none of its own. Only the owning ``DatabaseQueue`` uses it, one thread at a time.
final class Database {
    /// The file, or `":memory:"`.
    let path: String
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// The statements used since the last ``resetStatements()``: only these can hold a read open.
    private var used: [Statement] = []

    /// Opens (creating if needed) the database at `path` in WAL mode, with a busy timeout so that another process
    /// holding the write lock is waited for instead of failing at once.
    ///
    /// - Parameter synchronous: SQLite's `synchronous` setting; `NORMAL` in WAL mode keeps every commit across a
    ///   process crash (kill -9) and loses at most the last commits on a power loss.
    init(path: String, synchronous: String = "NORMAL", busyTimeout: Duration = .seconds(10)) throws(DatabaseError) {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        // Files go through the layer that writes a commit's log frames at once (nil: the default file system).
        let vfs = path == ":memory:" ? nil : CoalescingVFS.registeredName
        let status = sqlite3_open_v2(path, &connection, flags, vfs)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw DatabaseError(code: status, message: message, sql: nil)
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout.components.seconds * 1000))
        do throws(DatabaseError) {
            // The first read of the file: a file that is not a database fails here.
            if path != ":memory:" {
                let mode = try scalarText("PRAGMA journal_mode=WAL")
                if mode?.lowercased() != "wal" {
                    throw DatabaseError(code: SQLITE_ERROR, message: "WAL mode refused (\(mode ?? "?"))", sql: nil)
                }
            }
            try execute("PRAGMA synchronous=\(synchronous); PRAGMA foreign_keys=ON")
            // Pages stay 4 KiB: every commit writes its changed pages whole to the log, and an edit saved in the
            // outbox changes three.
            if path != ":memory:" { installCheckpointPolicy() }
        } catch {
            used.removeAll()
            statements.removeAll()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// The log's size in pages after the last commit on this connection, for ``installCheckpointPolicy()``.
    private var logPagesAfterLastCommit: Int32 = 0

    /// Checkpoints the write-ahead log the way SQLite's automatic checkpoint does (passively, in the committing
    /// thread, once the log holds 1,000 pages), except right after a transaction that alone wrote 1,000 pages or
    /// more, such as saving a page of thousands of results.
    ///
    /// Small commits then keep rewriting the first pages of a short log, which costs less than appending to a long
    /// one, and a large save is not followed by copying its whole log into the file before it returns. The next
    /// small commit does that copy instead.
    private func installCheckpointPolicy() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            handle,
            { context, connection, schema, pages in
                guard let context else { return SQLITE_OK }
                let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                let before = database.logPagesAfterLastCommit
                let added = pages >= before ? pages - before : pages
                database.logPagesAfterLastCommit = pages
                if pages >= Database.checkpointPages, added < Database.checkpointPages {
                    var logged: Int32 = 0
                    var copied: Int32 = 0
                    let status = sqlite3_wal_checkpoint_v2(
                        connection, schema, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
                    // Every page copied: the next write starts the log again from its beginning.
                    if status == SQLITE_OK, copied == logged { database.logPagesAfterLastCommit = 0 }
                }
                return SQLITE_OK
            }, context)
    }

    /// The log size, in pages, at which a commit checkpoints it (SQLite's default).
    static let checkpointPages: Int32 = 1000

    deinit {
        sqlite3_wal_hook(handle, nil, nil)
        used.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(DatabaseError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw DatabaseError(code: status, message: message, sql: sql)
        }
    }

    /// The prepared statement for `sql`, made on first use and reused after (reset, bindings cleared).
    func statement(_ sql: String) throws(DatabaseError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            markUsed(cached)
            return cached
        }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else {
            throw DatabaseError(code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        let statement = Statement(handle: prepared, database: self, sql: sql)
        statements[sql] = statement
        markUsed(statement)
        return statement
    }

    private func markUsed(_ statement: Statement) {
        guard !statement.isUsed else { return }
        statement.isUsed = true
        used.append(statement)
    }

    /// Runs `sql` with `values` bound in order, for statements that return no rows.
    ///
    /// - Returns: the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> Int {
        let statement = try statement(sql)
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// The first column of the first row of `sql`, as text.
    func scalarText(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> String? {
        let statement = try statement(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    func scalarInt(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> Int64 {
        let statement = try statement(sql)
        try statement.bind(values)
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// The rowid of the last row inserted.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The schema version this database records (`PRAGMA user_version`).
    var userVersion: Int {
        (try? Int(scalarInt("PRAGMA user_version"))) ?? 0
    }

    func setUserVersion(_ version: Int) throws(DatabaseError) {
        try execute("PRAGMA user_version=\(version)")
    }

    /// Resets every cached statement, so that none holds a read open (which would keep an old snapshot in WAL mode,
    /// or stop a COMMIT).
    func resetStatements() {
        for statement in used {
            sqlite3_reset(statement.handle)
            statement.isUsed = false
        }
        used.removeAll(keepingCapacity: true)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// `IMMEDIATE` takes the write lock at the start, so two writers (two processes) wait for each other through the
    /// busy timeout instead of failing on a lock upgrade.
    ///
    /// `BEGIN`, `COMMIT` and `ROLLBACK` are prepared once, like every other statement, not parsed per transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            resetStatements()
            try run("COMMIT")
            return result
        } catch {
            resetStatements()
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    fileprivate func error(_ status: Int32, sql: String) -> DatabaseError {
        DatabaseError(code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A value bound to a statement's parameter.
enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    static func int(_ value: Int) -> DatabaseValue { .integer(Int64(value)) }
    static func optionalText(_ value: String?) -> DatabaseValue { value.map { .text($0) } ?? .null }
    static func optionalInt(_ value: Int?) -> DatabaseValue { value.map { .integer(Int64($0)) } ?? .null }
    static func data(_ value: Data) -> DatabaseValue { .blob(Array(value)) }
}

/// A prepared statement, reused across calls through ``Database/statement(_:)``.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    /// Whether it is in its connection's list of statements used since the last reset.
    fileprivate var isUsed = false
    private unowned let database: Database

    fileprivate init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the parameters 1, 2, …
    func bind(_ values: [DatabaseValue]) throws(DatabaseError) {
        for (offset, value) in values.enumerated() { try bind(at: Int32(offset + 1), value) }
    }

    /// Binds `value` to parameter `index` (from 1).
    func bind(at index: Int32, _ value: DatabaseValue) throws(DatabaseError) {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(handle, index)
        case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
        case .real(let number): status = sqlite3_bind_double(handle, index, number)
        case .text(var text):
            // The UTF-8 bytes in place (no C string copy), with their length.
            status = text.withUTF8 { bytes in
                sqlite3_bind_text(
                    handle, index,
                    UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self), Int32(bytes.count), csqlite_transient())
            }
        case .blob(let bytes):
            status = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
                    csqlite_transient())
            }
        }
        if status != SQLITE_OK { throw database.error(status, sql: sql) }
    }

    /// Binds bytes that stay valid until the statement is stepped and reset (SQLite does not copy them).
    func bind(borrowing bytes: UnsafeRawBufferPointer, at index: Int32) throws(DatabaseError) {
        let status = sqlite3_bind_blob64(
            handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), nil)
        if status != SQLITE_OK { throw database.error(status, sql: sql) }
    }

    /// Moves to the next row: `true` when there is one, `false` when the statement is done.
    func step() throws(DatabaseError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status:
            let error = database.error(status, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// The result columns' positions by name, read from SQLite once per prepared statement (statements are kept and
    /// reused, so a cold start resolves each name once, not once per row).
    private var columnIndexes: [String: Int32]?

    /// The position of the result column `name` (its name, or its `AS` alias, in the statement's SQL).
    ///
    /// - Precondition: the statement has such a column (a mismatch between the SQL and the code that reads it).
    func column(_ name: String) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for index in 0..<sqlite3_column_count(handle) {
                if let cName = sqlite3_column_name(handle, index) { indexes[String(cString: cName)] = index }
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes?[name] else {
            preconditionFailure("no result column '\(name)' in: \(sql.prefix(200))")
        }
        return index
    }

    func isNull(_ name: String) -> Bool { isNull(column(name)) }
    func int64(_ name: String) -> Int64 { int64(column(name)) }
    func int(_ name: String) -> Int { int(column(name)) }
    func optionalInt(_ name: String) -> Int? { optionalInt(column(name)) }
    func double(_ name: String) -> Double { double(column(name)) }
    func text(_ name: String) -> String? { text(column(name)) }
    func data(_ name: String) -> Data? { data(column(name)) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func data(_ column: Int32) -> Data? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}

/// A failure reported by SQLite.
struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    var code: Int32
    var message: String
    var sql: String?

    /// Whether the file is damaged or is not a database: it should be moved aside.
    var isCorruption: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }
}
