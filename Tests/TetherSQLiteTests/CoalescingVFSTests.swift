import CSQLite
import Foundation
import Testing

@testable import TetherSQLite

/// The store's connections write each commit's log frames at once: a plain SQLite connection on the default file
/// system sees every committed transaction as soon as the commit returns, and the file stays sound through large
/// transactions, rollbacks and checkpoints.
@Suite struct CoalescingVFSTests {
    private func makeFile() throws -> (URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-vfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent("vfs.sqlite"))
    }

    /// A connection of SQLite's own, on the default file system.
    private final class PlainConnection {
        let handle: OpaquePointer

        init(_ url: URL) throws {
            var handle: OpaquePointer?
            let status = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil)
            guard status == SQLITE_OK, let handle else { throw DatabaseError(code: status, message: "", sql: nil) }
            self.handle = handle
        }

        deinit { sqlite3_close_v2(handle) }

        func text(_ sql: String) -> String? {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
                return nil
            }
            return String(cString: text)
        }
    }

    private func insert(_ database: Database, _ id: String, bytes: Int) throws {
        _ = try database.run(
            "INSERT INTO entity (type, id, value) VALUES ('T', ?, ?)",
            [.text(id), .blob([UInt8](repeating: 0x62, count: bytes))])
    }

    @Test func theLayerIsRegisteredForEveryFileDatabase() {
        #expect(CoalescingVFS.registeredName == CoalescingVFS.name)
        #expect(sqlite3_vfs_find(CoalescingVFS.name) != nil)
    }

    @Test func everyCommitIsSeenByAPlainConnectionAsSoonAsItReturns() throws {
        let (folder, file) = try makeFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TestDatabase(url: file)
        let plain = try PlainConnection(file)
        for index in 0..<300 {
            try database.queue.write { try insert($0, "row-\(index)", bytes: 100 + index * 37 % 5000) }
            #expect(plain.text("SELECT COUNT(*) FROM entity WHERE type = 'T'") == "\(index + 1)")
        }
        #expect(plain.text("PRAGMA integrity_check") == "ok")
    }

    @Test func largeTransactionsRollbacksAndCheckpointsLeaveASoundFile() throws {
        let (folder, file) = try makeFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TestDatabase(url: file)
        // 12 MB in one transaction: past the memory kept for appends and past SQLite's page cache, which spills
        // pages into the log before the commit.
        try database.queue.write { database in
            for index in 0..<3000 { try insert(database, "big-\(index)", bytes: 4000) }
        }
        // A large transaction that spills and is then rolled back leaves nothing behind.
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try database.queue.write { database in
                for index in 0..<3000 { try insert(database, "gone-\(index)", bytes: 4000) }
                throw Abandoned()
            }
        }
        // Small commits after it reuse the log where the abandoned frames were.
        for index in 0..<50 { try database.queue.write { try insert($0, "small-\(index)", bytes: 300) } }
        let plain = try PlainConnection(file)
        #expect(plain.text("SELECT COUNT(*) FROM entity WHERE id GLOB 'big-*'") == "3000")
        #expect(plain.text("SELECT COUNT(*) FROM entity WHERE id GLOB 'gone-*'") == "0")
        #expect(plain.text("SELECT COUNT(*) FROM entity WHERE id GLOB 'small-*'") == "50")
        #expect(plain.text("PRAGMA wal_checkpoint(TRUNCATE)") == "0")
        #expect(plain.text("PRAGMA integrity_check") == "ok")
        // The store reads back what the other connection checkpointed.
        let count = try database.queue.read { try $0.scalarInt("SELECT COUNT(*) FROM entity WHERE type = 'T'") }
        #expect(count == 3050)
    }

    @Test func writesOfAPlainConnectionInBetweenAreKept() throws {
        let (folder, file) = try makeFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TestDatabase(url: file)
        let plain = try PlainConnection(file)
        // The two connections take turns appending to one log: each append of the store's starts where the
        // other's ended.
        for index in 0..<100 {
            try database.queue.write { try insert($0, "ours-\(index)", bytes: 2000) }
            #expect(
                sqlite3_exec(
                    plain.handle,
                    "INSERT INTO entity (type, id, value) VALUES ('T', 'theirs-\(index)', zeroblob(2000))", nil, nil,
                    nil) == SQLITE_OK)
        }
        let count = try database.queue.read { try $0.scalarInt("SELECT COUNT(*) FROM entity WHERE type = 'T'") }
        #expect(count == 200)
        #expect(plain.text("PRAGMA integrity_check") == "ok")
    }
}
