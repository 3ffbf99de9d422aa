package import Dispatch
import Foundation
import TetherSync

/// The one connection to a store's database, used by one closure at a time: the store's single writer.
///
/// Shaped like GRDB's `DatabaseQueue`: ``write(_:)`` runs a closure in a transaction, ``read(_:)`` without one.
/// The `async` forms run the closure on the queue's own dispatch queue, never on the caller's thread, so disk work
/// never runs on the main actor or blocks a thread of the concurrency pool while SQLite waits for another process's
/// lock.
///
/// Writes that may land a moment later (``writeSoon(_:)``) are committed in the transaction of the connection's
/// next write, before its next read, or from a dispatch queue after ``soonDelay``, whichever comes first:
/// every reader and writer of this connection sees them.
///
/// - Thread safety: `Sendable`; the connection is behind a lock.
package final class DatabaseQueue: @unchecked Sendable {
    /// The database file.
    package let path: String
    private let database: Database
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "tether.store.database", qos: .utility)
    /// Writes handed to ``writeSoon(_:)`` and not yet committed, oldest first, and whether a commit of them is
    /// scheduled on `queue`.
    private let soon = Locked<(writes: [@Sendable (Database) throws -> Void], isScheduled: Bool)>(([], false))
    /// How long a write handed to ``writeSoon(_:)`` may wait for the connection's next use before `queue` commits
    /// it alone.
    package static let soonDelay: DispatchTimeInterval = .milliseconds(20)

    /// Opens the database at `path` and brings its schema up to date with `migrator`.
    package init(path: String, migrator: DatabaseMigrator) throws {
        self.path = path
        database = try Database(path: path)
        try migrator.migrate(database)
    }

    deinit {
        lock.lock()
        commitSoonWrites()
        lock.unlock()
    }

    /// Runs `body` with the connection, outside any transaction, on the calling thread.
    package func read<T>(_ body: (Database) throws -> T) rethrows -> T {
        lock.lock()
        commitSoonWrites()
        defer {
            database.resetStatements()
            lock.unlock()
        }
        return try body(database)
    }

    /// Runs `body` in one immediate transaction, on the calling thread: all of its changes are committed together,
    /// or none when it throws.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let writes = takeSoonWrites()
        if writes.isEmpty { return try database.transaction { try body(database) } }
        // In the same transaction (one commit for both). When `body` fails, they are committed alone and `body` is
        // not run again.
        do {
            return try database.transaction {
                // Tried first without a savepoint each (two statements fewer per write); when one fails, the
                // transaction is rolled back before `body` runs and tried again below with savepoints.
                for write in writes {
                    do { try write(database) } catch { throw SoonWriteFailed() }
                }
                return try body(database)
            }
        } catch is SoonWriteFailed {
            // Handled below: a write that fails is dropped at its savepoint.
        } catch {
            commit(writes)
            throw error
        }
        do {
            return try database.transaction {
                for write in writes {
                    _ = try database.run("SAVEPOINT soon")
                    do {
                        try write(database)
                    } catch {
                        try database.execute("ROLLBACK TO soon")
                    }
                    _ = try database.run("RELEASE soon")
                }
                return try body(database)
            }
        } catch {
            commit(writes)
            throw error
        }
    }

    /// Hands in a write that may be committed a moment later: in the transaction of the connection's next write (in
    /// this process), before its next read, or from a dispatch queue after ``soonDelay``. Returns at once, without
    /// disk work.
    ///
    /// For writes whose loss in a crash is harmless (the caller can redo them): a write that fails is dropped.
    package func writeSoon(_ body: @escaping @Sendable (Database) throws -> Void) {
        if losesSoonWrites.withLock({ $0 }) { return }
        let schedules = soon.withLock { soon in
            soon.writes.append(body)
            defer { soon.isScheduled = true }
            return !soon.isScheduled
        }
        guard schedules else { return }
        // Not on `queue` (utility): under load its work can wait for seconds, and these writes should not.
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + Self.soonDelay) {
            self.lock.lock()
            self.soon.withLock { $0.isScheduled = false }
            self.commitSoonWrites()
            self.lock.unlock()
        }
    }

    /// For tests of what a crash leaves: from now on, writes handed to ``writeSoon(_:)`` are dropped, those waiting
    /// included, as if the process had been killed before they landed.
    package func loseSoonWrites() {
        losesSoonWrites.withLock { $0 = true }
        _ = takeSoonWrites()
    }

    private let losesSoonWrites = Locked<Bool>(false)

    /// Commits the writes handed to ``writeSoon(_:)`` now, on the calling thread.
    package func commitSoonWritesNow() {
        lock.lock()
        commitSoonWrites()
        lock.unlock()
    }

    /// ``commitSoonWritesNow()`` on the queue's dispatch queue.
    package func asyncCommitSoonWrites() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.commitSoonWritesNow()
                continuation.resume()
            }
        }
    }

    /// The writes handed to ``writeSoon(_:)`` and not committed yet; they are the caller's to commit.
    private func takeSoonWrites() -> [@Sendable (Database) throws -> Void] {
        soon.withLock { soon in
            defer { soon.writes.removeAll() }
            return soon.writes
        }
    }

    /// Commits the writes handed to ``writeSoon(_:)``. Called with `lock` held.
    private func commitSoonWrites() {
        commit(takeSoonWrites())
    }

    /// Commits `writes` together, or each alone when together they fail. Called with `lock` held.
    private func commit(_ writes: [@Sendable (Database) throws -> Void]) {
        guard !writes.isEmpty else { return }
        do {
            try database.transaction { for write in writes { try write(database) } }
        } catch {
            for write in writes { _ = try? database.transaction { try write(database) } }
        }
    }

    /// ``write(_:)`` on the queue's dispatch queue.
    package func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.write(body) }) }
        }
    }

    /// ``write(_:)`` on the queue's dispatch queue, then `after` with its result on the same thread once committed
    /// (to start what must follow the commit without a hop back to the caller first).
    package func asyncWrite<T, U: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, then after: @escaping @Sendable (T) -> U
    ) async throws -> U {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { after(try self.write(body)) }) }
        }
    }

    /// ``read(_:)`` on the queue's dispatch queue.
    package func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.read(body) }) }
        }
    }
}

/// A write handed to ``DatabaseQueue/writeSoon(_:)`` failed inside a transaction tried without savepoints.
private struct SoonWriteFailed: Error {}
