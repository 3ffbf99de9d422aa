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
/// // ... serve; at a clean stop:
/// try await database.close()
/// ```
///
/// - Thread safety: an actor. Writes are applied one at a time, in arrival order (change, journal record), so
///   none is lost; each then waits for a sync that covers its record, which concurrent writes share (group
///   commit, see `CommitQueue`). Reads never wait for writes: they use the latest published version
///   (``json``), which becomes a write's version only once its record is durable.
/// - Persistence: in ``Mode/persistent(_:)`` each write (and its `Idempotency-Key` response) is appended to a
///   journal beside the file as one record with a length and a CRC-32, and the response is sent only once the
///   record is synced (`fdatasync`): a write costs its own size, not the database's. The journal is folded into
///   the file (atomic replace: temporary file, `fsync`, `rename`, `fsync` of the directory) once it has grown as
///   large as the file, and at ``close()``; after a fold the file holds only plain json-server JSON,
///   pretty-printed as json-server writes it. See `JournalStorage` for the files (`.db.json.tether/journal`
///   and `.db.json.tether/keys`).
/// - Recovery: opening a file replays its journal over it. A torn last record (a kill -9 mid-append: never
///   acknowledged) is dropped and truncated away; damage in the middle is refused with
///   ``ServerError/Code/corruptJournal``. A file edited by hand while the server was stopped gets the writes not
///   yet folded applied over it, and a warning names them.
/// - Idempotency keys are remembered for 24 hours, however many writes come in between, in the server's files
///   (never in the database file). A file that still holds them under `_tether_idempotency` (written by an
///   earlier version) has them moved out at the next fold.
public actor JSONDatabase {
    /// Where writes go.
    public enum Mode: Sendable, Hashable {
        /// Writes are journaled beside this file and folded into it (see ``JSONDatabase``).
        case persistent(URL)
        /// Writes are applied in memory only; the file, if any, is read once and never written.
        case inMemory
        /// Writes are refused with `403 Forbidden` and a JSON error (json-server's `--read-only` answers 403).
        case readOnly
    }

    /// The guard on the number of remembered `Idempotency-Key`s when none is given: a million, far above any
    /// honest load (keys are remembered for 24 hours; past the guard the oldest is forgotten early, and that is
    /// reported).
    public static let defaultIdempotencyCapacity = IdempotencyStore.defaultCapacity

    /// Writes one warning line to standard error (`tether: warning: ...`): the default log.
    public static let standardErrorLog: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("tether: warning: \(message)\n".utf8))
    }

    /// Where writes go.
    public nonisolated let mode: Mode
    /// The suffix of foreign keys (`postId`): json-server's `--fks`, `Id` by default.
    public nonisolated let foreignKeySuffix: String

    private nonisolated let published: SnapshotBox
    /// Where writes run: a queue of the database's own, never a connection's thread (see ``WriterExecutor``).
    nonisolated let writer = WriterExecutor()

    /// The database's executor: its own serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { writer.asUnownedSerialExecutor() }
    private var state: DatabaseState
    var idempotency: IdempotencyStore
    /// The journal and keys file, in persistent mode with a file.
    let storage: JournalStorage?
    /// Receives warnings: a fold that failed, keys forgotten early, writes applied over a hand-edited file.
    nonisolated let log: @Sendable (String) -> Void
    /// Whether a fold is scheduled to run after the current write.
    var isFoldScheduled = false
    /// Whether a write schedules a fold once the journal is due for one (tests fold at chosen points instead).
    var foldsByThemselves = true
    /// Group commit: the records made durable and the writes waiting for a sync (see ``CommitQueue``).
    var commits: CommitQueue<CheckedContinuation<Bool, Never>>
    /// The versions written but not yet durable, each with its record's number, oldest first; readers get one
    /// once its record is synced.
    var undurableVersions: [(end: Int, state: DatabaseState)] = []
    /// The keys stored for records not yet durable, forgotten again if their sync fails.
    var undurableKeys: [(end: Int, key: String)] = []
    /// Tasks waiting until no write waits for a sync (a fold, a close).
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set while a fold waits for the writes in flight: new writes wait for it (``foldWaiters``) so it is not
    /// starved under a steady load.
    var isFoldWaiting = false
    var foldWaiters: [CheckedContinuation<Void, Never>] = []

    /// A database holding `root`.
    ///
    /// In ``Mode/persistent(_:)`` writes are journaled beside that mode's file (see ``JSONDatabase``), and the
    /// first fold replaces the file by `root` with them; a journal already there is replayed over `root` as over
    /// a file edited by hand (its writes applied, with a warning).
    ///
    /// `idempotencyCapacity` is a guard on the number of remembered keys (see ``defaultIdempotencyCapacity``).
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/invalidDatabase`` unless `root` is an object whose
    ///   values are arrays or objects and whose keys contain no `/` (json-server's rules).
    public init(
        _ root: JSON, mode: Mode = .inMemory, foreignKeySuffix: String = "Id",
        idempotencyCapacity: Int = JSONDatabase.defaultIdempotencyCapacity,
        log: @escaping @Sendable (String) -> Void = JSONDatabase.standardErrorLog
    ) throws(ServerError) {
        try self.init(
            root, file: nil, mode: mode, foreignKeySuffix: foreignKeySuffix, idempotencyCapacity: idempotencyCapacity,
            log: log)
    }

    /// A database read from the JSON file at `url`, with the writes its journal holds replayed over it.
    ///
    /// With ``Mode/persistent(_:)`` writes go to that mode's file, normally `url` itself, and its journal. In the
    /// other modes a journal beside `url` is replayed in memory and left alone.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/databaseIO`` when the file cannot be read,
    ///   ``ServerError/Code/invalidDatabase`` when it is not valid JSON (the message gives line and column) or not
    ///   a json-server database, ``ServerError/Code/corruptJournal`` when its journal or keys file is damaged in
    ///   the middle.
    public init(
        contentsOf url: URL, mode: Mode, foreignKeySuffix: String = "Id",
        idempotencyCapacity: Int = JSONDatabase.defaultIdempotencyCapacity,
        log: @escaping @Sendable (String) -> Void = JSONDatabase.standardErrorLog
    ) throws(ServerError) {
        let data: [UInt8]
        do {
            data = Array(try Data(contentsOf: url))
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
        try self.init(
            root, file: (url, data), mode: mode, foreignKeySuffix: foreignKeySuffix,
            idempotencyCapacity: idempotencyCapacity, log: log)
    }

    private init(
        _ root: JSON, file: (url: URL, bytes: [UInt8])?, mode: Mode, foreignKeySuffix: String,
        idempotencyCapacity: Int, log: @escaping @Sendable (String) -> Void
    ) throws(ServerError) {
        guard case .object(var object) = JSONServerBody.normalized(root) else {
            throw ServerError(.invalidDatabase, "a json-server database must be a JSON object, not \(root.kind)")
        }
        var target: URL?
        if case .persistent(let url) = mode { target = url }
        var idempotency = IdempotencyStore(capacity: idempotencyCapacity, keepsRecords: target != nil)
        var hasLegacyKeys = false
        if let saved = object[IdempotencyStore.legacyFileKey] {
            idempotency.load(saved)
            object[IdempotencyStore.legacyFileKey] = nil
            hasLegacyKeys = true
        }
        try Self.validate(object)
        var state = DatabaseState(root: object)

        // The server's files: beside the file written to, or else beside the file read (replayed, left alone).
        var storage: JournalStorage?
        var editedWrites: [String]?
        var journalPath = ""
        if let journalTarget = target ?? file?.url {
            let fileBytes = file?.bytes ?? JSONServerBody.bytes(.object(object))
            let recovered = try JournalStorage.recover(target: journalTarget, file: fileBytes)
            for (key, entry) in recovered.keys + recovered.plan.keys {
                idempotency.store(key, fingerprint: entry.fingerprint, response: entry.response, at: entry.createdAt)
            }
            for write in recovered.plan.writes {
                for change in write.changes { state.apply(change) }
            }
            editedWrites = recovered.plan.editedWrites
            journalPath = journalTarget.path
            if let target {
                storage = try JournalStorage(target: target, file: fileBytes, recovered: recovered)
                storage?.fileNeedsFold = hasLegacyKeys || editedWrites != nil
            }
            if recovered.tornBytes > 0 {
                log(
                    "\(journalTarget.path): the journal's last record was torn (\(recovered.tornBytes) bytes, never "
                        + "acknowledged) and was dropped")
            }
        }
        try Self.validate(state.root)
        state.invalidateReads()
        if let editedWrites {
            log(
                "\(journalPath) was edited while the server was stopped; \(editedWrites.count) write(s) from its "
                    + "journal not yet in the file were applied over it: \(editedWrites.joined(separator: "; "))")
            if let storage {
                // Rebases the journal on the edited file, so the next start does not warn again.
                do throws(ServerError) {
                    try storage.fold(file: JSONServerBody.bytes(.object(state.root)), keys: idempotency.records())
                } catch {
                    log("the journal could not be folded into \(storage.target.path): \(error.message)")
                }
            }
        }
        self.mode = mode
        self.foreignKeySuffix = foreignKeySuffix
        self.state = state
        self.published = SnapshotBox(state)
        self.idempotency = idempotency
        self.storage = storage
        self.log = log
        self.commits = CommitQueue()
    }

    /// Checks json-server's rules: every value an array or an object, no key with a `/`.
    private static func validate(_ object: JSON.Object) throws(ServerError) {
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
    }

    /// The latest published version of the whole database.
    public nonisolated var json: JSON { .object(published.current.root) }

    /// The latest published version, for reads.
    nonisolated var snapshot: DatabaseState { published.current }

    /// The current version, on the actor, for writes.
    var current: DatabaseState { state }

    /// Makes `next` the current version, for reads too. The version is published with an empty read cache, so
    /// no response cached for an earlier version is served again.
    func publish(_ next: DatabaseState) {
        advance(to: next)
        published.current = state
    }

    /// Makes `next` the version later writes build on, not yet the readers' (its record is not durable yet);
    /// returns it as stored.
    @discardableResult
    func advance(to next: DatabaseState) -> DatabaseState {
        var next = next
        next.invalidateReads()
        state = next
        return next
    }

    /// Makes `version` the readers' version (its record is durable).
    func expose(_ version: DatabaseState) {
        published.current = version
    }

    /// Goes back to the readers' version: the writes after it were not made durable.
    func rollBackToPublished() {
        state = published.current
    }
}

extension ServerError.Code {
    /// A json-server database that is not a JSON object of arrays and objects, or not JSON at all.
    public static let invalidDatabase = ServerError.Code(rawValue: "invalidDatabase")
    /// A database file that cannot be read or replaced.
    public static let databaseIO = ServerError.Code(rawValue: "databaseIO")
}
