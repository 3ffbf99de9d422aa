import Testing

@testable import TetherStore

/// The write queue's transitions, with no I/O: every reachable state (up to a depth) by every event, and every pair
/// of events, against the invariants its doc comment states; and the answer table event by event.
@Suite struct WriteQueueTests {
    typealias Queue = WriteQueue
    typealias Write = WriteQueue.Write

    /// Every event the queue knows, with writes made from `number` on (a create under a temporary id, an update and a
    /// delete of it) and every kind of answer.
    static func events(from number: Int64) -> [Queue.Event] {
        var events: [Queue.Event] = [
            .made(Write(number: number, kind: .create, key: "k\(number)", entityID: "-1")),
            .made(Write(number: number, kind: .update, key: "k\(number)", entityID: "-1")),
            .made(Write(number: number, kind: .delete, key: "k\(number)", entityID: "-1")),
            .sendStarted, .leaseExpired, .restarted, .retry, .discard,
        ]
        let answers: [Queue.Answer] = [
            .success(serverID: "42"), .success(serverID: nil), .notFound, .conflict(status: 412),
            .conflict(status: 409), .refused(status: 422), .later(status: 503), .later(status: 429),
            .unreachable(written: false), .unreachable(written: true),
        ]
        events += answers.map { .answered($0) }
        return events
    }

    /// The states reachable from an empty queue in up to `depth` events.
    static func reachable(depth: Int) -> [Queue] {
        var seen: Set<Queue> = [Queue()]
        var frontier: [Queue] = [Queue()]
        var number: Int64 = 1
        for _ in 0..<depth {
            var next: [Queue] = []
            for state in frontier {
                for event in events(from: number) {
                    var copy = state
                    _ = copy.apply(event)
                    if seen.insert(copy).inserted { next.append(copy) }
                }
            }
            number += 1
            frontier = next
        }
        return Array(seen)
    }

    /// Checks the invariants across one event; returns the problems found.
    static func check(before: Queue, event: Queue.Event, after: Queue, effects: [Queue.Effect]) -> [String] {
        var problems: [String] = []
        let sending = after.writes.indices.filter { after.writes[$0].phase == .sending }
        // 1. One write in flight, the oldest.
        if sending.count > 1 || (sending.first.map { $0 != 0 } ?? false) {
            problems.append("more than one write in flight, or not the oldest")
        }
        // 2. Order kept.
        if zip(after.writes, after.writes.dropFirst()).contains(where: { $0.number >= $1.number }) {
            problems.append("order broken")
        }
        // 3. Keys never change.
        for write in after.writes {
            if let old = before.writes.first(where: { $0.number == write.number }), old.key != write.key {
                problems.append("key of \(write.number) changed")
            }
        }
        // 4. Nothing dropped without the user or a confirmation.
        let removed = before.writes.filter { old in !after.writes.contains { $0.number == old.number } }
        if !removed.isEmpty {
            switch event {
            case .discard: break
            case .answered(.success):
                if removed.count != 1 || removed[0].number != before.writes.first?.number {
                    problems.append("a success removed more than the write it answered")
                }
            case .answered(.notFound):
                if removed.count != 1 || removed[0].kind != .delete || removed[0].attempts <= 1 {
                    problems.append("a 404 removed a write that was not a repeated delete")
                }
            default:
                problems.append("\(event) dropped \(removed.map(\.number))")
            }
        }
        // Effects say what changed: every removed write has its removal, every changed one its record.
        for write in removed where !effects.contains(.remove(write)) {
            problems.append("the removal of \(write.number) was not reported")
        }
        for write in after.writes {
            let old = before.writes.first { $0.number == write.number }
            if let old, old != write,
                !effects.contains(where: { if case .record(let w) = $0 { w.number == write.number } else { false } }),
                !effects.contains(where: { if case .adoptID = $0 { true } else { false } })
            {
                problems.append("the change of \(write.number) was not reported")
            }
        }
        // 5. A temporary id replaced everywhere once.
        for effect in effects {
            guard case .adoptID(let temporary, let server) = effect else { continue }
            if after.writes.contains(where: { $0.entityID == temporary }) {
                problems.append("the temporary id \(temporary) is still used after \(server) replaced it")
            }
        }
        // Attempts never go back, and grow only when a send starts.
        for write in after.writes {
            guard let old = before.writes.first(where: { $0.number == write.number }) else { continue }
            if write.attempts < old.attempts { problems.append("attempts of \(write.number) went back") }
            if write.attempts > old.attempts, event != .sendStarted {
                problems.append("attempts of \(write.number) grew on \(event)")
            }
        }
        return problems
    }

