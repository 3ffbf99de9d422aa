import Foundation

/// The server's own files beside a database file, and the journal's life: append, fold, recovery.
///
/// For `db.json` they are in the hidden folder `.db.json.tether/` beside it:
/// - `journal`: append-only, `TETHERJ1` then framed records (see ``JournalCodec``, ``JournalRecord``): a base
///   record (the stamp of `db.json` as of the last fold), then one record per write (its changes and its
///   `Idempotency-Key` response together), and a fold intent before each fold;
/// - `keys`: every remembered key with its response, rewritten at each fold (see ``KeysFile``).
///
/// `db.json` itself holds only plain json-server JSON, written by folds.
///
/// A fold, in order: append a fold intent with the new file's stamp (synced); write the keys file (atomic
/// replace); write `db.json` (atomic replace); replace the journal by a new one whose base is the new file's
/// stamp. Wherever it stops, a start finds every acknowledged write and key (see ``JournalRecovery``).
///
/// - Thread safety: none; owned by the ``JSONDatabase`` actor.
final class JournalStorage {
    /// A point of the journal's life where a test can stop it as a kill -9 would.
    enum CrashPoint: Sendable, Equatable {
        /// Before a record of `length` bytes is appended.
        case append(length: Int)
        /// After a record is appended and synced, before the write is acknowledged.
        case appended
        /// During a fold: after the intent is synced, after the keys file, after the database file.
        case foldAfterIntent, foldAfterKeys, foldAfterFile
    }

    /// What a test's hook makes of a ``CrashPoint``.
    enum CrashAction: Sendable, Equatable {
        case proceed
        /// Stop here: nothing more is written.
        case crash
        /// For an append: write only this many bytes of the record, then stop.
        case tear(at: Int)
    }

    /// The database file.
    let target: URL
    /// The hidden folder beside it, the journal and the keys file.
    let folder: URL
    let journalURL: URL
    let keysURL: URL

    /// The stamp of the database file as the journal's records start from it.
    private var base: FileStamp
    private var journal: JournalFile?
    /// The journal's length in bytes, once it exists (0 before).
    var journalLength: Int { journal?.length ?? 0 }
    /// Write records appended since the last fold (or found at start).
    private(set) var unfoldedRecords: Int
    /// Whether the database file must be rewritten even without new records (old keys to move out of it, a
    /// hand-edited file to rebase the journal on).
    var fileNeedsFold = false
    /// The size of the database file and keys file at the last fold: the journal is folded once it is as large
    /// (and at least ``minimumFoldBytes``), so a write's share of the folds' cost stays constant.
    private var lastFoldBytes: Int
    /// The smallest journal that is folded.
    var minimumFoldBytes = 8 << 20
    /// Whether a journal must also have grown as large as the last fold's files before it is folded (tests
    /// turn this off to fold often).
    var foldsInProportion = true
    /// For tests: consulted at each ``CrashPoint``.
    var crashHook: (@Sendable (CrashPoint) -> CrashAction)?
    /// Set once a hook crashed the storage: every later write fails, as if the process had died.
    private(set) var isStopped = false

    /// The folder of the server's files for `target`: `.<name>.tether` beside it.
    static func folder(for target: URL) -> URL {
        target.deletingLastPathComponent().appendingPathComponent("." + target.lastPathComponent + ".tether")
    }

    /// What ``recover(target:file:)`` found.
    struct Recovered {
        var plan: JournalRecovery.Plan
        var keys: [(key: String, entry: IdempotencyStore.Entry)]
        var journalLength: Int?
        var tornBytes: Int
    }

