extension JSONDatabase {
    /// Folds the journal into the database file now: the file is replaced atomically by the whole database
    /// (plain json-server JSON), the keys file by the remembered keys, and the journal starts again. Does nothing
    /// outside ``Mode/persistent(_:)`` or when there is nothing to fold.
    ///
    /// Writes wait for the fold (reads do not). Folds also happen by themselves once the journal has grown as
    /// large as the file.
    ///
    /// - Throws: ``ServerError`` with code ``ServerError/Code/databaseIO``; every write is still in the journal
    ///   then, and the next fold tries again.
    public func fold() async throws(ServerError) {
        try await exclusively { () throws(ServerError) in try foldNow() }
    }

    /// Folds, the commit queue being idle (no write waits for a sync).
    private func foldNow() throws(ServerError) {
        guard let storage, storage.hasUnfolded else { return }
        idempotency.removeExpired()
        try storage.fold(file: JSONServerBody.bytes(.object(current.root)), keys: idempotency.records())
    }

    /// Folds (see ``fold()``) and closes the journal: for a clean stop. A write after it opens the journal again.
    ///
    /// - Throws: what ``fold()`` throws; the journal is closed all the same.
    public func close() async throws(ServerError) {
        try await exclusively { () throws(ServerError) in
            defer { storage?.close() }
            try foldNow()
        }
    }

    /// The number of `Idempotency-Key`s forgotten before their 24 hours because more than the guard
    /// (`idempotencyCapacity`) came in: 0 under any honest load. Each time it grows past a multiple of 10,000
    /// (and the first time) a warning goes to the log.
    public var forgottenKeyCount: Int { idempotency.forgottenCount }

    /// Runs a fold after the current write once the journal is due for one: the write's response goes first.
    func scheduleFoldIfDue() {
        guard let storage, storage.isFoldDue, !isFoldScheduled, foldsByThemselves else { return }
        isFoldScheduled = true
        Task { await self.foldInBackground() }
    }

    /// For tests: folds now if the journal is due for a fold, at a point of the test's choosing; from the first
    /// call on, folds are no longer scheduled after writes (they would run whenever the actor gets to them, and
    /// a seeded test would not run the same twice).
    func foldIfDue() async {
        foldsByThemselves = false
        await foldInBackground()
    }

    private func foldInBackground() async {
        defer { isFoldScheduled = false }
        guard let storage, storage.isFoldDue else { return }
        do {
            try await exclusively { () throws(ServerError) in
                guard storage.isFoldDue else { return }
                try foldNow()
            }
        } catch {
            storage.postponeFold()
            log("the journal could not be folded into \(storage.target.path): \(error.message)")
        }
    }

    /// For tests: folds once the journal reaches `bytes` (the default is 8 MiB), and also the size of the last
    /// fold's files unless `inProportion` is false.
    func setMinimumFoldBytes(_ bytes: Int, inProportion: Bool = true) {
        storage?.minimumFoldBytes = bytes
        storage?.foldsInProportion = inProportion
    }

    /// For tests: `hook` is consulted at each point where a kill -9 could stop the storage (see
    /// ``JournalStorage/CrashPoint``).
    func setCrashHook(_ hook: (@Sendable (JournalStorage.CrashPoint) -> JournalStorage.CrashAction)?) {
        storage?.crashHook = hook
    }

    /// For tests: the database's files are left as a kill -9 would leave them now; the database writes nothing
    /// more (writes answer 500, folds do nothing).
    func simulateKill() {
        storage?.stop()
    }
}
