import Foundation
import Testing
import TetherHTTP1
import TetherJSON
import TetherSync

@testable import TetherServer

/// The server's side of exactly once, on real files: keys remembered however many writes come in between and
/// across restarts and folds, torn tails dropped, damage refused, a hand-edited file given its unfolded writes,
/// old keys moved out of the database file.
@Suite("Journal: keys, restarts and folds")
struct JournalDurabilityTests {
    typealias TemporaryDatabase = JSONServerPersistenceTests.TemporaryDatabase

    /// Collects the warnings a database logs.
    final class LogLines: Sendable {
        private let lines = Locked([String]())
        var all: [String] { lines.withLock { $0 } }
        var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    }

    private func open(_ temp: TemporaryDatabase, log: LogLines = LogLines()) throws -> JSONDatabase {
        try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file), log: log.sink)
    }

    private func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    private var journalURL: (TemporaryDatabase) -> URL {
        { JournalStorage.folder(for: $0.file).appendingPathComponent("journal") }
    }

    @Test func aKeyIsRememberedAfter5000OtherKeyedWritesAcrossARestartAndAFold() async throws {
        let temp = try TemporaryDatabase(#"{"notes": []}"#)
        var database = try open(temp)
        var server = JSONServerResponder(database: database)
        // The first key alone, then 4,999 more from 8 clients at once (their records share syncs).
        let first = try await server.send(.post, "/notes", body: #"{"title": "n0"}"#, headers: key("key-0"))
        #expect(first.status == 201)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for lane in 0..<8 {
                group.addTask { [server] in
                    var failures = 0
                    for index in stride(from: 1 + lane, to: 5000, by: 8) {
                        let reply = try await server.send(
                            .post, "/notes", body: #"{"title": "n\#(index)"}"#, headers: self.key("key-\(index)"))
                        if reply.status != 201 { failures += 1 }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)

        func retryFirst() async throws {
            let retry = try await server.send(.post, "/notes", body: #"{"title": "n0"}"#, headers: key("key-0"))
            #expect(retry.status == 201)
            #expect(retry["Idempotent-Replayed"] == "true")
            #expect(retry.json?["id"]?.int == 1)
            #expect(try await server.get("/notes").json?.array?.count == 5000)
        }
        try await retryFirst()
        // A restart without a fold (the database dropped as a kill -9 would): the journal is replayed.
        await database.simulateKill()
        database = try open(temp)
        server = JSONServerResponder(database: database)
        try await retryFirst()
        // A fold: the file holds the notes and nothing else; the keys are in the keys file.
        try await database.close()
        #expect(temp.json?["notes"]?.array?.count == 5000)
        #expect(temp.json?.object?.keys == ["notes"])
        database = try open(temp)
        server = JSONServerResponder(database: database)
        try await retryFirst()
        #expect(await database.forgottenKeyCount == 0)
    }

    @Test func aTornLastRecordIsDroppedAndTruncatedAway() async throws {
        let temp = try TemporaryDatabase(#"{"notes": []}"#)
        var database = try open(temp)
        var server = JSONServerResponder(database: database)
        for index in 1...3 {
            #expect(try await server.send(.post, "/notes", body: #"{"title": "t\#(index)"}"#).status == 201)
        }
        await database.simulateKill()
        let whole = try Data(contentsOf: journalURL(temp))
        // Half of a record that was never acknowledged, as a kill -9 mid-append leaves it.
        let record = JournalRecord.write(
            changes: [.put(collection: "notes", id: "4", item: ["id": 4, "title": "lost"])], key: nil, entry: nil)
        try (whole + Data(record.framed.prefix(record.framed.count / 2))).write(to: journalURL(temp))

        let log = LogLines()
        database = try open(temp, log: log)
        server = JSONServerResponder(database: database)
        #expect(try await server.get("/notes").json?.array?.compactMap { $0["title"]?.string } == ["t1", "t2", "t3"])
        #expect(try Data(contentsOf: journalURL(temp)) == whole)
        #expect(log.all.contains { $0.contains("torn") })
        #expect(try await server.send(.post, "/notes", body: #"{"title": "t4"}"#).json?["id"]?.int == 4)
        await database.simulateKill()
        server = JSONServerResponder(database: try open(temp))
        #expect(try await server.get("/notes").json?.array?.count == 4)
    }

    @Test func aJournalWithoutItsBaseRecordIsMadeAgain() async throws {
        let temp = try TemporaryDatabase(#"{"notes": []}"#)
        try FileManager.default.createDirectory(
            at: JournalStorage.folder(for: temp.file), withIntermediateDirectories: true)
        for bytes in [Array(JournalRecord.journalMagic.prefix(5)), JournalRecord.journalMagic] {
            try Data(bytes).write(to: journalURL(temp))
            let database = try open(temp)
            let server = JSONServerResponder(database: database)
            #expect(try await server.send(.post, "/notes", body: #"{"title": "t"}"#).status == 201)
            await database.simulateKill()
            let reopened = JSONServerResponder(database: try open(temp))
            #expect(try await reopened.get("/notes").json?.array?.count == 1)
            try Data(#"{"notes": []}"#.utf8).write(to: temp.file)
            try FileManager.default.removeItem(at: journalURL(temp))
        }
    }

    @Test func aJournalDamagedInTheMiddleIsRefused() async throws {
        let temp = try TemporaryDatabase(#"{"notes": []}"#)
        let database = try open(temp)
        let server = JSONServerResponder(database: database)
        for index in 1...3 {
            #expect(try await server.send(.post, "/notes", body: #"{"title": "t\#(index)"}"#).status == 201)
        }
        await database.simulateKill()
        var bytes = Array(try Data(contentsOf: journalURL(temp)))
        let frames = try JournalCodec.decode(bytes, magic: JournalRecord.journalMagic).frames
        let second = frames[2]  // base, t1, t2, t3
        bytes[second.offset + JournalCodec.headerSize + 3] ^= 0x20
        try Data(bytes).write(to: journalURL(temp))
        do throws(ServerError) {
            _ = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
            Issue.record("a damaged journal was accepted")
        } catch {
            #expect(error.code == .corruptJournal)
            #expect(error.message.contains("byte \(second.offset)"), "\(error.message)")
        }
    }

    @Test func aFileEditedByHandGetsTheUnfoldedWritesAppliedAndAWarning() async throws {
        let temp = try TemporaryDatabase(#"{"notes": [{"id": 1, "title": "a"}]}"#)
        let database = try open(temp)
        let server = JSONServerResponder(database: database)
        #expect(try await server.send(.patch, "/notes/1", body: #"{"title": "b"}"#).status == 200)
        #expect(try await server.send(.post, "/notes", body: #"{"title": "c"}"#, headers: key("k-c")).status == 201)
        await database.simulateKill()
        // Edited while the server is stopped, from the file as it was (the writes are only in the journal).
        try Data(#"{"notes": [{"id": 1, "title": "a"}, {"id": 9, "title": "by hand"}], "tags": []}"#.utf8)
            .write(to: temp.file)

        let log = LogLines()
        let reopened = try open(temp, log: log)
        let titles = reopened.json["notes"]?.array?.compactMap { $0["title"]?.string }
        #expect(titles == ["b", "by hand", "c"])
        #expect(reopened.json["tags"]?.array == [])
        let warning = try #require(log.all.first { $0.contains("edited") })
        #expect(warning.contains("put notes/1") && warning.contains("put notes/2"), "\(warning)")
        // The edited file with the writes is now the file, and the journal starts from it: no second warning.
        #expect(temp.json?["notes"]?.array?.count == 3)
        await reopened.simulateKill()
        let again = LogLines()
        let third = try open(temp, log: again)
        #expect(again.all.isEmpty, "\(again.all)")
        let retry = try await JSONServerResponder(database: third).send(
            .post, "/notes", body: #"{"title": "c"}"#, headers: key("k-c"))
        #expect(retry["Idempotent-Replayed"] == "true")
    }

    @Test func keysSavedInsideTheFileByAnEarlierVersionAreMovedOut() async throws {
        let body = #"{"title": "old"}"#
        var fingerprint = EntityTag.fnv1a(Array("POST POST /notes\n".utf8))
        fingerprint = EntityTag.fnv1a(Array(body.utf8), seed: fingerprint)
        var store = IdempotencyStore()
        store.store(
            "k-old", fingerprint: fingerprint,
            response: JSONServerBody.response(["title": "old", "id": 1], status: .created, tagged: true))
        let root: JSON = [
            "notes": [["title": "old", "id": 1]], IdempotencyStore.legacyFileKey: store.json(),
        ]
        let temp = try TemporaryDatabase(try pretty(root))

        func retry(_ database: JSONDatabase) async throws {
            let server = JSONServerResponder(database: database)
            let reply = try await server.send(.post, "/notes", body: body, headers: key("k-old"))
            #expect(reply.status == 201)
            #expect(reply["Idempotent-Replayed"] == "true")
            #expect(try await server.get("/notes").json?.array?.count == 1)
        }
        let database = try open(temp)
        try await retry(database)
        try await database.close()
        #expect(temp.json?[IdempotencyStore.legacyFileKey] == nil)
        #expect(temp.json?["notes"]?.array?.count == 1)
        try await retry(try open(temp))
    }

    @Test func aGuardFarAboveHonestLoadIsReportedWhenHit() async throws {
        let log = LogLines()
        let database = try JSONDatabase(["notes": []], idempotencyCapacity: 2, log: log.sink)
        let server = JSONServerResponder(database: database)
        for index in 1...4 {
            _ = try await server.send(.post, "/notes", body: "{}", headers: key("k\(index)"))
        }
        #expect(await database.forgottenKeyCount == 2)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("forgotten early") == true)
        #expect(JSONDatabase.defaultIdempotencyCapacity == 1_000_000)
    }
}