    /// Reads the server's files for `target`, whose bytes (as read) are `file`: the keys file, then the journal.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/corruptJournal`` when either file is damaged in a
    ///   way a crash cannot explain (a torn last record is not: it is dropped), `databaseIO` when one cannot be
    ///   read.
    static func recover(target: URL, file: [UInt8]) throws(ServerError) -> Recovered {
        let folder = folder(for: target)
        let journalURL = folder.appendingPathComponent("journal")
        let keysURL = folder.appendingPathComponent("keys")
        var recovered = Recovered(plan: JournalRecovery.Plan(), keys: [], journalLength: nil, tornBytes: 0)
        if let bytes = try JournalFile.read(keysURL) {
            do throws(JournalCodec.Failure) {
                recovered.keys = try KeysFile.keys(in: bytes)
            } catch {
                throw corrupt(keysURL, error)
            }
        }
        guard let bytes = try JournalFile.read(journalURL) else { return recovered }
        do throws(JournalCodec.Failure) {
            let decoded = try JournalCodec.decode(bytes, magic: JournalRecord.journalMagic)
            var records: [JournalRecord] = []
            records.reserveCapacity(decoded.frames.count)
            for frame in decoded.frames { records.append(try JournalRecord(frame: frame)) }
            recovered.plan = try JournalRecovery.plan(records, file: FileStamp(of: file))
            recovered.journalLength = decoded.validLength
            recovered.tornBytes = decoded.tornBytes
        } catch {
            throw corrupt(journalURL, error)
        }
        return recovered
    }

    private static func corrupt(_ url: URL, _ failure: JournalCodec.Failure) -> ServerError {
        switch failure {
        case .badMagic:
            ServerError(.corruptJournal, "\(url.path) is not a Tether journal or keys file (its first bytes differ)")
        case .corrupt(let offset, let reason):
            ServerError(
                .corruptJournal,
                "\(url.path) is damaged at byte \(offset) (\(reason)) with whole records after it; it was not written "
                    + "that way by a crash, so the server does not start rather than drop acknowledged writes")
        }
    }

    /// The storage of `target`, whose bytes at start were `file`, after ``recover(target:file:)`` found
    /// `recovered`: a torn tail is truncated away now.
    init(target: URL, file: [UInt8], recovered: Recovered) throws(ServerError) {
        self.target = target
        folder = Self.folder(for: target)
        journalURL = folder.appendingPathComponent("journal")
        keysURL = folder.appendingPathComponent("keys")
        base = recovered.plan.base ?? FileStamp(of: file)
        unfoldedRecords = recovered.plan.recordCount
        lastFoldBytes = file.count
        if let length = recovered.journalLength, recovered.plan.base != nil {
            journal = try JournalFile(url: journalURL, length: length)
        }
        AtomicFileWriter.removeLeftovers(of: target)
        AtomicFileWriter.removeLeftovers(of: journalURL)
        AtomicFileWriter.removeLeftovers(of: keysURL)
    }

    /// Whether the journal has grown enough to fold: at least ``minimumFoldBytes`` and as large as the files of
    /// the last fold.
    var isFoldDue: Bool {
        !isStopped && journalLength >= max(minimumFoldBytes, foldsInProportion ? lastFoldBytes : 0)
    }

    /// Whether a fold would change anything.
    var hasUnfolded: Bool { unfoldedRecords > 0 || fileNeedsFold }

    /// Appends `record` to the journal (making the folder and journal first if need be) and syncs it.
    ///
    /// - Throws: ``ServerError`` with code `databaseIO`; the journal is then as before.
    func append(_ record: JournalRecord) throws(ServerError) {
        _ = try write(record)
        guard let message = journal?.sync() else { return }
        throw ServerError(.databaseIO, message)
    }

    /// Writes `record` at the end of the journal (making the folder and journal first if need be) without
    /// syncing it: the group commit syncs (``journalForSync``), then the write passes ``passAcknowledgement()``.
    ///
    /// - Returns: the record's number (1, 2, … since the storage opened, across folds): it is durable once a
    ///   sync that started after this returned has ended.
    /// - Throws: ``ServerError`` with code `databaseIO`; the journal is then as before.
    func write(_ record: JournalRecord) throws(ServerError) -> Int {
        try checkRunning()
        let bytes = record.framed
        let journal = try openJournal()
        switch crashHook?(.append(length: bytes.count)) ?? .proceed {
        case .proceed:
            try journal.write(bytes)
        case .crash:
            stop()
            try checkRunning()
        case .tear(let count):
            stop()
            try journal.write(bytes, tearAt: count)
        }
        if case .write = record { unfoldedRecords += 1 }
        recordsWritten += 1
        return recordsWritten
    }

