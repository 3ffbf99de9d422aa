/// The writes of one entity on their way to the server, as a pure state machine: no SQLite, no HTTP, no actors, no
/// clock (time comes in as events: a lease expiring, a restart). The outbox's decisions are made here (what an
/// answer does to a write, which write goes next, what the screens show) and carried out by the I/O around it
/// (``Outbox`` and ``StoreDatabase`` record and send, ``EntityTable`` shows).
///
/// Invariants, which every transition keeps (checked for every state and event, and every pair of events, by
/// `WriteQueueTests`):
/// 1. One write in flight per entity: at most one is ``Phase/sending``, and it is the oldest.
/// 2. Order kept: a write is sent only when every write made before it has left the queue.
/// 3. A key never changes: a write keeps its `Idempotency-Key` across attempts and restarts.
/// 4. Nothing dropped without a user action: a write leaves the queue only when the server confirmed it (a 2xx,
///    or a 404 to a `DELETE` after an earlier attempt, which that attempt made) or when the user discards it.
/// 5. A temporary id is replaced everywhere once: a confirmed create gives its server id to every later write of
///    the entity, and never again.
struct WriteQueue: Hashable, Sendable {
    /// Where a write stands.
    enum Phase: Hashable, Sendable {
        /// Saved, waiting its turn.
        case queued
        /// An attempt is on its way.
        case sending
        /// The last attempt got no answer, or "later" (408, 425, 429, 5xx); it is sent again.
        case waitingForNetwork
        /// Refused for good (a 4xx); it and the writes behind it wait for the user.
        case failed
        /// The server's version changed meanwhile (409, 412); it waits for the user.
        case conflict
    }

    /// One write of the entity.
    struct Write: Hashable, Sendable {
        /// Its number in the outbox: the order writes were made in.
        var number: Int64
        var kind: OutboxEntry.Kind
        /// The `Idempotency-Key` every attempt sends.
        let key: String
        /// The entity's id the write goes to (a temporary id until its create is confirmed).
        var entityID: String
        var phase: Phase = .queued
        /// Attempts made (each sent, or at least started).
        var attempts = 0
    }

    /// What the server (or the network) said to an attempt.
    enum Answer: Hashable, Sendable {
        /// A 2xx; for a create, the id the server gave.
        case success(serverID: String?)
        /// 404.
        case notFound
        /// 409 or 412: the server's version changed.
        case conflict(status: Int)
        /// Any other 4xx: refused for good.
        case refused(status: Int)
        /// 408, 425, 429 or 5xx: try again later.
        case later(status: Int)
        /// No answer: the request failed before it was written (`written == false`: a refused connection, nothing
        /// sent) or after (a reset, a timeout: the server may have applied it).
        case unreachable(written: Bool)

        /// The answer an HTTP status stands for.
        init(status: Int, serverID: String? = nil) {
            switch status {
            case 200..<300: self = .success(serverID: serverID)
            case 404: self = .notFound
            case 409, 412: self = .conflict(status: status)
            case 408, 425, 429: self = .later(status: status)
            case 500...: self = .later(status: status)
            default: self = .refused(status: status)
            }
        }
    }

    /// What happens to the queue.
    enum Event: Hashable, Sendable {
        /// The user made a write (a create, an update or a delete).
        case made(Write)
        /// An attempt of the oldest write starts.
        case sendStarted
        /// The answer to the attempt on its way.
        case answered(Answer)
        /// The lease of the attempt on its way ran out (its sender died): it is queued again.
        case leaseExpired
        /// The process started again: an attempt that was on its way is queued again (it may have reached the
        /// server; its key makes the next attempt safe).
        case restarted
        /// The user sends the refused or conflicting write again (for a conflict, "keep mine").
        case retry
        /// The user drops every write of the entity (for a conflict, "take the server's").
        case discard
    }

    /// What the I/O around the queue does after an event.
    enum Effect: Hashable, Sendable {
        /// Record the write's new phase and attempts.
        case record(Write)
        /// The write left the queue: remove it (confirmed, or discarded).
        case remove(Write)
        /// A confirmed create's server id: every later write of the entity goes there now.
        case adoptID(from: String, to: String)
    }

    /// The entity's writes, oldest first.
    private(set) var writes: [Write] = []

    /// The write to send next: the oldest, when it is queued or waiting for the network; `nil` while one is on its
    /// way, or the oldest waits for the user, or nothing waits.
    var next: Write? {
        guard let head = writes.first, head.phase == .queued || head.phase == .waitingForNetwork else { return nil }
        return head
    }

