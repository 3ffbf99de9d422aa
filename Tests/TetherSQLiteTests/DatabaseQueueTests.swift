import Foundation
import Testing
import TetherSync

@testable import TetherSQLite

/// Writes handed to `DatabaseQueue.writeSoon` land with the connection's next use, and never take anything else
/// down with them.
@Suite struct DatabaseQueueTests {
    struct Refused: Error {}

    private func makeDatabase() throws -> (TestDatabase, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try TestDatabase(url: folder.appendingPathComponent("queue.sqlite")), folder)
    }

    private func rows(_ queue: DatabaseQueue, _ id: String) throws -> Int64 {
        try queue.read { try $0.scalarInt("SELECT COUNT(*) FROM entity WHERE type = 'T' AND id = ?", [.text(id)]) }
    }

    @Test func aSoonWriteLandsInTheNextWritesTransactionAndAFailingOneIsDropped() throws {
        let (database, folder) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = database.queue
        queue.writeSoon { _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'soon', x'7b7d')") }
        queue.writeSoon { _ in throw Refused() }
        try queue.write { _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'next', x'7b7d')") }
        #expect(try rows(queue, "soon") == 1)
        #expect(try rows(queue, "next") == 1)
    }

    @Test func aSoonWriteThatFailsHalfWayLeavesNothingAndTheOthersAndTheNextWriteLandOnce() throws {
        let (database, folder) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = database.queue
        queue.writeSoon { _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'first', x'7b7d')") }
        queue.writeSoon { database in
            _ = try database.run("INSERT INTO entity (type, id, value) VALUES ('T', 'half', x'7b7d')")
            throw Refused()
        }
        queue.writeSoon { _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'last', x'7b7d')") }
        let runs = Locked(0)
        try queue.write { database in
            runs.withLock { $0 += 1 }
            _ = try database.run("INSERT INTO entity (type, id, value) VALUES ('T', 'next', x'7b7d')")
        }
        #expect(runs.withLock { $0 } == 1)
        #expect(try rows(queue, "first") == 1)
        #expect(try rows(queue, "half") == 0)
        #expect(try rows(queue, "last") == 1)
        #expect(try rows(queue, "next") == 1)
    }

    @Test func whenTheNextWriteFailsTheSoonWritesStillLandAndItRunsOnce() throws {
        let (database, folder) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = database.queue
        queue.writeSoon { _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'soon', x'7b7d')") }
        let runs = Locked(0)
        #expect(throws: Refused.self) {
            try queue.write { database in
                runs.withLock { $0 += 1 }
                _ = try database.run("INSERT INTO entity (type, id, value) VALUES ('T', 'failed', x'7b7d')")
                throw Refused()
            }
        }
        #expect(runs.withLock { $0 } == 1)
        #expect(try rows(queue, "soon") == 1)
        #expect(try rows(queue, "failed") == 0)
    }

    @Test func aSoonWriteLandsByItselfWithoutAnotherUse() async throws {
        let (database, folder) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        database.queue.writeSoon {
            _ = try $0.run("INSERT INTO entity (type, id, value) VALUES ('T', 'alone', x'7b7d')")
        }
        // Another connection sees it once the queue has committed it on its own (the first connection stays open:
        // its closing would commit it too). A loaded machine may take a while to run the timer.
        let other = try TestDatabase(url: folder.appendingPathComponent("queue.sqlite"))
        var seen: Int64 = 0
        let deadline = Date().addingTimeInterval(30)
        while seen == 0 && Date() < deadline {
            seen = try rows(other.queue, "alone")
            if seen == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(seen == 1)
        withExtendedLifetime(database) {}
    }
}
