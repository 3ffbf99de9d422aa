public import Foundation
public import TetherJSON

/// The data a ``JSONServerResponder`` serves: a json-server database, whose top-level arrays are collections
/// and whose top-level objects are singular resources.
///
/// ```swift
/// import Foundation
/// import TetherServer
///
/// let url = URL(fileURLWithPath: "db.json")
/// let database = try JSONDatabase(contentsOf: url, mode: .persistent(url))
/// let responder = JSONServerResponder(database: database)
/// ```
///
/// - Thread safety: an actor. Writes are applied one at a time, in arrival order, each completely (change,
///   file replacement, publication) before the next starts, so none is lost. Reads never wait for writes: they
///   use the latest published version (``json``), which a write replaces only after it has been persisted.
/// - Persistence: in ``Mode/persistent(_:)`` every successful write replaces the file atomically (a temporary
///   file in the same directory, `fsync`, `rename`, `fsync` of the directory), pretty-printed as json-server
///   writes it. The file I/O runs on the actor, so a write's response is sent only once it is on disk.
public actor JSONDatabase {
    /// Where writes go.
    public enum Mode: Sendable, Hashable {
        /// Writes are applied and the whole database is written to this file after each one.
        case persistent(URL)
        /// Writes are applied in memory only; the file, if any, is read once and never written.
        case inMemory
        /// Writes are refused with `403 Forbidden` and a JSON error (json-server's `--read-only` answers 403).
        case readOnly
    }

    /// Where writes go.
    public nonisolated let mode: Mode
    /// The suffix of foreign keys (`postId`): json-server's `--fks`, `Id` by default.
    public nonisolated let foreignKeySuffix: String

    private nonisolated let published: SnapshotBox
    /// Where writes run: a queue of the database's own, never a connection's thread (see ``WriterExecutor``).
    private nonisolated let writer = WriterExecutor()

    /// The database's executor: its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { writer.asUnownedSerialExecutor() }
    private var state: DatabaseState
    var idempotency: IdempotencyStore

    /// A database holding `root`.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/invalidDatabase`` unless `root` is an object whose
    ///   values are arrays or objects and whose keys contain no `/` (json-server's rules).
    public init(
        _ root: JSON, mode: Mode = .inMemory, foreignKeySuffix: String = "Id", idempotencyCapacity: Int = 1000
    ) throws(ServerError) {
        guard case .object(var object) = JSONServerBody.normalized(root) else {
            throw ServerError(.invalidDatabase, "a json-server database must be a JSON object, not \(root.kind)")
        }
        var isPersistent = false
        if case .persistent = mode { isPersistent = true }
        var idempotency = IdempotencyStore(capacity: idempotencyCapacity, keepsFileText: isPersistent)
        if let saved = object[IdempotencyStore.fileKey] {
            idempotency.load(saved)
            object[IdempotencyStore.fileKey] = nil
        }
        for (key, value) in object {
            if key.contains("/") {
                throw ServerError(.invalidDatabase, "the database key '\(key)' contains '/', which routes cannot hold")
            }
            switch value {
            case .array, .object: break
            default:
                throw ServerError(
                    .invalidDatabase,
                    "the type of '\(key)' (\(value.kind)) is not supported: use objects or arrays of objects")
            }
        }
        let state = DatabaseState(root: object)
        self.mode = mode
        self.foreignKeySuffix = foreignKeySuffix
        self.state = state
        self.published = SnapshotBox(state)
        self.idempotency = idempotency
    }

    /// A database read from the JSON file at `url`.
    ///
    /// With ``Mode/persistent(_:)`` writes replace that mode's file, normally `url` itself.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/databaseIO`` when the file cannot be read, or
    ///   ``ServerError/Code/invalidDatabase`` when it is not valid JSON (the message gives line and column) or not
    ///   a json-server database.
    public init(
        contentsOf url: URL, mode: Mode, foreignKeySuffix: String = "Id", idempotencyCapacity: Int = 1000
    ) throws(ServerError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ServerError(.databaseIO, "cannot read \(url.path): \(error.localizedDescription)")
        }
        let root: JSON
        do {
            root = try JSON(parsing: data)
        } catch {
            throw ServerError(
                .invalidDatabase,
                "\(url.path) is not valid JSON: \(error.message) at \(error.location.map(\.description) ?? "the end")")
        }
        try self.init(root, mode: mode, foreignKeySuffix: foreignKeySuffix, idempotencyCapacity: idempotencyCapacity)
        if case .persistent(let target) = mode { AtomicFileWriter.removeLeftovers(of: target) }
    }

    /// The latest published version of the whole database.
    public nonisolated var json: JSON { .object(published.current.root) }

    /// The latest published version, for reads.
    nonisolated var snapshot: DatabaseState { published.current }

    /// The current version, on the actor, for writes.
    var current: DatabaseState { state }

    /// Makes `next` the current version: writes it to the file first in persistent mode. The version is
    /// published with an empty read cache, so no response cached for an earlier version is served again.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/databaseIO`` when the file cannot be replaced;
    ///   then nothing changes.
    func commit(_ next: DatabaseState) throws(ServerError) {
        var next = next
        next.invalidateReads()
        if case .persistent(let url) = mode {
            var file = JSONServerBody.bytes(.object(next.root))
            if idempotency.count > 0 { idempotency.appendMember(to: &file) }
            try AtomicFileWriter.write(file, to: url)
        }
        state = next
        published.current = next
    }
}

extension ServerError.Code {
    /// A json-server database that is not a JSON object of arrays and objects, or not JSON at all.
    public static let invalidDatabase = ServerError.Code(rawValue: "invalidDatabase")
    /// A database file that cannot be read or replaced.
    public static let databaseIO = ServerError.Code(rawValue: "databaseIO")
}