    /// The records written by ``write(_:)`` since the storage opened.
    private(set) var recordsWritten = 0

    /// The journal for the group commit's sync, which may run on another thread (it holds the file open).
    var journalForSync: JournalFile? { isStopped ? nil : journal }

    /// The last point before a durable write is acknowledged (where a test may stop the storage).
    func passAcknowledgement() throws(ServerError) {
        try step(.appended)
    }

    /// Folds: `file` (the whole database, as json-server writes it) replaces the database file, `keys` (the keys
    /// file's records) the keys file, and the journal starts again from the new file.
    ///
    /// - Throws: ``ServerError`` with code `databaseIO`; whatever step failed, the files still hold every write.
    func fold(file: [UInt8], keys: [[UInt8]]) throws(ServerError) {
        try checkRunning()
        let stamp = FileStamp(of: file)
        try append(.foldIntent(stamp))
        try step(.foldAfterIntent)
        let keysBytes = KeysFile.bytes(keys)
        try AtomicFileWriter.write(keysBytes, to: keysURL)
        try step(.foldAfterKeys)
        try AtomicFileWriter.write(file, to: target)
        try step(.foldAfterFile)
        journal = nil
        journal = try JournalFile.create(
            at: journalURL, bytes: JournalRecord.journalMagic + JournalRecord.base(stamp).framed)
        base = stamp
        unfoldedRecords = 0
        fileNeedsFold = false
        lastFoldBytes = file.count + keysBytes.count
    }

    /// After a failed fold: the next is tried once the journal has grown as much again.
    func postponeFold() {
        lastFoldBytes = max(lastFoldBytes, journalLength) * 2
    }

    /// Closes the journal file; the next append opens it again.
    func close() {
        journal = nil
    }

    private func openJournal() throws(ServerError) -> JournalFile {
        if let journal { return journal }
        // The folder, but not its parent: a database file's directory that is gone is a failure.
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            do {
                // The server's own files (the journal, and the keys with the answers they replay) are the user's
                // data: the folder is theirs alone.
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServerError(.databaseIO, "cannot create \(folder.path): \(error.localizedDescription)")
            }
            AtomicFileWriter.syncDirectory(target.deletingLastPathComponent().path)
        }
        let opened: JournalFile
        // A journal with its base record is appended to; one without (its creation is atomic, so only damage
        // leaves that) is made again.
        if FileManager.default.fileExists(atPath: journalURL.path),
            case let length = try journalLengthOnDisk(), length > JournalRecord.journalMagic.count
        {
            opened = try JournalFile(url: journalURL, length: length)
        } else {
            opened = try JournalFile.create(
                at: journalURL, bytes: JournalRecord.journalMagic + JournalRecord.base(base).framed)
        }
        journal = opened
        return opened
    }

    /// The length of the journal's whole records on disk (after ``close()``).
    private func journalLengthOnDisk() throws(ServerError) -> Int {
        let bytes = try JournalFile.read(journalURL) ?? []
        do {
            return try JournalCodec.decode(bytes, magic: JournalRecord.journalMagic).validLength
        } catch {
            throw Self.corrupt(journalURL, error)
        }
    }

    private func step(_ point: CrashPoint) throws(ServerError) {
        if crashHook?(point) == .crash { stop() }
        try checkRunning()
    }

    /// Stops the storage: nothing more is written. For tests, as a kill -9 would; for the server, once a sync
    /// failed (what reached the disk is then unknown, so no later write may be acknowledged before a restart
    /// reads the journal again).
    func stop(because reason: String = "the storage was stopped (a simulated crash)") {
        isStopped = true
        stopReason = reason
        journal = nil
    }

    private var stopReason = ""

    private func checkRunning() throws(ServerError) {
        if isStopped { throw ServerError(.databaseIO, stopReason) }
    }
}

extension ServerError.Code {
    /// The server's journal or keys file beside a database file is damaged in a way a crash cannot explain
    /// (a record in the middle fails its checksum): the server refuses to start rather than drop acknowledged
    /// writes. The message names the file and the byte.
    public static let corruptJournal = ServerError.Code(rawValue: "corruptJournal")
}
