import Dispatch

extension JSONDatabase {
    /// The queue the group commit's syncs run on, off the actor, so writes go on appending meanwhile.
    private static let syncQueue = DispatchQueue(label: "tether.server.journal-sync", qos: .userInitiated)

    /// Waits until the records up to number `end` are durable (a sync covers them); `false` when the sync failed or the
    /// storage stopped, and then nothing after the last durable write is kept (see ``syncFinished(upTo:failure:)``).
    func durable(upTo end: Int) async -> Bool {
        if end <= commits.synced { return true }
        return await withCheckedContinuation { continuation in
            let (isDurable, action) = commits.wait(for: end, continuation)
            if isDurable { continuation.resume(returning: true) }
            run(action)
        }
    }

    private func run(_ action: CommitQueue<CheckedContinuation<Bool, Never>>.Action) {
        guard case .startSync(let end) = action else { return }
        guard let journal = storage?.journalForSync else {
            syncFinished(upTo: end, failure: "the storage stopped")
            return
        }
        let writer = writer
        Self.syncQueue.async {
            let failure = journal.sync()
            writer.async { self.assumeIsolated { $0.syncFinished(upTo: end, failure: failure) } }
        }
    }

    /// A sync ended: the writes it covers become the readers' version and are acknowledged. After a failure
    /// (or once the storage stopped) none of the waiting writes is: they are rolled back and answered 500, and
    /// the storage refuses writes until a restart reads the journal again (what reached the disk is unknown).
    func syncFinished(upTo end: Int, failure: String?) {
        if let failure, storage?.isStopped == false {
            log("the journal could not be synced (\(failure)); writes are refused until the server restarts")
            storage?.stop(because: "the journal could not be synced: \(failure)")
        }
        if failure != nil || storage?.isStopped != false {
            let waiters = commits.failed()
            for entry in undurableKeys { idempotency.remove(entry.key) }
            undurableKeys.removeAll()
            undurableVersions.removeAll()
            rollBackToPublished()
            for waiter in waiters { waiter.resume(returning: false) }
            resumeIdleWaiters()
            return
        }
        let (durable, action) = commits.synced(upTo: end)
        let synced = commits.synced
        if let last = undurableVersions.lastIndex(where: { $0.end <= synced }) {
            expose(undurableVersions[last].state)
            undurableVersions.removeFirst(last + 1)
        }
        undurableKeys.removeAll { $0.end <= synced }
        for waiter in durable { waiter.resume(returning: true) }
        run(action)
        resumeIdleWaiters()
    }

    /// Waits until no write waits for a sync and none runs (the journal may then be replaced).
    func waitUntilIdle() async {
        while !commits.isIdle {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    private func resumeIdleWaiters() {
        guard commits.isIdle, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Holds a new write while a fold waits for the writes in flight.
    func passFoldGate() async {
        while isFoldWaiting {
            await withCheckedContinuation { foldWaiters.append($0) }
        }
    }

    /// Runs `body` once no write is in flight, holding new writes until it is done.
    func exclusively<Value>(_ body: () throws(ServerError) -> Value) async throws(ServerError) -> Value {
        await passFoldGate()
        isFoldWaiting = true
        defer {
            isFoldWaiting = false
            let waiters = foldWaiters
            foldWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        }
        await waitUntilIdle()
        return try body()
    }
}
