import Dispatch
import Foundation

/// The one connection to a store's database, used by one closure at a time: the store's single writer.
///
/// Shaped like GRDB's `DatabaseQueue`: ``write(_:)`` runs a closure in a transaction, ``read(_:)`` without one.
/// The `async` forms run the closure on the queue's own dispatch queue, never on the caller's thread, so disk work
/// never runs on the main actor or blocks a thread of the concurrency pool while SQLite waits for another process's
/// lock.
///
/// - Thread safety: `Sendable`; the connection is behind a lock.
final class DatabaseQueue: @unchecked Sendable {
    /// The database file.
    let path: String
    private let database: Database
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "tether.store.database", qos: .utility)

    /// Opens the database at `path` and brings its schema up to date with `migrator`.
    init(path: String, migrator: DatabaseMigrator) throws {
        self.path = path
        database = try Database(path: path)
        try migrator.migrate(database)
    }

    /// Runs `body` with the connection, outside any transaction, on the calling thread.
    func read<T>(_ body: (Database) throws -> T) rethrows -> T {
        lock.lock()
        defer {
            database.resetStatements()
            lock.unlock()
        }
        return try body(database)
    }

    /// Runs `body` in one immediate transaction, on the calling thread: all of its changes are committed together,
    /// or none when it throws.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try database.transaction { try body(database) }
    }

    /// ``write(_:)`` on the queue's dispatch queue.
    func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.write(body) }) }
        }
    }

    /// ``write(_:)`` on the queue's dispatch queue, then `after` with its result on the same thread once committed
    /// (to start what must follow the commit without a hop back to the caller first).
    func asyncWrite<T, U: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, then after: @escaping @Sendable (T) -> U
    ) async throws -> U {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { after(try self.write(body)) }) }
        }
    }

    /// ``read(_:)`` on the queue's dispatch queue.
    func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.read(body) }) }
        }
    }
}

/// The schema's versions, applied in order, each in its own transaction; `PRAGMA user_version` records how many
/// have been applied.
struct DatabaseMigrator: Sendable {
    /// One step of the schema: the SQL that takes version `n - 1` to `n`.
    struct Migration: Sendable {
        var name: String
        var sql: String
    }

    var migrations: [Migration]

    /// The version a database has once migrated.
    var latestVersion: Int { migrations.count }

    /// Applies the migrations `database` has not had yet.
    ///
    /// - Throws: ``DatabaseError``, also when the database was made by a newer schema than this one knows.
    func migrate(_ database: Database, upTo target: Int? = nil) throws {
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
