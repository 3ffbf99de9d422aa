import CSQLite
package import Foundation

/// A prepared statement, reused across calls through ``Database/statement(_:)``.
package final class Statement {
    package let handle: OpaquePointer
    package let sql: String
    /// Whether it is in its connection's list of statements used since the last reset.
    var isUsed = false
    private unowned let database: Database

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the parameters 1, 2, …
    package func bind(_ values: [DatabaseValue]) throws(DatabaseError) {
        for (offset, value) in values.enumerated() { try bind(at: Int32(offset + 1), value) }
    }

    /// Binds `value` to parameter `index` (from 1).
    package func bind(at index: Int32, _ value: DatabaseValue) throws(DatabaseError) {
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
    package func bind(borrowing bytes: UnsafeRawBufferPointer, at index: Int32) throws(DatabaseError) {
        let status = sqlite3_bind_blob64(
            handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), nil)
        if status != SQLITE_OK { throw database.error(status, sql: sql) }
    }

    /// Moves to the next row: `true` when there is one, `false` when the statement is done.
    package func step() throws(DatabaseError) -> Bool {
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
    package func column(_ name: String) -> Int32 {
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

    package func isNull(_ name: String) -> Bool { isNull(column(name)) }
    package func int64(_ name: String) -> Int64 { int64(column(name)) }
    package func int(_ name: String) -> Int { int(column(name)) }
    package func optionalInt(_ name: String) -> Int? { optionalInt(column(name)) }
    package func double(_ name: String) -> Double { double(column(name)) }
    package func text(_ name: String) -> String? { text(column(name)) }
    package func data(_ name: String) -> Data? { data(column(name)) }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    package func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    package func data(_ column: Int32) -> Data? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
