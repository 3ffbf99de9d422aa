public import Foundation
import TetherSync

/// Sends the writes in a ``StoreDatabase``'s outbox, each exactly once as far as the server honours
/// `Idempotency-Key`, in order per entity, and records every outcome in the database.
///
/// ```swift
/// import Foundation
/// import TetherStore
///
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
/// let database = try StoreDatabase(url: StoreDatabase.defaultURL(for: client.baseURL)!)
/// let outbox = Outbox(database: database, client: client)
/// for entry in try await outbox.entries() { print(entry.kind, entry.path) }
/// let report = await outbox.sendAll()          // what was sent, what failed, what still waits
/// ```
///
/// What a failure does:
/// - transport errors, timeouts, 408, 425, 429 and 5xx are transient: the entry stays queued and is sent again
///   later with the same key (after `Retry-After` when the server gives one). A write whose answer was lost is
///   resolved that way: the server replays its first answer.
/// - A `DELETE` answered 404 after an earlier attempt is done (the earlier attempt deleted it).
/// - 412 marks the entry as a conflict; any other 4xx as failed. Either stops the entity's later writes until
///   ``retry(_:)`` or ``discard(_:)``; nothing is dropped on its own.
///
/// ``EntityStore`` uses an outbox for its mutations when it has a database; command-line tools use one directly.
///
/// - Thread safety: an actor; the database and the client do their work elsewhere.
public actor Outbox {
    /// How many times, and how far apart, a send tries an entry before it reports it as pending. A refused
    /// connection (``/TetherHTTP/HTTPError/isConnectionRefused``: nothing listens) ends the send at once.
    public struct Retries: Sendable, Hashable {
        /// Attempts in all (the first included).
        public var maximumAttempts: Int
        /// The wait before the second attempt; it doubles each time.
        public var initialDelay: Duration
        /// The longest wait between attempts (a longer `Retry-After` ends the send: the entry stays queued).
        public var maximumDelay: Duration

        public init(
            maximumAttempts: Int = 4, initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(5)
        ) {
            self.maximumAttempts = max(1, maximumAttempts)
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }

        /// One attempt, no waiting.
        public static let once = Retries(maximumAttempts: 1)
    }

    /// What ``sendAll(retries:)`` did.
    public struct Report: Sendable {
        /// The entries the server confirmed, and its answers.
        public var confirmed: [(entry: OutboxEntry, body: Data)] = []
        /// The entries the server refused for good (kept as failed or conflict).
        public var failed: [(entry: OutboxEntry, error: StoreError)] = []
        /// The entries still waiting (the server could not be reached, or held by another process).
        public var pending: [(entry: OutboxEntry, error: StoreError?)] = []
    }

    /// The database whose outbox this sends.
    public nonisolated let database: StoreDatabase
    /// The client the writes go through.
    public nonisolated let client: HTTPClient

    /// Told after each attempt's outcome is recorded; ``EntityStore`` applies it to its states.
    nonisolated let onEvent: (@Sendable (OutboxEvent) async -> Void)?
    /// Attempts running now, so that two senders in this process (a mutation and the background loop) share one
    /// attempt instead of sending the same entry twice at once.
    private var inFlight: [Int64: Task<Attempt, Never>] = [:]
    /// Entries this connection is sending or about to send (taken at their saving, waiting in a send chain, or in
    /// an attempt): every other sender over the connection leaves them alone. The database's, shared by every
    /// outbox over it (they all lease under one name).
    private nonisolated var reserved: ReservedEntries { database.takenEntries }
    /// The entities whose updates this connection sends back to back (the database's, shared by every outbox
    /// over it).
    private nonisolated var chains: SendChains { database.sendChains }

    public init(database: StoreDatabase, client: HTTPClient) {
        self.init(database: database, client: client, onEvent: nil)
    }

    init(database: StoreDatabase, client: HTTPClient, onEvent: (@Sendable (OutboxEvent) async -> Void)?) {
        self.database = database
        self.client = client
        self.onEvent = onEvent
    }

    /// Saves a write in the outbox, before anything is sent: `value` is the entity as the user left it (JSON; for
    /// an update it may hold only the fields to change), `nil` for a delete. For a create, an empty `id` lets the
    /// database choose a temporary id below every one it holds (in the same transaction, so concurrent processes
    /// never share one); the entry's ``OutboxEntry/entityID`` says which. The body is made at the first
    /// attempt: a create sends `value` without its `id`, an update the fields that differ from the server's version
    /// the database knows (all of them when it knows none).
    ///
    /// - Returns: the entry, with the `Idempotency-Key` all of its attempts send.
    public nonisolated func enqueue<Entity: RemoteEntity>(
        type: Entity.Type, id: String, kind: OutboxEntry.Kind, value: Data?, method: String? = nil
    ) async throws(StoreError) -> OutboxEntry {
        let method =
            method
            ?? {
                switch kind {
                case .create: "POST"
                case .update: "PATCH"
                case .delete: "DELETE"
                }
            }()
        return try await database.enqueue(
            OutboxDraft(
                entityType: EntityStore.typeName(type), entityID: id, collectionPath: Entity.collectionPath, kind: kind,
                method: method, value: value))
    }

    /// Saves a write and, when no earlier write of its entity waits, sends it, all in one task off the caller's
    /// thread: the transaction runs on that task's thread, `saved` is opened right after the commit (from that
    /// thread), and the send follows there with no hop between. The caller is resumed once, at the end.
    ///
    /// An update saved while the entity's earlier updates are being sent by this process joins their
    /// ``SendChains`` chain: it is sent as soon as the one before it is confirmed, by the task that sent that one,
    /// and the caller is resumed right after the commit with the link to await for its outcome.
    ///
    /// - Returns: the entry; the outcome of its first send (with the event that outcome makes) when it was taken;
    ///   the link whose ``ChainLink/result()`` gives its outcome when it joined a chain (`nil` there: the chain
    ///   stopped first, send it the ordinary way after calling ``releaseChained(_:)``). Neither when it waits
    ///   behind an earlier write of its entity.
    ///
    /// The send runs in the caller's task: a caller cancelled meanwhile makes it a transient failure, and the entry
    /// stays queued for the next pass (same `Idempotency-Key`).
    ///
    /// - Parameters:
    ///   - claims: `false` saves the write without taking it (no attempt, no chain): it waits for the next pass.
    ///   - unrecorded: receives the entry's id inside its transaction, so that a reader of the outbox meanwhile can
    ///     tell a write whose caller has yet to record it (the caller removes it once recorded).
    @concurrent nonisolated func saveAndSend(
        _ draft: OutboxDraft, retries: Retries, claims: Bool = true, saved: Latch<Void>, unrecorded: ReservedEntries
    ) async throws(StoreError) -> (entry: OutboxEntry, sent: ChainLink.Outcome?, link: ChainLink?) {
        let reserved = reserved
        let database = database
        let chains = chains
        let key = SendChains.key(type: draft.entityType, id: draft.entityID)
        // Set inside the transaction: how the write joined its entity's chain, or the token of the chain it begins.
        let chain = Locked<(joined: SendChains.Joined?, began: Int?, id: Int64?)>((nil, nil, nil))
        let committed: (entry: OutboxEntry, claimed: ClaimedEntry?, chained: Bool)
        do throws(StoreError) {
            committed = try await database.enqueueClaiming(
                draft, claims: claims,
                joinChain: { eligible in
                    let joined = chains.join(key, eligible: eligible)
                    chain.withLock { $0.joined = joined }
                    return joined != nil
                },
                reserve: { id, claimed in
                    chain.withLock { $0.id = id }
                    unrecorded.ids.withLock { _ = $0.insert(id) }
                    guard claimed else { return }
                    reserved.ids.withLock { _ = $0.insert(id) }
                    // First of its entity: an update begins the entity's chain, before the entity's next write can
                    // be saved (it may join); any other write ends the chain left from before.
                    if chain.withLock({ $0.joined == nil }) {
                        if draft.kind == .update {
                            let token = chains.begin(key)
                            chain.withLock { $0.began = token }
                        } else {
                            _ = chains.join(key, eligible: false)
                        }
                    }
                },
                then: { entry, claimed, chained in (entry, claimed, chained) })
        } catch {
            // Rolled back: the entry's number may go to the next one saved, which must not look taken.
            if let id = chain.withLock({ $0.id }) {
                _ = unrecorded.ids.withLock { $0.remove(id) }
                _ = reserved.ids.withLock { $0.remove(id) }
            }
            switch chain.withLock({ $0.joined }) {
            case .link(let link)?:
                chains.remove(link, key: key)
                link.committed(nil)
            case .restart(let token, _, _)?:
                chains.stop(key, token: token)
            case nil:
                if let token = chain.withLock({ $0.began }) { chains.stop(key, token: token) }
            }
            saved.set(())
            throw error
        }
        let (joined, began) = chain.withLock { ($0.joined, $0.began) }
        switch (joined, committed.claimed) {
        case (.link(let link)?, let claimed?):
            link.committed(claimed)
            saved.set(())
            return (committed.entry, nil, link)
        case (.restart(let token, let server, let etag)?, let claimed?):
            saved.set(())
            let sent = await sendChained(claimed, over: server, etag: etag, retries: retries)
            continueChain(key, token: token, after: sent, retries: retries)
            return (committed.entry, sent, nil)
        case (_, let claimed?):
            saved.set(())
            let sent = await sendClaimed(claimed, retries: retries)
            if let began { continueChain(key, token: began, after: sent, retries: retries) }
            return (committed.entry, sent, nil)
        case (_, nil):
            saved.set(())
            return (committed.entry, nil, nil)
        }
    }

    /// After a chained entity's write was sent: sends the next one that waits from a task of its own, or lets the
    /// chain rest (none waits) or ends it (this one was not confirmed with the server's version).
    private nonisolated func continueChain(
        _ key: String, token: Int, after sent: ChainLink.Outcome, retries: Retries
    ) {
        guard let next = nextLink(key, token: token, after: sent) else { return }
        Task.detached {
            await self.runChain(
                key, token: token, from: next.link, over: next.server, etag: next.etag, retries: retries)
        }
    }

    /// The chain's next link after `sent`, with the answer to make its request over; `nil` when none waits (the
    /// chain rests with that answer) or when `sent` was not confirmed with the server's version (the chain ends).
    private nonisolated func nextLink(
        _ key: String, token: Int, after sent: ChainLink.Outcome
    ) -> (link: ChainLink, server: Data, etag: String?)? {
        guard case .confirmed = sent.outcome, case .confirmed(let confirmation)? = sent.event,
            let server = confirmation.serverValue
        else {
            chains.stop(key, token: token)
            return nil
        }
        guard let link = chains.next(key, token: token, server: server, etag: confirmation.etag) else { return nil }
        return (link, server, confirmation.etag)
    }

    /// Sends the links of a chain one after another, each over the server's version the previous one's answer
    /// gave, until none waits or one is not confirmed.
    private nonisolated func runChain(
        _ key: String, token: Int, from first: ChainLink, over server: Data, etag: String?, retries: Retries
    ) async {
        var link = first
        var server = server
        var etag = etag
        while true {
            guard let claimed = await link.entry() else {
                link.finish(nil)
                chains.stop(key, token: token)
                return
            }
            let sent = await sendChained(claimed, over: server, etag: etag, retries: retries)
            link.finish(sent)
            guard let next = nextLink(key, token: token, after: sent) else { return }
            (link, server, etag) = next
        }
    }

    /// Makes a chained entry's request over the server's version `server` (the previous write's answer), records
    /// it a moment later, and sends it as ``sendClaimed(_:retries:)`` does.
    private nonisolated func sendChained(
        _ claimed: ClaimedEntry, over server: Data, etag: String?, retries: Retries
    ) async -> ChainLink.Outcome {
        let request: (body: Data?, ifMatch: String?)
        do {
            request = try StoreDatabase.requestBody(for: claimed.entry, over: server, etag: etag)
        } catch {
            // Cannot happen for an entry saved from an encoded entity; the ordinary way reports it.
            _ = reserved.ids.withLock { $0.remove(claimed.entry.id) }
            return (.pending(StoreError(pending: .encoding("\(error)"))), nil)
        }
        database.preparedSoon(claimed.entry, body: request.body, ifMatch: request.ifMatch)
        var entry = claimed.entry
        entry.attempts += 1
        return await sendClaimed(
            ClaimedEntry(
                entry: entry, body: request.body, ifMatch: request.ifMatch, headers: claimed.headers,
                timeout: claimed.timeout),
            retries: retries)
    }

    /// Lets go of a chained entry whose chain stopped before sending it: the other senders of this process, and
    /// other processes, may take it.
    nonisolated func releaseChained(_ entry: OutboxEntry) {
        _ = reserved.ids.withLock { $0.remove(entry.id) }
        database.releaseSoon(entry)
    }

    /// Sends an entry taken by ``saveAndSend(_:retries:saved:unrecorded:)``, retrying transient failures within
    /// `retries`.
    private nonisolated func sendClaimed(_ claimed: ClaimedEntry, retries: Retries) async -> (
        outcome: OutboxOutcome, event: OutboxEvent?
    ) {
        let id = claimed.entry.id
        // Recorded a moment later: the caller (the store, waiting for this outcome) learns it one commit sooner.
        let first = await attempt(claimed, emits: false, confirmsSoon: true)
        _ = reserved.ids.withLock { $0.remove(id) }
        switch first {
        case .confirmed(let confirmation, let body):
            return (.confirmed(body: body, etag: confirmation.etag), .confirmed(confirmation))
        case .failed(let entry, let error):
            return (.failed(error), .failed(entry, error))
        case .skipped(let error):
            return (.pending(error), nil)
        case .transient(let entry, let failure, let retryAfter):
            await onEvent?(.transient(entry, failure))
            guard let delay = Self.delay(before: 2, retries: retries, after: failure, retryAfter: retryAfter) else {
                return (.pending(failure), nil)
            }
            do { try await Task.sleep(for: delay) } catch { return (.pending(failure), nil) }
            return (await sendOne(id, retries: retries, announces: false, firstAttempt: 2), nil)
        }
    }

    /// The entries waiting, oldest first.
    public func entries() async throws(StoreError) -> [OutboxEntry] {
        try await database.outboxEntries()
    }

    /// Sends entry `id`, after the earlier writes of the same entity that still wait (each with `retries`),
    /// retrying transient failures within `retries`. Another process holding an entry, or an earlier write that
    /// fails or stays pending, leaves this one queued.
    ///
    /// - Returns: the outcome; ``OutboxOutcome/pending(_:)`` when it is still queued.
    public func send(_ id: Int64, retries: Retries = Retries()) async -> OutboxOutcome {
        if let entries = try? await database.outboxEntries(sameEntityAs: id) {
            for earlier in entries where earlier.id < id {
                guard earlier.state == .queued else {
                    return .pending(StoreError(pending: .database("an earlier change of this entity was refused")))
                }
                switch await sendOne(earlier.id, retries: retries) {
                case .confirmed: continue
                case .failed(let error), .pending(let error):
                    return .pending(StoreError(pending: error.kind))
                }
            }
        }
        return await sendOne(id, retries: retries)
    }

    /// Sends entry `id` alone (it must be its entity's first, else it stays queued), retrying transient failures
    /// within `retries`. For callers that send an entity's writes in order themselves (``EntityStore``).
    func sendOne(_ id: Int64, retries: Retries, announces: Bool = true, firstAttempt: Int = 1) async -> OutboxOutcome {
        var attempt = firstAttempt - 1
        while true {
            attempt += 1
            let result = await attemptOnce(id, announces: announces)
            switch result {
            case .confirmed(let confirmation, let body):
                return .confirmed(body: body, etag: confirmation.etag)
            case .failed(_, let error):
                return .failed(error)
            case .skipped(let error):
                return .pending(error)
            case .transient(_, let failure, let retryAfter):
                let next = attempt + 1
                guard let delay = Self.delay(before: next, retries: retries, after: failure, retryAfter: retryAfter)
                else { return .pending(failure) }
                do { try await Task.sleep(for: delay) } catch { return .pending(failure) }
            }
        }
    }

    /// The wait before attempt `attempt` (2 or later) after `failure`, or `nil` when no attempt should follow now:
    /// the attempts are spent, the task is cancelled, the server asked for a longer wait than the longest allowed,
    /// or the connection was refused (nothing listens: sending again at once cannot help, and the caller learns at
    /// once that the write waits; the background loop tries it again later).
    private static func delay(
        before attempt: Int, retries: Retries, after failure: StoreError, retryAfter: Duration?
    ) -> Duration? {
        if attempt > retries.maximumAttempts || Task.isCancelled { return nil }
        if failure.httpError?.isConnectionRefused == true { return nil }
        var delay = retries.initialDelay * (1 << min(attempt - 2, 20))
        if delay > retries.maximumDelay { delay = retries.maximumDelay }
        if let retryAfter {
            if retryAfter > retries.maximumDelay { return nil }
            delay = max(delay, retryAfter)
        }
        return delay
    }

    /// Sends every entry that can be sent, in order, each entity's writes one after another; an entity whose write
    /// fails for good or stays pending keeps its later writes queued.
    public func sendAll(retries: Retries = Retries()) async -> Report {
        var report = Report()
        var blocked = Set<String>()
        var seen = Set<Int64>()
        while !Task.isCancelled {
            let entries: [OutboxEntry]
            do {
                entries = try await database.sendableEntries()
            } catch {
                return report
            }
            let next = entries.filter {
                !seen.contains($0.id) && !blocked.contains($0.entityType + "\u{0}" + $0.entityID)
            }
            if next.isEmpty { break }
            for entry in next {
                seen.insert(entry.id)
                let outcome = await sendOne(entry.id, retries: retries)
                switch outcome {
                case .confirmed(let body, _):
                    report.confirmed.append((entry, body))
                case .failed(let error):
                    report.failed.append((entry, error))
                    blocked.insert(entry.entityType + "\u{0}" + entry.entityID)
                case .pending(let error):
                    report.pending.append((entry, error))
                    blocked.insert(entry.entityType + "\u{0}" + entry.entityID)
                }
            }
        }
        // Entries behind a blocked one, and those held by another process, are still waiting.
        if let all = try? await database.outboxEntries() {
            let reported = Set(report.failed.map(\.entry.id) + report.pending.map(\.entry.id))
            for entry in all where entry.state == .queued && !reported.contains(entry.id) {
                report.pending.append((entry, nil))
            }
        }
        return report
    }

    /// Puts a failed or conflicting entry back in the queue.
    public func retry(_ id: Int64) async throws(StoreError) {
        try await database.retry(id)
    }

    /// Drops an entry; the entity's local value goes back to what is left (see ``StoreDatabase``).
    public func discard(_ id: Int64) async throws(StoreError) {
        let result = try await database.discard(id)
        if let (entry, row) = result { await onEvent?(.discarded(entry, row)) }
    }

    // MARK: - One attempt

    enum Attempt: Sendable {
        case confirmed(Confirmation, body: Data)
        case failed(OutboxEntry, StoreError)
        case transient(OutboxEntry, StoreError, retryAfter: Duration?)
        case skipped(StoreError)
    }

    /// Sends entry `id` once, or waits for the attempt already running for it.
    func attemptOnce(_ id: Int64, announces: Bool = true) async -> Attempt {
        if let running = inFlight[id] { return await running.value }
        guard reserved.ids.withLock({ $0.insert(id).inserted }) else {
            return .skipped(StoreError(pending: .database("the write is being sent by this process")))
        }
        let task = Task { await self.performAttempt(id, announces: announces) }
        inFlight[id] = task
        let result = await task.value
        inFlight[id] = nil
        _ = reserved.ids.withLock { $0.remove(id) }
        return result
    }

    /// Claims entry `id`, sends it once with its key, and records the outcome.
    private func performAttempt(_ id: Int64, announces: Bool) async -> Attempt {
        let claimed: ClaimedEntry
        do {
            guard let taken = try await database.claim(id) else {
                return .skipped(
                    StoreError(
                        pending: .database("the write is being sent by another process, or waits behind another")))
            }
            claimed = taken
        } catch {
            return .skipped(error)
        }
        if announces { await onEvent?(.sending(claimed.entry)) }
        return await attempt(claimed, emits: true)
    }

    /// Sends a claimed entry once with its key and records the outcome; `emits`: tells the event handler. With
    /// `confirmsSoon`, an update or delete the server confirmed is recorded a moment later
    /// (``StoreDatabase/confirmSoon(_:body:etag:at:)``): the caller learns the outcome one commit sooner.
    private nonisolated func attempt(
        _ claimed: ClaimedEntry, emits: Bool, confirmsSoon: Bool = false
    ) async -> Attempt {
        let entry = claimed.entry
        var request = Request<Data>(path: entry.path, method: HTTPMethod(rawValue: entry.method))
        request.headers.set("Idempotency-Key", entry.idempotencyKey)
        if let ifMatch = claimed.ifMatch { request.headers.set("If-Match", ifMatch) }
        for (name, value) in claimed.headers { request.headers.add(name, value) }
        if let timeout = claimed.timeout { request.timeout = timeout }
        if let body = claimed.body { request.body = .data(body, contentType: "application/json") }
        request.retryPolicy = .never
        let result: Result<Response<Data>, HTTPError> = await Self.perform(request, client: client)
        switch result {
        case .success(let response):
            if confirmsSoon, entry.kind != .create {
                let confirmation = database.confirmSoon(entry, body: response.data, etag: response.headers["ETag"])
                if emits { await onEvent?(.confirmed(confirmation)) }
                return .confirmed(confirmation, body: response.data)
            }
            return await confirm(entry, body: response.data, etag: response.headers["ETag"], emits: emits)
        case .failure(let error):
            // What the answer does to the write is the write queue's decision (``WriteQueue``); this records it.
            var queue = WriteQueue.sending(entry)
            let status = error.status?.code
            switch queue.apply(.answered(WriteQueue.Answer(error))).first {
            case .remove?:
                // A DELETE answered 404 after an earlier attempt: that attempt deleted it.
                return await confirm(entry, body: Data(), etag: nil, emits: emits)
            case .record(let write)? where write.phase == .waitingForNetwork:
                let pending = StoreError(pending: .http(error))
                try? await database.recordFailure(entry, state: .queued, message: error.message, status: status)
                if emits { await onEvent?(.transient(entry, pending)) }
                return .transient(entry, pending, retryAfter: Self.retryAfter(error))
            case .record(let write)?:
                let state = WriteQueue.state(of: write.phase)
                let failure = state == .conflict ? StoreError(.conflict) : StoreError(.http(error))
                var failed = entry
                failed.state = state
                failed.lastError = error.message
                failed.lastStatus = status
                try? await database.recordFailure(entry, state: state, message: error.message, status: status)
                if emits { await onEvent?(.failed(failed, failure)) }
                return .failed(failed, failure)
            case .adoptID?, nil:
                // Not an answer to an attempt on its way (cannot happen for a failure): leave the entry queued.
                return .transient(entry, StoreError(pending: .http(error)), retryAfter: nil)
            }
        }
    }

    private nonisolated func confirm(_ entry: OutboxEntry, body: Data, etag: String?, emits: Bool) async -> Attempt {
        do {
            let confirmation = try await database.confirm(entry, body: body, etag: etag)
            if emits { await onEvent?(.confirmed(confirmation)) }
            return .confirmed(confirmation, body: body)
        } catch {
            // The server has the write but the database could not record it: the entry stays and its next
            // attempt, with the same key, is answered by the server's replay.
            return .transient(entry, error, retryAfter: nil)
        }
    }

    @concurrent
    private static func perform(_ request: Request<Data>, client: HTTPClient) async -> Result<Response<Data>, HTTPError>
    {
        do throws(HTTPError) {
            return .success(try await client.send(request))
        } catch {
            return .failure(error)
        }
    }

    /// Whether sending again may succeed: no answer, a timeout, a cancellation, or a status that says "later"
    /// (408, 425, 429, 5xx).
    public static func isTransient(_ error: HTTPError) -> Bool {
        switch WriteQueue.Answer(error) {
        case .later, .unreachable: true
        case .success, .notFound, .conflict, .refused: false
        }
    }

    /// The `Retry-After` of a failed answer, in seconds.
    static func retryAfter(_ error: HTTPError) -> Duration? {
        guard case .status(let failure) = error.kind, let text = failure.headers["Retry-After"],
            let seconds = Int(text.trimmingCharacters(in: .whitespaces))
        else { return nil }
        return .seconds(max(0, seconds))
    }
}

/// A set of entry numbers shared across threads: entries taken at their saving whose first send has not ended,
/// or entries saved whose caller has yet to record them.
final class ReservedEntries: Sendable {
    /// The ids, behind a lock: read and written from any thread.
    let ids = Locked<Set<Int64>>([])
}

/// What happened to an entry, for the store's states.
enum OutboxEvent: Sendable {
    case sending(OutboxEntry)
    case confirmed(Confirmation)
    case transient(OutboxEntry, StoreError)
    case failed(OutboxEntry, StoreError)
    case discarded(OutboxEntry, StoredEntity?)
}

extension WriteQueue.Answer {
    /// The answer a failed request stands for: its status, or no answer (a refused connection was never written; a
    /// reset, a timeout or a cancellation may have been). A failure before anything was sent (an invalid request,
    /// an interceptor that failed) is refused for good: sending it again would fail the same way.
    init(_ error: HTTPError) {
        switch error.kind {
        case .status(let failure): self.init(status: failure.status.code)
        case .transport: self = .unreachable(written: !error.isConnectionRefused)
        case .timeout, .cancelled: self = .unreachable(written: true)
        default: self = .refused(status: error.status?.code ?? 0)
        }
    }
}
