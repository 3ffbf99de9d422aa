import Dispatch
public import Foundation
import TetherSQLite
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outbox's entries, the oldest one's date, and how many have failed.
typealias OutboxSummary = (count: Int, oldest: Date?, failed: Int)

/// A store's SQLite database: the entities and query results it last saw, and the outbox of writes not yet
/// confirmed by the server.
///
/// ```swift
/// import Foundation
/// import TetherStore
///
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
/// let database = try StoreDatabase(url: StoreDatabase.defaultURL(for: client.baseURL)!)
/// let store = EntityStore(client: client, database: database)
/// ```
///
/// One file per API (see ``defaultURL(for:environment:)``), in WAL mode with one writer at a time. Several
/// processes may use the same file at once (the app and the command line): SQLite's locks order their writes, and
/// each outbox entry is sent by one process at a time (a lease, taken over when its holder dies).
///
/// - Thread safety: `Sendable`. Every call does its disk work on the database's own queue, never on the caller's
///   actor.
public final class StoreDatabase: Sendable {
    /// The database file.
    public let url: URL
    let queue: DatabaseQueue
    /// Names this process in outbox leases.
    let owner: String
    /// The send chains of the entries this connection leases, shared by every outbox over it: an entry leased by
    /// `owner` is either in one of these chains or was claimed outside any (``SendChains``).
    let sendChains = SendChains()
    /// The entries this connection is sending or about to send, which every outbox over it leaves to their sender.
    let takenEntries = ReservedEntries()
    /// The smallest temporary integer id the outbox held when the file was opened (0 when none): a store reserves
    /// the ids down to it before anything can make a new one.
    let smallestTemporaryIntegerID: Int
    /// The outbox's counts when the file was opened, which a new store shows until it reads them again: a screen
    /// says how many writes wait from its first frame.
    let outboxSummaryAtOpen: OutboxSummary

    /// Opens the database at `url`, creating it (and its folder) if needed, and brings its schema up to date.
    ///
    /// A file that is damaged or is not a database is moved aside (renamed to `<name>.corrupt-<date>`, never
    /// deleted) and the error says where; the caller can then carry on without a database.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/database(_:)``.
    public convenience init(url: URL) throws(StoreError) {
        try self.init(url: url, migrator: StoreSchema.migrator)
    }

    init(url: URL, migrator: DatabaseMigrator) throws(StoreError) {
        self.url = url
        owner = LeaseOwner.current()
        do {
            try DatabaseFile.createPrivately(url)
        } catch {
            throw StoreError(.database(error.message))
        }
        do {
            queue = try DatabaseQueue(path: url.path, migrator: migrator)
            // None when the schema has no outbox (a migrator that stops before it, in tests).
            let none: (OutboxSummary, Int) = ((0, nil, 0), 0)
            let (summary, smallest) = (try? queue.read(Self.outboxSummaryAndSmallestTemporaryID(in:))) ?? none
            smallestTemporaryIntegerID = smallest
            outboxSummaryAtOpen = summary
        } catch let error as DatabaseError where error.isCorruption {
            let moved = Self.moveAside(url)
            throw StoreError(
                .database(
                    "the local database \(url.path) is damaged (\(error.message)); it was moved to \(moved ?? "?")"
                        + " and the app carries on without it"))
        } catch {
            throw StoreError(.database("cannot open the local database \(url.path): \(error)"))
        }
    }

    /// A database in memory only (SQLite's `:memory:`), for the outbox of a store without a file: the same order,
    /// keys, retries and states as on disk, gone when the process ends.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/database(_:)`` when SQLite cannot open one (no memory).
    static func inMemory() throws(StoreError) -> StoreDatabase {
        try StoreDatabase(memoryWith: StoreSchema.migrator)
    }

    private init(memoryWith migrator: DatabaseMigrator) throws(StoreError) {
        url = URL(fileURLWithPath: ":memory:")
        owner = LeaseOwner.current()
        do {
            queue = try DatabaseQueue(path: ":memory:", migrator: migrator)
        } catch {
            throw StoreError(.database("cannot open a database in memory: \(error)"))
        }
        smallestTemporaryIntegerID = 0
        outboxSummaryAtOpen = (0, nil, 0)
    }

    /// Opens the database at `url` off the caller's thread (on a dispatch queue), for callers on the main actor:
    /// opening reads the file and may migrate its schema.
    ///
    /// - Throws: ``StoreError`` as ``init(url:)`` does.
    public static func open(url: URL) async throws(StoreError) -> StoreDatabase {
        let result: Result<StoreDatabase, StoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(StoreError) {
                    continuation.resume(returning: .success(try StoreDatabase(url: url)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Where the database for the API at `baseURL` lives: `$XDG_DATA_HOME/tether/store-<host>-<port>-<hash>.sqlite`
    /// (`~/.local/share/tether/…` when `XDG_DATA_HOME` is unset or relative); `nil` when `TETHER_EPHEMERAL` is set
    /// (to anything but `0`) or there is no home folder.
    public static func defaultURL(
        for baseURL: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        if let ephemeral = environment["TETHER_EPHEMERAL"], !ephemeral.isEmpty, ephemeral != "0" { return nil }
        let folder: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            folder = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        } else {
            return nil
        }
        let base = baseURL?.absoluteString ?? "no-base-url"
        let host = (baseURL?.host ?? "local").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        let port = baseURL?.port.map { "-\($0)" } ?? ""
        let name = "store-\(host)\(port)-\(hex(FNV1a.hash(base.utf8))).sqlite"
        return folder.appendingPathComponent("tether", isDirectory: true).appendingPathComponent(name)
    }

    /// Renames `url` (and its WAL and shared-memory files) to `<name>.corrupt-<date>`; the new path, or `nil`.
    static func moveAside(_ url: URL) -> String? {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let target = url.path + ".corrupt-" + stamp
        guard rename(url.path, target) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] { _ = rename(url.path + suffix, target + suffix) }
        return target
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    @discardableResult
    /// Runs `body` in a write transaction, turning SQLite's errors into ``StoreError``: on the database's queue when
    /// called from the main thread (disk work never runs there), else on the calling thread, which saves two thread
    /// switches per transaction (the connection's lock orders the callers).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            if onMainThread() { return try await queue.asyncWrite(body) }
            return try queue.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database("\(error)"))
        }
    }

    /// ``write(_:)``, then `after` with its result once committed, on the thread that ran the transaction.
    func write<T, U: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, then after: @escaping @Sendable (T) -> U
    ) async throws(StoreError) -> U {
        do {
            if onMainThread() { return try await queue.asyncWrite(body, then: after) }
            return after(try queue.write(body))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database("\(error)"))
        }
    }

    /// Commits the writes that would otherwise land a moment later (confirmations of sent writes, see
    /// ``confirmSoon(_:body:etag:at:)``); on the database's queue when called from the main thread.
    func commitPendingWrites() async {
        if onMainThread() {
            await queue.asyncCommitSoonWrites()
        } else {
            queue.commitSoonWritesNow()
        }
    }

    @discardableResult
    /// Runs `body` without a transaction; where, as ``write(_:)``.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            if onMainThread() { return try await queue.asyncRead(body) }
            return try queue.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database("\(error)"))
        }
    }
}

/// Whether the caller runs on the process's main thread (where the main actor runs).
private func onMainThread() -> Bool {
    MainThread.isCurrent
}
