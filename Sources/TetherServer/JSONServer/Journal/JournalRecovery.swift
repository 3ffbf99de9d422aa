/// What a start makes of the journal beside a database file: which writes to apply over the file, and whether
/// the file was edited by hand since the journal's last fold.
///
/// Pure: records and the file's stamp in, a plan out.
///
/// The rules, in order:
/// - the file has the content of the latest fold intent it matches: the fold replaced the file but the server
///   stopped before it started a new journal, so only the writes after that intent are applied;
/// - the file matches the journal's base (the file as of its last fold): every write is applied;
/// - otherwise the file was edited while the server was stopped: every write is still applied over it (each
///   change replaces or removes by id, so a write the edited file already holds changes nothing), and
///   ``Plan/editedWrites`` names them, for a warning.
///
/// Every key is taken, whatever the file: keys live only in the server's files.
struct JournalRecovery {
    /// One write to apply at start.
    struct Write: Sendable {
        var changes: [DatabaseChange]
    }

    /// What to do at start.
    struct Plan: Sendable {
        /// The writes to apply over the file, in order.
        var writes: [Write] = []
        /// The keys the journal records, in order (each with the response to replay).
        var keys: [(key: String, entry: IdempotencyStore.Entry)] = []
        /// The file's stamp as the journal expects it, `nil` when the journal has no base.
        var base: FileStamp?
        /// Set when the file matched neither the base nor a fold: the summaries of the writes applied over it
        /// (`put notes/3, remove notes/4`), one per write that changed something.
        var editedWrites: [String]?
        /// The number of write records in the journal.
        var recordCount = 0
    }

    /// The plan for `records` (a journal, in order) over a database file whose stamp is `file`.
    ///
    /// - Throws: ``JournalCodec/Failure/corrupt(offset:reason:)`` when the journal does not start with its base.
    static func plan(_ records: [JournalRecord], file: FileStamp) throws(JournalCodec.Failure) -> Plan {
        var plan = Plan()
        guard !records.isEmpty else { return plan }
        guard case .base(let base) = records[0] else {
            throw .corrupt(offset: 8, reason: "the journal does not start with its base record")
        }
        plan.base = base
        var start = 1
        var matchedFold = false
        for index in records.indices.reversed() {
            if case .foldIntent(let stamp) = records[index], stamp == file {
                start = index + 1
                matchedFold = true
                break
            }
        }
        let edited = !matchedFold && base != file
        var summaries: [String] = []
        for (index, record) in records.enumerated() {
            guard case .write(let changes, let key, let entry) = record else { continue }
            plan.recordCount += 1
            if let key, let entry { plan.keys.append((key, entry)) }
            guard index >= start, !changes.isEmpty else { continue }
            plan.writes.append(Write(changes: changes))
            if edited { summaries.append(changes.map(\.summary).joined(separator: ", ")) }
        }
        if edited && !summaries.isEmpty { plan.editedWrites = summaries }
        return plan
    }
}