    @Test func everyReachableStateByEveryEventKeepsTheInvariants() {
        let states = Self.reachable(depth: 4)
        #expect(states.count > 100)
        var checked = 0
        for state in states {
            for event in Self.events(from: 100) {
                var after = state
                let effects = after.apply(event)
                let problems = Self.check(before: state, event: event, after: after, effects: effects)
                #expect(problems.isEmpty, "\(state.writes) + \(event): \(problems)")
                checked += 1
            }
        }
        #expect(checked == states.count * Self.events(from: 100).count)
    }

    @Test func everyPairOfEventsKeepsTheInvariantsAndAnIdIsAdoptedOnce() {
        let states = Self.reachable(depth: 3)
        let events = Self.events(from: 100) + Self.events(from: 101).prefix(3)
        for state in states {
            for first in events {
                var middle = state
                let firstEffects = middle.apply(first)
                for second in events {
                    var after = middle
                    let effects = after.apply(second)
                    let problems = Self.check(before: middle, event: second, after: after, effects: effects)
                    #expect(problems.isEmpty, "\(state.writes) + \(first) + \(second): \(problems)")
                    // Once a temporary id is adopted, no later event adopts it again.
                    let adoptedFirst = firstEffects.compactMap { effect -> String? in
                        if case .adoptID(let temporary, _) = effect { return temporary }
                        return nil
                    }
                    for effect in effects {
                        // Adopted again only for a create made afterwards under the same temporary id.
                        if case .adoptID(let temporary, _) = effect, adoptedFirst.contains(temporary) {
                            #expect(
                                middle.writes.contains { $0.kind == .create && $0.entityID == temporary },
                                "\(temporary) adopted twice")
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: [
        (Queue.Answer.success(serverID: nil), nil as Queue.Phase?),
        (.notFound, .failed), (.conflict(status: 412), .conflict), (.conflict(status: 409), .conflict),
        (.refused(status: 422), .failed), (.refused(status: 400), .failed), (.later(status: 503), .waitingForNetwork),
        (.later(status: 429), .waitingForNetwork), (.later(status: 408), .waitingForNetwork),
        (.unreachable(written: false), .waitingForNetwork), (.unreachable(written: true), .waitingForNetwork),
    ])
    func anAnswerToAnUpdateMovesItTo(answer: Queue.Answer, phase: Queue.Phase?) {
        var queue = Queue()
        _ = queue.apply(.made(Write(number: 1, kind: .update, key: "k", entityID: "3")))
        _ = queue.apply(.sendStarted)
        #expect(queue.shownPhase() == .sending)
        #expect(queue.shownPhase(offline: true) == .waitingForNetwork)
        _ = queue.apply(.answered(answer))
        #expect(queue.writes.first?.phase == phase)
        #expect(queue.writes.first.map { $0.key } ?? "k" == "k")
    }

    @Test func statusesMapToTheirAnswers() {
        #expect(Queue.Answer(status: 201, serverID: "7") == .success(serverID: "7"))
        #expect(Queue.Answer(status: 204) == .success(serverID: nil))
        #expect(Queue.Answer(status: 404) == .notFound)
        #expect(Queue.Answer(status: 412) == .conflict(status: 412))
        #expect(Queue.Answer(status: 425) == .later(status: 425))
        #expect(Queue.Answer(status: 500) == .later(status: 500))
        #expect(Queue.Answer(status: 451) == .refused(status: 451))
    }

    @Test func aDeleteAnswered404AfterAnEarlierAttemptIsDoneAndOnItsFirstIsRefused() {
        var queue = Queue()
        _ = queue.apply(.made(Write(number: 1, kind: .delete, key: "k", entityID: "3")))
        _ = queue.apply(.sendStarted)
        _ = queue.apply(.answered(.notFound))
        #expect(queue.writes.first?.phase == .failed)
        _ = queue.apply(.retry)
        _ = queue.apply(.sendStarted)
        _ = queue.apply(.answered(.unreachable(written: true)))
        _ = queue.apply(.sendStarted)
        let effects = queue.apply(.answered(.notFound))
        #expect(queue.writes.isEmpty)
        #expect(effects.count == 1)
    }

    @Test func aConfirmedCreateGivesItsServerIDToTheLaterWritesOnce() {
        var queue = Queue()
        _ = queue.apply(.made(Write(number: 1, kind: .create, key: "a", entityID: "-5")))
        _ = queue.apply(.made(Write(number: 2, kind: .update, key: "b", entityID: "-5")))
        _ = queue.apply(.made(Write(number: 3, kind: .delete, key: "c", entityID: "-5")))
        #expect(queue.next?.number == 1)
        _ = queue.apply(.sendStarted)
        // The later writes wait while the create is on its way.
        #expect(queue.next == nil)
        let effects = queue.apply(.answered(.success(serverID: "21")))
        #expect(effects.contains(.adoptID(from: "-5", to: "21")))
        #expect(queue.writes.map(\.entityID) == ["21", "21"])
        #expect(queue.writes.map(\.key) == ["b", "c"])
        #expect(queue.next?.number == 2)
    }

    @Test func aRefusedWriteHoldsTheLaterOnesUntilTheUserDecides() {
        var queue = Queue()
        _ = queue.apply(.made(Write(number: 1, kind: .update, key: "a", entityID: "3")))
        _ = queue.apply(.made(Write(number: 2, kind: .update, key: "b", entityID: "3")))
        _ = queue.apply(.sendStarted)
        _ = queue.apply(.answered(.refused(status: 422)))
        #expect(queue.next == nil)
        #expect(queue.shownPhase() == .failed)
        // Nothing leaves on its own: not a restart, not a lease, not another answer.
        for event in [Queue.Event.restarted, .leaseExpired, .answered(.success(serverID: nil)), .sendStarted] {
            #expect(queue.apply(event).isEmpty)
        }
        #expect(queue.writes.count == 2)
        let dropped = queue.apply(.discard)
        #expect(dropped.count == 2)
        #expect(queue.writes.isEmpty)
        #expect(queue.shownPhase() == nil)
    }

    @Test func anAttemptCutOffByARestartOrAnExpiredLeaseIsQueuedAgainWithItsKey() {
        for event in [Queue.Event.restarted, .leaseExpired] {
            var queue = Queue()
            _ = queue.apply(.made(Write(number: 1, kind: .create, key: "a", entityID: "-1")))
            _ = queue.apply(.sendStarted)
            // Not discarded while on its way: its answer may still come.
            #expect(queue.apply(.discard).isEmpty)
            _ = queue.apply(event)
            #expect(queue.writes.first?.phase == .queued)
            #expect(queue.writes.first?.key == "a")
            #expect(queue.writes.first?.attempts == 1)
            _ = queue.apply(.sendStarted)
            #expect(queue.writes.first?.attempts == 2)
        }
    }

    @Test func aQueueRebuiltFromTheRecordsSendsOnlyItsOldestAndOnlyWhenNothingIsInFlight() {
        let writes = [
            Write(number: 3, kind: .update, key: "a", entityID: "7", phase: .queued, attempts: 2),
            Write(number: 5, kind: .update, key: "b", entityID: "7", phase: .queued),
            Write(number: 9, kind: .delete, key: "c", entityID: "7", phase: .queued),
        ]
        // Another live process holds the oldest's lease: nothing goes.
        let held = Queue(recorded: writes, headIsInFlight: true)
        #expect(held.next == nil)
        #expect(held.shownPhase() == .sending)
        #expect(held.shownPhase(offline: true) == .waitingForNetwork)
        // Free: the oldest goes, with its key, and only it.
        var free = Queue(recorded: writes, headIsInFlight: false)
        #expect(free.next?.number == 3)
        #expect(
            free.apply(.sendStarted) == [
                .record(Write(number: 3, kind: .update, key: "a", entityID: "7", phase: .sending, attempts: 3))
            ])
        #expect(free.next == nil)
        // A refused oldest holds the rest, in flight or not.
        var refused = writes
        refused[0].phase = .failed
        for inFlight in [false, true] {
            let queue = Queue(recorded: refused, headIsInFlight: inFlight)
            #expect(queue.next == nil)
            #expect(queue.shownPhase() == .failed)
        }
        // A later write is never in flight from the records (a send chain's lease is not an attempt yet).
        var chained = writes
        chained[1].phase = .sending
        let rebuilt = Queue(recorded: chained, headIsInFlight: false)
        #expect(rebuilt.writes.map(\.phase) == [.queued, .queued, .queued])
        #expect(rebuilt.next?.number == 3)
    }
}
