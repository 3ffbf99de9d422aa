import Foundation

@testable import TetherSQLite

/// A database file with one table shaped like a store's (`entity`: type, id, value), opened through a
/// ``DatabaseQueue`` as the store opens its own.
final class TestDatabase: Sendable {
    let queue: DatabaseQueue

    static let migrator = DatabaseMigrator(migrations: [
        .init(
            name: "entity",
            sql: """
                CREATE TABLE entity (
                    type TEXT NOT NULL, id TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (type, id))
                """)
    ])

    init(url: URL) throws {
        try DatabaseFile.createPrivately(url)
        queue = try DatabaseQueue(path: url.path, migrator: Self.migrator)
    }
}