    /// What screens show for the entity (``EntityState/writeStatus``): the oldest write's phase, `nil` when nothing
    /// waits. While `offline`, an attempt on its way (a probe) keeps showing "waiting for the network".
    func shownPhase(offline: Bool = false) -> Phase? {
        guard let head = writes.first else { return nil }
        if head.phase == .sending && offline { return .waitingForNetwork }
        return head.phase
    }

    /// An empty queue: nothing waits.
    init() {}

    /// A queue as the outbox recorded it: the entity's writes oldest first, each in the phase its record stands for
    /// (``phase(of:)``), and the oldest ``Phase/sending`` when `headIsInFlight` (an attempt whose lease a live
    /// process holds: another sender's, or this process's own send still running).
    ///
    /// The records cannot say more than this: a later write leased by a send chain is not on its way until the
    /// write before it is answered, so it is queued here.
    init(recorded writes: [Write], headIsInFlight: Bool) {
        self.writes = writes.map { write in
            var write = write
            if write.phase == .sending || write.phase == .waitingForNetwork { write.phase = .queued }
            return write
        }
        if headIsInFlight, self.writes.first?.phase == .queued { self.writes[0].phase = .sending }
    }

    /// A queue holding one write whose attempt is on its way: what the outbox knows of an entry when its answer
    /// comes (the entity's later writes wait behind it and play no part in what the answer does to it).
    static func sending(_ entry: OutboxEntry) -> WriteQueue {
        var queue = WriteQueue()
        queue.writes = [
            Write(
                number: entry.id, kind: entry.kind, key: entry.idempotencyKey, entityID: entry.entityID,
                phase: .sending,
                attempts: max(1, entry.attempts))
        ]
        return queue
    }

    /// Applies `event`, returning what to record. An event that does not apply in the current state (an answer with
    /// no attempt on its way, a retry with nothing refused) changes nothing and returns no effect.
    mutating func apply(_ event: Event) -> [Effect] {
        switch event {
        case .made(var write):
            write.phase = .queued
            write.attempts = 0
            if let last = writes.last, write.number <= last.number { return [] }
            writes.append(write)
            return [.record(write)]
        case .sendStarted:
            guard var head = next else { return [] }
            head.phase = .sending
            head.attempts += 1
            writes[0] = head
            return [.record(head)]
        case .answered(let answer):
            guard var head = writes.first, head.phase == .sending else { return [] }
            switch answer {
            case .success(let serverID):
                writes.removeFirst()
                var effects: [Effect] = [.remove(head)]
                if head.kind == .create, let serverID, serverID != head.entityID {
                    let temporary = head.entityID
                    for index in writes.indices where writes[index].entityID == temporary {
                        writes[index].entityID = serverID
                    }
                    effects.append(.adoptID(from: temporary, to: serverID))
                }
                return effects
            case .notFound where head.kind == .delete && head.attempts > 1:
                // An earlier attempt deleted it; its answer was lost.
                writes.removeFirst()
                return [.remove(head)]
            case .notFound, .refused:
                head.phase = .failed
            case .conflict:
                head.phase = .conflict
            case .later, .unreachable:
                head.phase = .waitingForNetwork
            }
            writes[0] = head
            return [.record(head)]
        case .leaseExpired, .restarted:
            guard var head = writes.first, head.phase == .sending else { return [] }
            head.phase = .queued
            writes[0] = head
            return [.record(head)]
        case .retry:
            guard var head = writes.first, head.phase == .failed || head.phase == .conflict else { return [] }
            head.phase = .queued
            writes[0] = head
            return [.record(head)]
        case .discard:
            // An attempt on its way cannot be called back: the user discards once it has an answer.
            guard !writes.isEmpty, writes.first?.phase != .sending else { return [] }
            let dropped = writes
            writes = []
            return dropped.reversed().map { .remove($0) }
        }
    }

    /// The phase an outbox entry's recorded state stands for.
    static func phase(of state: OutboxEntry.State) -> Phase {
        switch state {
        case .queued: .queued
        case .failed: .failed
        case .conflict: .conflict
        }
    }

    /// The outbox entry state a phase is recorded as (sending and waiting for the network are queued on disk).
    static func state(of phase: Phase) -> OutboxEntry.State {
        switch phase {
        case .queued, .sending, .waitingForNetwork: .queued
        case .failed: .failed
        case .conflict: .conflict
        }
    }
}
