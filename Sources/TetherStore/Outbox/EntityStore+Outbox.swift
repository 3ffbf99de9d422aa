import Foundation
import TetherJSON
import TetherSync

extension EntityStore {
    // MARK: - The background sender

    /// Starts the loop that sends waiting writes: an earlier run's once the first screen is shown (or after
    /// ``outboxStartDelay``), then whenever the server answers again, and with growing pauses (1 s to 60 s) while
    /// it cannot be reached.
    ///
    /// Its first turn (reading the outbox's counts, claiming and sending) would otherwise share the connection and
    /// the cores with the first query's read from disk, and delay the first screen by a third.
    func startOutbox() {
        guard let outbox = writes else { return }
        let firstScreen = Latch<Void>()
        firstScreenShown = firstScreen
        // Before anything can make a temporary id: none reuses one that waits in the outbox from an earlier run.
        reserveTemporaryIDs(below: outbox.database.smallestTemporaryIntegerID)
        let age = configuration.diskCacheTime
        let limit = configuration.diskEntityLimit
        outboxLoop = Task { [weak self] in
            _ = await firstScreen.value(within: EntityStore.outboxStartDelay)
            // The disk's cache limits (what is older than the cache time, and entities past the limit, go), once
            // the start is over: it never delays the first screen. A store that goes away before then leaves it to
            // the next store on the database.
            self?.pruneTask = Task.detached(priority: .background) {
                do { try await Task.sleep(for: .seconds(10)) } catch { return }
                _ = try? await outbox.database.prune(now: Date(), maximumAge: age, maximumEntities: limit)
            }
            await self?.refreshOutboxStatus()
            guard let (first, longest) = self?.backgroundPause else { return }
            var pause = OutboxPause(first: first, longest: longest)
            while !Task.isCancelled {
                // Installed before the pass: a wake-up during it is kept for the wait after it.
                let wake = Latch<Void>()
                self?.outboxWake = wake
                let report = await outbox.sendAll(retries: .once)
                // Never a strong reference across the wait below: the store's deinit is what ends this loop.
                guard self != nil else { return }
                await self?.refreshOutboxStatus()
                await self?.reconcileWrites()
                // Writes still waiting, whether they failed for now or another process (or database connection)
                // held them: look again after a pause (OutboxPause), never only on the next signal.
                let unreachable = report.pending.contains { pending in
                    if case .http = pending.error?.kind { return true }
                    return false
                }
                // The pauses as configured now (tests shorten them on a running store).
                guard let (first, longest) = self?.backgroundPause else { return }
                if pause.first != first || pause.longest != longest {
                    pause = OutboxPause(first: first, longest: longest)
                }
                let wait = pause.wait(waiting: !report.pending.isEmpty, unreachable: unreachable)
                _ = await wake.value(within: wait)
            }
        }
    }

    /// How long the outbox's first turn (and the reads of waiting writes into entity states) wait for the first
    /// screen at most: a store whose queries are not read from disk (or that has none) goes on after it.
    static let outboxStartDelay: Duration = .milliseconds(50)

    /// Records whether the server answered (`error`: why not); an answer after a silence wakes the outbox and
    /// refetches the stale queries in use that ask for it (``Query/refetchOnReconnect``).
    func noteNetwork(reachable: Bool, error: StoreError? = nil) {
        if !reachable, let error { networkFailure = error }
        if reachable {
            // Only an answer after a silence (or the first one) wakes the outbox: while the server answers, the
            // writes are sent as they are made.
            guard outboxStatus.network != .reachable else { return }
            let wasOffline = outboxStatus.isOffline
            outboxStatus.network = .reachable
            networkFailure = nil
            if outboxStatus.count > outboxStatus.failedCount { outboxWake?.set(()) }
            if wasOffline { for table in tables.values { table.refetchAfterReconnect() } }
        } else if !outboxStatus.isOffline {
            outboxStatus.network = .unreachable(since: Date())
        }
    }

