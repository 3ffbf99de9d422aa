import Foundation

/// The schema's versions, applied in order, each in its own transaction; `PRAGMA user_version` records how many
/// have been applied.
package struct DatabaseMigrator: Sendable {
    /// One step of the schema: the SQL that takes version `n - 1` to `n`.
    package struct Migration: Sendable {
        package var name: String
        package var sql: String

        package init(name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    package var migrations: [Migration]

    package init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// The version a database has once migrated.
    package var latestVersion: Int { migrations.count }

    /// Applies the migrations `database` has not had yet.
    ///
    /// - Throws: ``DatabaseError``, also when the database was made by a newer schema than this one knows.
    package func migrate(_ database: Database, upTo target: Int? = nil) throws {
        let current = Int(try database.scalarInt("PRAGMA user_version"))
        database.resetStatements()
        let target = target ?? latestVersion
        if current > latestVersion {
            throw DatabaseError(
                code: 1,
                message: "the database has schema version \(current), newer than this program's (\(latestVersion))",
                sql: nil)
        }
        guard current < target else { return }
        for version in current..<target {
            try database.transaction {
                try database.execute(migrations[version].sql)
                try database.setUserVersion(version + 1)
            }
        }
    }
}
