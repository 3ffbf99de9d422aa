import CSQLite

/// A failure reported by SQLite.
package struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    package var code: Int32
    package var message: String
    package var sql: String?

    package init(code: Int32, message: String, sql: String?) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Whether the file is damaged or is not a database: it should be moved aside.
    package var isCorruption: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }
}
