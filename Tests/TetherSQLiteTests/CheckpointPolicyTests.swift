import Foundation
import Testing

@testable import TetherSQLite

/// The write-ahead log stays short under many small commits, and a large save is not copied into the database file
/// before its commit returns.
@Suite struct CheckpointPolicyTests {
    private static let pageBytes = 4096

    private func makeDatabase() throws -> (TestDatabase, URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("wal.sqlite")
        return (try TestDatabase(url: file), folder, file)
    }

    private func size(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    private func insert(_ queue: DatabaseQueue, ids: Range<Int>, bytes: Int) throws {
        let value = [UInt8](repeating: 0x61, count: bytes)
        try queue.write { database in
            for id in ids {
                _ = try database.run(
                    "INSERT INTO entity (type, id, value) VALUES ('T', ?, ?)", [.text("\(id)"), .blob(value)])
            }
        }
    }

    @Test func manySmallCommitsKeepTheLogShort() throws {
        let (database, folder, file) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 1,500 commits of a 3 KB row each write at least 3,000 pages to the log; checkpointed at 1,000 pages, the
        // log starts again from its beginning and never grows far past that.
        for id in 0..<1500 { try insert(database.queue, ids: id..<(id + 1), bytes: 3000) }
        let log = size(URL(fileURLWithPath: file.path + "-wal"))
        #expect(log > 0)
        #expect(log < 1100 * (Self.pageBytes + 24))
        // Everything committed is there.
        let count = try database.queue.read { try $0.scalarInt("SELECT COUNT(*) FROM entity WHERE type = 'T'") }
        #expect(count == 1500)
    }

    @Test func aLargeSaveIsCopiedIntoTheFileByTheNextCommitNotItsOwn() throws {
        let (database, folder, file) = try makeDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = size(file)
        // One transaction of about 2,000 pages.
        try insert(database.queue, ids: 0..<2000, bytes: 4000)
        let log = URL(fileURLWithPath: file.path + "-wal")
        #expect(size(log) > 1500 * Self.pageBytes)
        #expect(size(file) < before + 100 * Self.pageBytes)
        // The next small commit checkpoints: the file now holds the rows.
        try insert(database.queue, ids: 2000..<2001, bytes: 10)
        #expect(size(file) > before + 1500 * Self.pageBytes)
        let count = try database.queue.read { try $0.scalarInt("SELECT COUNT(*) FROM entity WHERE type = 'T'") }
        #expect(count == 2001)
    }
}
