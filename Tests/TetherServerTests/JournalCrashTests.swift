import Foundation
import Testing
import TetherHTTP1
import TetherJSON
import TetherSync
import TetherTestSupport

@testable import TetherServer

/// Kill -9 at random points of appends and folds, seeded and reproducible: a client writes with
/// `Idempotency-Key`s; the database's storage is stopped where a kill would stop it (before an append, halfway
/// through one, after its sync but before the acknowledgement, between the steps of a fold); the database is
/// opened again on its files and the client sends its unanswered write again with the same key, as its outbox
/// would. After every restart the notes must be exactly what the acknowledged writes made (nothing lost,
/// nothing twice), and at the end every acknowledged key must replay its first response.
@Suite("Journal: kill -9 at random points of appends and folds")
struct JournalCrashTests {
    /// The scenario's choices, from its seed.
    typealias Random = SeededRandom

    /// A write as a client's outbox keeps it: sent again, unchanged, until it is answered.
    struct Write {
        var method: HTTPMethod
        var target: String
        var body: String?
        var key: String
    }

    private func send(_ write: Write, to server: JSONServerResponder) async throws -> Reply {
        try await server.send(write.method, write.target, body: write.body, headers: [("Idempotency-Key", write.key)])
    }

    /// The notes as the server has them, by id; `nil` when an id is there twice.
    private func notes(_ server: JSONServerResponder) async throws -> [Int: String]? {
        let array = try await server.get("/notes").json?.array ?? []
        var notes: [Int: String] = [:]
        for note in array {
            guard let id = note["id"]?.int, notes[id] == nil else { return nil }
            notes[id] = note["title"]?.string ?? ""
        }
        return notes
    }

    /// Applies an acknowledged write's reply to the model of what the server must hold.
    private func record(_ write: Write, _ reply: Reply, in model: inout [Int: String]) {
        switch write.method {
        case .delete:
            if let id = Int(write.target.split(separator: "/").last ?? "") { model[id] = nil }
        default:
            if let id = reply.json?["id"]?.int { model[id] = reply.json?["title"]?.string ?? "" }
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3, 20_261_207, 987_654_321])
    func everyAcknowledgedWriteAndKeyIsThereOnceAfterARestart(seed: UInt64) async throws {
        let temp = try JSONServerPersistenceTests.TemporaryDatabase(#"{"notes": []}"#)
        var random = Random(seed: seed)
        var model: [Int: String] = [:]
        var acknowledged: [(write: Write, reply: Reply)] = []
        var pending: Write?
        let crashes = Locked([JournalStorage.CrashPoint]())
        var problems: [String] = []

        for round in 0..<24 {
            let database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file), log: { _ in })
            // Folds every few writes, each right after a write (see below).
            await database.setMinimumFoldBytes(1_500, inProportion: false)
            await database.foldIfDue()
            let server = JSONServerResponder(database: database)
            if let write = pending {
                let reply = try await send(write, to: server)
                guard (200..<300).contains(reply.status) else {
                    problems.append("round \(round): the retried \(write.method) \(write.target) got \(reply.status)")
                    break
                }
                record(write, reply, in: &model)
                acknowledged.append((write, reply))
                pending = nil
            }
            let held = try await notes(server)
            if held != model {
                problems.append(
                    "round \(round): the server holds \(held.map { "\($0)" } ?? "an id twice"), not \(model)")
                break
            }

            // The kill: at the crashAt-th point the storage passes (if the round gets that far), counting either
            // every point or only the fold's steps.
            let crashAt = random.below(40)
            let onlyFolds = random.below(3) == 0
            let tearFraction = Double(random.below(1000)) / 1000
            let passed = Locked(0)
            await database.setCrashHook { point in
                switch point {
                case .append, .appended: if onlyFolds { return .proceed }
                case .foldAfterIntent, .foldAfterKeys, .foldAfterFile: break
                }
                let index = passed.withLock { count -> Int in
                    count += 1
                    return count - 1
                }
                guard index == (onlyFolds ? crashAt % 9 : crashAt) else { return .proceed }
                crashes.withLock { $0.append(point) }
                if case .append(let length) = point, tearFraction < 0.5 {
                    return .tear(at: Int(Double(length) * tearFraction * 2))
                }
                return .crash
            }
            for operation in 0..<20 {
                let key = "s\(seed)-r\(round)-o\(operation)"
                let ids = model.keys.sorted()
                let write: Write
                switch (random.below(10), ids.isEmpty) {
                case (0..<5, _), (_, true):
                    write = Write(method: .post, target: "/notes", body: #"{"title": "\#(key)"}"#, key: key)
                case (5..<8, false):
                    let id = ids[random.below(ids.count)]
                    write = Write(method: .patch, target: "/notes/\(id)", body: #"{"title": "\#(key)"}"#, key: key)
                default:
                    write = Write(method: .delete, target: "/notes/\(ids[random.below(ids.count)])", key: key)
                }
                let reply = try await send(write, to: server)
                if reply.status >= 500 {
                    pending = write
                    break
                }
                guard (200..<300).contains(reply.status) else {
                    problems.append("round \(round): \(write.method) \(write.target) got \(reply.status)")
                    break
                }
                record(write, reply, in: &model)
                acknowledged.append((write, reply))
                // A fold that is due runs here, not whenever the actor gets to it: the run is the same each time.
                await database.foldIfDue()
                // Now and then a client retries a write it already has the answer of (a lost response).
                if random.below(6) == 0, let earlier = acknowledged.randomElement(using: &random) {
                    let retry = try await send(earlier.write, to: server)
                    if retry["Idempotent-Replayed"] != "true" || retry.body != earlier.reply.body {
                        problems.append("round \(round): the retry of \(earlier.write.key) was not replayed")
                    }
                }
            }
            // Some rounds end in a clean stop (a fold), the others in a kill.
            if pending == nil && random.below(4) == 0 {
                try await database.close()
                #expect(temp.json?.object?.keys == ["notes"])
            }
            await database.simulateKill()
            if !problems.isEmpty { break }
        }

        if problems.isEmpty {
            let server = JSONServerResponder(
                database: try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file), log: { _ in }))
            if let write = pending {
                let reply = try await send(write, to: server)
                record(write, reply, in: &model)
            }
            for (write, reply) in acknowledged {
                let retry = try await send(write, to: server)
                if retry["Idempotent-Replayed"] != "true" || retry.status != reply.status || retry.body != reply.body {
                    problems.append("the key \(write.key) (\(write.method) \(write.target)) did not replay its answer")
                }
            }
            let held = try await notes(server)
            if held != model {
                problems.append("at the end the server holds \(String(describing: held)), not \(model)")
            }
        }
        let points = crashes.withLock { $0 }
        var kinds: [String: Int] = [:]
        for point in points {
            let kind =
                switch point {
                case .append: "mid-append"
                case .appended: "after sync"
                case .foldAfterIntent: "fold after intent"
                case .foldAfterKeys: "fold after keys file"
                case .foldAfterFile: "fold after database file"
                }
            kinds[kind, default: 0] += 1
        }
        print(
            "seed \(seed): \(acknowledged.count) acknowledged writes, \(points.count) kills: \(kinds.sorted { $0.key < $1.key })"
        )
        #expect(points.count > 5)
        #expect(problems.isEmpty, "seed \(seed):\n\(problems.joined(separator: "\n"))")
    }
}

extension Array {
    /// A random element chosen with the scenario's generator.
    fileprivate func randomElement(using random: inout JournalCrashTests.Random) -> Element? {
        isEmpty ? nil : self[random.below(count)]
    }
}
