import Foundation
import Testing

@testable import TetherServer

/// Group commit as a pure state machine, event by event, and over a real journal with concurrent writers.
@Suite("Group commit")
struct CommitQueueTests {
    @Test func concurrentWritersShareASyncAndEachWaitsForItsOwn() {
        var queue = CommitQueue<String>()
        // Record 1 is written and waits: a sync starts, covering it.
        queue.wrote(upTo: 1)
        #expect(queue.wait(for: 1, "a") == (false, .startSync(upTo: 1)))
        // Records 2 and 3 are written while it runs: they wait for the next sync, none starts now.
        queue.wrote(upTo: 2)
        queue.wrote(upTo: 3)
        #expect(queue.wait(for: 2, "b") == (false, .none))
        #expect(queue.wait(for: 3, "c") == (false, .none))
        #expect(!queue.isIdle)
        // The first sync ends: only "a" is durable; one sync starts for both others.
        let first = queue.synced(upTo: 1)
        #expect(first.durable == ["a"])
        #expect(first.action == .startSync(upTo: 3))
        let second = queue.synced(upTo: 3)
        #expect(second.durable == ["b", "c"])
        #expect(second.action == .none)
        #expect(queue.isIdle)
        // Already durable: no wait, nothing kept.
        #expect(queue.wait(for: 2, "late") == (true, .none))
        #expect(queue.synced == 3 && queue.written == 3)
    }

    @Test func aFailedSyncAnswersEveryWaiterAndStartsNothing() {
        var queue = CommitQueue<String>()
        queue.wrote(upTo: 2)
        #expect(queue.wait(for: 1, "a").action == .startSync(upTo: 2))
        #expect(queue.wait(for: 2, "b").action == .none)
        #expect(queue.failed() == ["a", "b"])
        #expect(queue.isIdle)
        #expect(queue.synced == 0)
    }

    @Test func concurrentKeyedWritesAndTheirRetriesApplyOnce() async throws {
        let temp = try JSONServerPersistenceTests.TemporaryDatabase(#"{"notes": []}"#)
        var database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file), log: { _ in })
        var server = JSONServerResponder(database: database)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                for _ in 0..<2 {
                    group.addTask { [server] in
                        try await server.send(
                            .post, "/notes", body: #"{"title": "t\#(index)"}"#,
                            headers: [("Idempotency-Key", "k\(index)")]
                        ).status
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 201 })
        #expect(try await server.get("/notes").json?.array?.count == 40)
        await database.simulateKill()
        database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file), log: { _ in })
        server = JSONServerResponder(database: database)
        #expect(try await server.get("/notes").json?.array?.count == 40)
        let retry = try await server.send(
            .post, "/notes", body: #"{"title": "t7"}"#, headers: [("Idempotency-Key", "k7")])
        #expect(retry["Idempotent-Replayed"] == "true")
    }
}
