import CSQLite
import Foundation

/// One SQLite connection: statements prepared once and reused, transactions, errors as ``DatabaseError``.
///
/// The seam is shaped like GRDB's `Database`: a ``DatabaseQueue`` owns the connection and hands it to one closure at
/// a time, which runs statements through it.
///
/// - Thread safety: none of its own. Only the owning ``DatabaseQueue`` uses it, one thread at a time.
package final class Database {
    /// The file, or `":memory:"`.
    package let path: String
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// The statements used since the last ``resetStatements()``: only these can hold a read open.
    private var used: [Statement] = []

    /// Opens (creating if needed) the database at `path` in WAL mode, with a busy timeout so that another process
    /// holding the write lock is waited for instead of failing at once.
    ///
    /// - Parameter synchronous: SQLite's `synchronous` setting; `NORMAL` in WAL mode keeps every commit across a
    ///   process crash (kill -9) and loses at most the last commits on a power loss.
    package init(
        path: String, synchronous: String = "NORMAL", busyTimeout: Duration = .seconds(10)
    ) throws(DatabaseError) {
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
                // Finished, so that the change of mode is complete before the first write (a first write with the
                // statement still open went to a rollback journal, not the log).
                resetStatements()
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
    package static let checkpointPages: Int32 = 1000

    deinit {
        sqlite3_wal_hook(handle, nil, nil)
        used.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(DatabaseError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw DatabaseError(code: status, message: message, sql: sql)
        }
    }

    /// The prepared statement for `sql`, made on first use and reused after (reset, bindings cleared).
    package func statement(_ sql: String) throws(DatabaseError) -> Statement {
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
    package func run(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> Int {
        let statement = try statement(sql)
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// The first column of the first row of `sql`, as text.
    package func scalarText(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> String? {
        let statement = try statement(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    package func scalarInt(_ sql: String, _ values: [DatabaseValue] = []) throws(DatabaseError) -> Int64 {
        let statement = try statement(sql)
        try statement.bind(values)
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// The rowid of the last row inserted.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The schema version this database records (`PRAGMA user_version`).
    package var userVersion: Int {
        (try? Int(scalarInt("PRAGMA user_version"))) ?? 0
    }

    package func setUserVersion(_ version: Int) throws(DatabaseError) {
        try execute("PRAGMA user_version=\(version)")
    }

    /// Resets every cached statement, so that none holds a read open (which would keep an old snapshot in WAL mode,
    /// or stop a COMMIT).
    package func resetStatements() {
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
    package func transaction<T>(_ body: () throws -> T) throws -> T {
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

    func error(_ status: Int32, sql: String) -> DatabaseError {
        DatabaseError(code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
