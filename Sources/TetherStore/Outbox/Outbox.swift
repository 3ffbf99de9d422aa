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
    /// How many times, and how far apart, a send tries an entry before it reports it as pending.
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
    /// Entries taken when they were saved (``saveAndSend(_:retries:saved:unrecorded:)``) and not yet sent once: the
    /// other senders of this process leave them alone.
    private nonisolated let reserved = ReservedEntries()

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
    /// - Returns: the entry, and the outcome of its first send (with the event that outcome makes) when it was
    ///   taken; `nil` when it waits behind an earlier write of its entity.
    ///
    /// The send runs in the caller's task: a caller cancelled meanwhile makes it a transient failure, and the entry
    /// stays queued for the next pass (same `Idempotency-Key`).
    ///
    /// - Parameters:
    ///   - unrecorded: receives the entry's id inside its transaction, so that a reader of the outbox meanwhile can
    ///     tell a write whose caller has yet to record it (the caller removes it once recorded).
    @concurrent nonisolated func saveAndSend(
        _ draft: OutboxDraft, retries: Retries, saved: SaveGate, unrecorded: ReservedEntries
    ) async throws(StoreError) -> (entry: OutboxEntry, sent: (outcome: OutboxOutcome, event: OutboxEvent?)?) {
        let reserved = reserved
        let database = database
        let result: Result<(OutboxEntry, (OutboxOutcome, OutboxEvent?)?), StoreError>
        let committed: (OutboxEntry, ClaimedEntry?)
        do throws(StoreError) {
            committed = try await database.enqueueClaiming(
                draft,
                reserve: { id, claimed in
                    unrecorded.ids.withLock { _ = $0.insert(id) }
                    if claimed { reserved.ids.withLock { _ = $0.insert(id) } }
                },
                then: { entry, claimed in (entry, claimed) })
            saved.open()
            if let claimed = committed.1 {
                let sent = await self.sendClaimed(claimed, retries: retries)
                result = .success((committed.0, sent))
            } else {
                result = .success((committed.0, nil))
            }
        } catch {
            saved.open()
            result = .failure(error)
        }
        switch result {
        case .success(let value): return (value.0, value.1.map { (outcome: $0.0, event: $0.1) })
        case .failure(let error): throw error
        }
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
            guard let delay = Self.delay(before: 2, retries: retries, retryAfter: retryAfter) else {
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
                guard let delay = Self.delay(before: attempt + 1, retries: retries, retryAfter: retryAfter) else {
                    return .pending(failure)
                }
                do { try await Task.sleep(for: delay) } catch { return .pending(failure) }
            }
        }
    }

    /// The wait before attempt `attempt` (2 or later), or `nil` when `retries` allows no more: the attempts are
    /// spent, the task is cancelled, or the server asked for a longer wait than the longest allowed.
    private static func delay(before attempt: Int, retries: Retries, retryAfter: Duration?) -> Duration? {
        if attempt > retries.maximumAttempts || Task.isCancelled { return nil }
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
        if reserved.ids.withLock({ $0.contains(id) }) {
            return .skipped(StoreError(pending: .database("the write is about to be sent by this process")))
        }
        let task = Task { await self.performAttempt(id, announces: announces) }
        inFlight[id] = task
        let result = await task.value
        inFlight[id] = nil
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
            let status = error.status?.code
            if entry.kind == .delete && status == 404 && entry.attempts > 1 {
                return await confirm(entry, body: Data(), etag: nil, emits: emits)
            }
            let storeError = StoreError(.http(error))
            if Self.isTransient(error) {
                let pending = StoreError(pending: .http(error))
                try? await database.recordFailure(entry, state: .queued, message: error.message, status: status)
                if emits { await onEvent?(.transient(entry, pending)) }
                return .transient(entry, pending, retryAfter: Self.retryAfter(error))
            }
            let state: OutboxEntry.State = status == 412 ? .conflict : .failed
            let failure = status == 412 ? StoreError(.conflict) : storeError
            var failed = entry
            failed.state = state
            failed.lastError = error.message
            failed.lastStatus = status
            try? await database.recordFailure(entry, state: state, message: error.message, status: status)
            if emits { await onEvent?(.failed(failed, failure)) }
            return .failed(failed, failure)
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
        switch error.kind {
        case .transport, .timeout, .cancelled: return true
        case .status(let failure): return [408, 425, 429].contains(failure.status.code) || failure.status.code >= 500
        default: return false
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