    /// Sends the waiting writes now instead of at the outbox's next turn.
    public func sendWaitingWrites() {
        outboxWake?.set(())
    }

    /// Sends the waiting writes now and returns once none is queued, being sent or waiting for the network, or once
    /// `timeout` has passed, whichever comes first. Writes the server refused (failed, conflict) need the user, and
    /// so do the writes of the same entity queued behind one: they are counted in the result, never waited for.
    ///
    /// ```swift
    /// import TetherStore
    ///
    /// @MainActor func beforeQuitting(_ store: EntityStore) async {
    ///     let drain = await store.sendWaitingWrites(timeout: .seconds(5))
    ///     if !drain.isDrained { print("\(drain.waiting) edits will be sent at the next start") }
    ///     if drain.needUser > 0 { print("\(drain.needUser) edits were refused: see the list") }
    /// }
    /// ```
    ///
    /// - Returns: what still waits, read from the database (other processes' writes included). A cancelled caller
    ///   returns at once with the counts of that moment. A store without a database has nothing to wait for.
    public func sendWaitingWrites(timeout: Duration) async -> OutboxStatus.Drain {
        guard let outbox = writes else { return OutboxStatus.Drain(waiting: 0, needUser: 0) }
        let deadline = ContinuousClock.now + timeout
        let status = outboxStatus
        while true {
            sendWaitingWrites()
            let drain = await Self.drain(of: outbox.database)
            let left = deadline - ContinuousClock.now
            if drain.isDrained || left <= .zero || Task.isCancelled {
                // The states say the same as the database when this returns.
                await refreshOutboxStatus()
                await reconcileWrites()
                return drain
            }
            // The next change of the status (an answer, a count), or a quarter of a second, whichever is first.
            let pause = min(left, .milliseconds(250))
            let updates = status.updates
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var snapshots = 0
                    for await _ in updates {
                        snapshots += 1
                        if snapshots == 2 { return }
                    }
                }
                group.addTask { try? await Task.sleep(for: pause) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The outbox's writes on their way, and those that wait for the user (refused, or behind a refused one).
    @concurrent
    private static func drain(of database: StoreDatabase) async -> OutboxStatus.Drain {
        guard let entries = try? await database.outboxEntries() else {
            return OutboxStatus.Drain(waiting: 0, needUser: 0)
        }
        let blocked = Set(entries.filter { $0.state != .queued }.map { $0.entityType + "\u{0}" + $0.entityID })
        let needUser = entries.filter { blocked.contains($0.entityType + "\u{0}" + $0.entityID) }.count
        return OutboxStatus.Drain(waiting: entries.count - needUser, needUser: needUser)
    }

    /// Brings the entity states in line with the outbox: a write another store or process settled no longer shows
    /// as waiting here (see ``EntityTable/reconcileWrites(with:)``).
    func reconcileWrites() async {
        guard let database = writes?.database else { return }
        for table in Array(tables.values) { await table.reconcileWrites(with: database) }
    }

    /// Reads the outbox's counts from the database (which other processes write too). A read that a change of
    /// this process overtook is dropped, so the counts never go back.
    func refreshOutboxStatus() async {
        let version = outboxStatusVersion
        guard let database = writes?.database, let summary = try? await database.outboxSummary(),
            version == outboxStatusVersion,
            outboxSavesInFlight == 0
        else {
            return
        }
        if outboxStatus.count != summary.count { outboxStatus.count = summary.count }
        if outboxStatus.failedCount != summary.failed { outboxStatus.failedCount = summary.failed }
        if outboxStatus.oldest != summary.oldest { outboxStatus.oldest = summary.oldest }
    }

    /// Applies an outbox event to the states it concerns. The counts of ``outboxStatus`` follow the events of this
    /// process at once; the background loop reads them from the database after each pass (other processes' writes).
    func handle(_ event: OutboxEvent) async {
        outboxStatusVersion &+= 1
        if restoresInFlight > 0 {
            switch event {
            case .confirmed(let confirmation): settledWrites.insert(confirmation.entry.id)
            case .discarded(let entry, _): settledWrites.insert(entry.id)
            default: break
            }
        }
        switch event {
        case .confirmed:
            noteNetwork(reachable: true)
            outboxStatus.count = max(0, outboxStatus.count - 1)
            if outboxStatus.count == 0 { outboxStatus.oldest = nil }
        case .transient(_, let error):
            outboxStatus.lastError = error
            noteNetwork(reachable: !error.isUnreachable, error: error)
            // The background loop takes it from here, after a pause and then with its growing pauses.
            let pause = backgroundPause.first
            Task { [weak self] in
                try? await Task.sleep(for: pause)
                self?.sendWaitingWrites()
            }
        case .failed(_, let error):
            outboxStatus.lastError = error
            outboxStatus.failedCount += 1
            noteNetwork(reachable: true)
        case .discarded(let entry, _):
            outboxStatus.count = max(0, outboxStatus.count - 1)
            if entry.state != .queued { outboxStatus.failedCount = max(0, outboxStatus.failedCount - 1) }
            if outboxStatus.count == 0 { outboxStatus.oldest = nil }
        case .sending:
            break
        }
        let type: String
        switch event {
        case .sending(let entry), .transient(let entry, _), .failed(let entry, _), .discarded(let entry, _):
            type = entry.entityType
        case .confirmed(let confirmation):
            type = confirmation.entry.entityType
        }
        tablesByName[type]?.apply(event)
    }

    // MARK: - Mutations through the outbox

    /// Sends entry `id` after the entity's earlier writes, with the store's retries, in a task of its own (the
    /// caller's cancellation does not reach the send).
    func sendInOrder<Entity>(_ id: Int64, of record: EntityState<Entity>, outbox: Outbox) async -> OutboxOutcome {
        let previous = record.saveChain
        let done = Latch<Void>()
        record.saveChain = done
        defer {
            done.set(())
            if record.saveChain === done { record.saveChain = nil }
        }
        return await send(id, after: previous, of: record, outbox: outbox)
    }

    /// Sends entry `id` once `previous` (the chain link of the entity's earlier write) is done, in a task of its own
    /// so that the caller's cancellation does not reach the send.
    private func send<Entity>(
        _ id: Int64, after previous: Latch<Void>?, of record: EntityState<Entity>, outbox: Outbox
    ) async -> OutboxOutcome {
        let retries = configuration.outboxRetries
        let task = Task { @MainActor in
            await previous?.value()
            // Marked here rather than by an event from the outbox: one hop to the main actor less per write.
            if record.writeStatus == .queued { record.writeStatus = .sending }
            return await outbox.sendOne(id, retries: retries, announces: false)
        }
        return await task.value
    }

    /// Saves `draft` in the outbox and sends it after the entity's earlier writes, applying its outcome. Writes of
    /// one entity are saved in the order they were made (each after the previous one's commit), so the outbox
    /// sends them in that order. `saved` runs on the main actor with the entry saved, before its outcome is
    /// applied (when the write was sent at once, after that send: the caller wakes once per write).
    ///
    /// - Throws: ``StoreError`` when the write could not be saved (then nothing was sent).
    /// - Returns: the entry saved and the outcome of its send.
    func saveInOrder<Entity>(
        _ draft: OutboxDraft, of record: EntityState<Entity>, outbox: Outbox,
        saved: (OutboxEntry) -> Void
    ) async throws(StoreError) -> (entry: OutboxEntry, outcome: OutboxOutcome) {
        // Counted at once (the write is about to be saved) and in flight until its entry is known: a count read
        // from the database meanwhile may hold it already.
        outboxStatusVersion &+= 1
        outboxSavesInFlight += 1
        outboxStatus.count += 1
        if outboxStatus.oldest == nil { outboxStatus.oldest = Date() }
        let previousGate = record.saveGate
        let gate = Latch<Void>()
        record.saveGate = gate
        // The chain of outcomes: this write's is applied after the entity's earlier writes'.
        let previous = record.saveChain
        let done = Latch<Void>()
        record.saveChain = done
        defer {
            done.set(())
            if record.saveChain === done { record.saveChain = nil }
        }
        await previousGate?.value()
        // While the server is known to be out of reach, the write is only saved: the background loop probes the
        // server and sends it with the others, and the caller learns at once that it waits.
        let offline = outboxStatus.isOffline ? networkFailure.map { StoreError(pending: $0.kind) } : nil
        if previous == nil, offline == nil, record.writeStatus == .queued { record.writeStatus = .sending }
        let entry: OutboxEntry
        let sent: ChainLink.Outcome?
        let link: ChainLink?
        do {
            (entry, sent, link) = try await outbox.saveAndSend(
                draft, retries: configuration.outboxRetries, claims: offline == nil, saved: gate,
                unrecorded: unrecordedWrites)
        } catch {
            outboxStatusVersion &+= 1
            outboxSavesInFlight -= 1
            outboxStatus.count = max(0, outboxStatus.count - 1)
            if outboxStatus.count == 0 { outboxStatus.oldest = nil }
            throw error
        }
        saved(entry)
        _ = unrecordedWrites.ids.withLock { $0.remove(entry.id) }
        outboxSavesInFlight -= 1
        if let offline {
            await previous?.value()
            await handle(.transient(entry, offline))
            return (entry, .pending(offline))
        }
        // Sent at once, or by the entity's send chain as soon as the previous write was confirmed.
        var result = sent
        if result == nil, let link {
            result = await link.result()
            if result == nil { outbox.releaseChained(entry) }
        }
        if let result {
            // An earlier write's outcome (already recorded: this one was first in the outbox) is applied first.
            await previous?.value()
            if let event = result.event { await handle(event) }
            return (entry, result.outcome)
        }
        // An earlier write of the entity waited: this one goes after it.
        return (entry, await send(entry.id, after: previous, of: record, outbox: outbox))
    }

    func updateThroughOutbox<Entity: RemoteEntity>(
        _ edited: Entity, outbox: Outbox, options: MutationOptions
    ) async throws(StoreError) -> Entity {
        let table = table(for: Entity.self)
        let entity: Entity
        let bytes: Data
        let serverBytes: Data?
        do {
            // A value made while the entity was a draft names its temporary id: the edit goes to the server's.
            entity = try table.withCurrentID(edited)
        } catch {
            throw StoreError(.encoding("\(error)"))
        }
        let record = table.record(for: entity.id)
        editCounter += 1
        record.pendingEdits.append(PendingEdit(number: editCounter, value: entity))
        let number = editCounter
        record.lastWrite = editCounter
        record.value = entity
        record.status = .syncing
        record.writeStatus = .queued
        record.error = nil
        record.conflict = nil
        // Every view shows the edit first; its bytes for the outbox are made after (the server's version is not
        // touched by the edit, so its encoding is the same either way).
        table.entityChanged(record)
        do {
            bytes = try TetherJSONEncoder().encode(entity)
            serverBytes = try record.encodedServerValue()
        } catch {
            throw takeBack(edit: number, of: record, in: table, failure: StoreError(.encoding("\(error)")))
        }
        let draft = OutboxDraft(
            entityType: Self.typeName(Entity.self), entityID: String(describing: entity.id),
            collectionPath: Entity.collectionPath, kind: .update, method: configuration.updateMethod.rawValue,
            value: bytes, idempotencyKey: options.idempotencyKey, serverValue: serverBytes, etag: record.etag,
            headers: options.headers, timeout: options.timeout)
        let entry: OutboxEntry
        let outcome: OutboxOutcome
        do {
            (entry, outcome) = try await saveInOrder(draft, of: record, outbox: outbox) { entry in
                if let index = record.pendingEdits.firstIndex(where: { $0.number == number }) {
                    record.pendingEdits[index].outboxID = entry.id
                }
            }
        } catch {
            throw takeBack(edit: number, of: record, in: table, failure: error)
        }
        switch outcome {
        case .confirmed(let body, _):
            noteWriteEnded(record)
            // Decoded once: applying the confirmation kept the server's version.
            if let confirmed = record.takeConfirmedValue(of: entry.id) { return confirmed }
            return (try? TetherJSONDecoder().decode(Entity.self, from: body)) ?? record.serverValue ?? entity
        case .failed(let error), .pending(let error):
            noteWriteEnded(record)
            throw error
        }
    }

    /// Takes back an edit that was not saved anywhere (its bytes could not be made, or its transaction failed): the
    /// entity shows what is left (its newest waiting edit, else the server's version), with `failure`.
    ///
    /// - Returns: `failure`, for the caller to throw.
    private func takeBack<Entity: RemoteEntity>(
        edit number: UInt64, of record: EntityState<Entity>, in table: EntityTable<Entity>, failure: StoreError
    ) -> StoreError {
        record.removePendingEdit { $0.number == number }
        record.value = record.pendingEdits.last?.value ?? record.serverValue
        record.status = .failed
        record.writeStatus = record.pendingEdits.isEmpty ? nil : record.writeStatus
        record.error = failure
        table.entityChanged(record)
        return failure
    }

    func createThroughOutbox<Entity: RemoteEntity>(
        _ draft: Entity, outbox: Outbox, options: MutationOptions
    ) async throws(StoreError) -> Entity {
        let table = table(for: Entity.self)
        let bytes: Data
        do {
            bytes = try TetherJSONEncoder().encode(draft)
        } catch {
            throw StoreError(.encoding("\(error)"))
        }
        let record = table.record(for: draft.id)
        editCounter += 1
        let number = editCounter
        record.pendingEdits.append(PendingEdit(number: number, value: draft))
        record.serverValue = nil
        record.value = draft
        record.status = .syncing
        record.writeStatus = .queued
        record.error = nil
        for query in table.queries.values
        where query.definition.includesCreatedEntities && !query.idSet.contains(draft.id) {
            var set = query.idSet
            set.insert(draft.id)
            query.setIDs(query.ids + [draft.id], set: set)
        }
        table.entityChanged(record)
        let entry: OutboxEntry
        let outcome: OutboxOutcome
        do {
            (entry, outcome) = try await saveInOrder(
                OutboxDraft(
                    entityType: Self.typeName(Entity.self), entityID: String(describing: draft.id),
                    collectionPath: Entity.collectionPath, kind: .create, method: "POST", value: bytes,
                    idempotencyKey: options.idempotencyKey, headers: options.headers, timeout: options.timeout),
                of: record, outbox: outbox
            ) { entry in
                if let index = record.pendingEdits.firstIndex(where: { $0.number == number }) {
                    record.pendingEdits[index].outboxID = entry.id
                }
            }
        } catch {
            record.removePendingEdit { $0.number == number }
            record.writeStatus = nil
            record.status = .failed
            record.error = error
            table.entityChanged(record)
            throw error
        }
        switch outcome {
        case .confirmed(let body, _):
            // Decoded once, as for an update.
            if let confirmed = record.takeConfirmedValue(of: entry.id) { return confirmed }
            guard let created = try? TetherJSONDecoder().decode(Entity.self, from: body) else {
                throw StoreError(.encoding("the server's answer to the create could not be read"))
            }
            return created
        case .failed(let error), .pending(let error):
            throw error
        }
    }

    func deleteThroughOutbox<Entity: RemoteEntity>(
        _ type: Entity.Type, id named: Entity.ID, outbox: Outbox, options: MutationOptions
    ) async throws(StoreError) {
        let table = table(for: type)
        let id = table.currentID(named)
        let record = table.record(for: id)
        editCounter += 1
        record.lastWrite = editCounter
        var positions: [(QueryState<Entity>, Int)] = []
        for query in table.queries.values {
            guard let index = query.ids.firstIndex(of: id) else { continue }
            positions.append((query, index))
            var set = query.idSet
            set.remove(id)
            var ids = query.ids
            ids.remove(at: index)
            query.setIDs(ids, set: set)
            query.changed()
        }
        record.status = .syncing
        record.writeStatus = .queued
        record.changed()
        let serverBytes = (try? record.encodedServerValue()) ?? nil
        let entry: OutboxEntry
        let outcome: OutboxOutcome
        do {
            (entry, outcome) = try await saveInOrder(
                OutboxDraft(
                    entityType: Self.typeName(Entity.self), entityID: String(describing: id),
                    collectionPath: Entity.collectionPath, kind: .delete, method: "DELETE", value: nil,
                    idempotencyKey: options.idempotencyKey, serverValue: serverBytes, etag: record.etag,
                    headers: options.headers, timeout: options.timeout),
                of: record, outbox: outbox
            ) { _ in }
        } catch {
            restore(id, at: positions)
            record.status = .failed
            record.writeStatus = nil
            record.error = error
            table.entityChanged(record)
            throw error
        }
        switch outcome {
        case .confirmed:
            noteWriteEnded(record)
        case .failed(let error):
            noteWriteEnded(record)
            if error.httpError?.status?.code == 404 {
                // Not there on the first attempt: it is gone, which is what the user wanted.
                try? await outbox.discard(entry.id)
                record.status = .deleted
                record.value = nil
                table.records.removeValue(forKey: id)
                record.changed()
                return
            }
            restore(id, at: positions)
            table.entityChanged(record)
            throw error
        case .pending(let error):
            noteWriteEnded(record)
            throw error
        }
    }

    private func restore<Entity>(_ id: Entity.ID, at positions: [(QueryState<Entity>, Int)]) {
        for (query, index) in positions where !query.idSet.contains(id) {
            var ids = query.ids
            ids.insert(id, at: min(index, ids.count))
            var set = query.idSet
            set.insert(id)
            query.setIDs(ids, set: set)
        }
    }

    // MARK: - The user's decisions

    /// Sends the entity's failed or conflicting write again (a conflict over the server's current version).
    public func retryWrites<Entity: RemoteEntity>(of state: EntityState<Entity>) async throws(StoreError) {
        guard let outbox = writes else { return }
        let entries = try await outbox.database.outboxEntries(
            type: Self.typeName(Entity.self), entityID: String(describing: state.id))
        guard let head = entries.first else { return }
        try await outbox.retry(head.id)
        if head.state != .queued { outboxStatus.failedCount = max(0, outboxStatus.failedCount - 1) }
        state.writeStatus = .queued
        state.status = .syncing
        state.error = nil
        state.conflict = nil
        if head.kind == .delete {
            // A refused delete brought the entity back into the lists; sent again, it leaves them again.
            let table = table(for: Entity.self)
            for query in table.queries.values where query.idSet.contains(state.id) {
                var set = query.idSet
                set.remove(state.id)
                query.setIDs(query.ids.filter { $0 != state.id }, set: set)
                query.changed()
            }
        }
        state.changed()
        switch await sendInOrder(head.id, of: state, outbox: outbox) {
        case .confirmed: sendWaitingWrites()
        case .failed(let error), .pending(let error): throw error
        }
    }

    /// Drops every write of the entity that waits in the outbox; it shows the server's version again (a created
    /// entity that never reached the server leaves the lists).
    public func discardWrites<Entity: RemoteEntity>(of state: EntityState<Entity>) async throws(StoreError) {
        guard let outbox = writes else { return }
        let entries = try await outbox.database.outboxEntries(
            type: Self.typeName(Entity.self), entityID: String(describing: state.id))
        for entry in entries.reversed() { try await outbox.discard(entry.id) }
        sendWaitingWrites()
    }
}
