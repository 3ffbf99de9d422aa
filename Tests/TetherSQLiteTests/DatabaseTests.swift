import CSQLite
import Foundation
import Testing

@testable import TetherSQLite

@Suite struct DatabaseTests {
    private func temporaryFile(_ name: String = "db.sqlite") throws -> (folder: URL, file: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent(name))
    }

    @Test func everyKindOfValueComesBackAsBoundAndColumnsAreReadByName() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (n INTEGER, r REAL, s TEXT, b BLOB, z)")
        let text = "ノート \u{1F600} \"quoted\""
        _ = try database.run(
            "INSERT INTO t (n, r, s, b, z) VALUES (?, ?, ?, ?, ?)",
            [.integer(Int64.min), .real(-0.5), .text(text), .blob([0, 1, 255]), .null])
        // The columns in another order than the table's, one of them under an alias.
        let statement = try database.statement("SELECT z, b AS bytes, s, r, n FROM t")
        #expect(try statement.step())
        #expect(statement.int64("n") == Int64.min)
        #expect(statement.double("r") == -0.5)
        #expect(statement.text("s") == text)
        #expect(statement.data("bytes") == Data([0, 1, 255]))
        #expect(statement.isNull("z"))
        #expect(statement.optionalInt("z") == nil)
        #expect(statement.text("z") == nil)
        #expect(try statement.step() == false)
        database.resetStatements()
    }

    @Test func aStatementIsPreparedOnceAndReused() throws {
        let database = try Database(path: ":memory:")
        let first = try database.statement("SELECT 1 AS one")
        database.resetStatements()
        let second = try database.statement("SELECT 1 AS one")
        #expect(first === second)
        #expect(try database.scalarInt("SELECT 1 AS one") == 1)
    }

    @Test func anErrorNamesSQLiteCodeMessageAndStatement() throws {
        let database = try Database(path: ":memory:")
        let error = #expect(throws: DatabaseError.self) { try database.execute("SELEC nothing") }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.sql == "SELEC nothing")
        #expect(error?.description.contains("syntax error") == true)
        #expect(error?.isCorruption == false)

        try database.execute("CREATE TABLE u (id TEXT PRIMARY KEY)")
        _ = try database.run("INSERT INTO u VALUES ('a')")
        let duplicate = #expect(throws: DatabaseError.self) { try database.run("INSERT INTO u VALUES ('a')") }
        // Extended result codes: a primary key's constraint, not only "constraint".
        #expect(duplicate?.code == SQLITE_CONSTRAINT | (6 << 8))  // SQLITE_CONSTRAINT_PRIMARYKEY
    }

    @Test func aTransactionThatThrowsLeavesNothingAndTheNextOneWorks() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (n INTEGER)")
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try database.transaction {
                _ = try database.run("INSERT INTO t VALUES (1)")
                throw Abandoned()
            }
        }
        #expect(try database.scalarInt("SELECT COUNT(*) FROM t") == 0)
        try database.transaction { _ = try database.run("INSERT INTO t VALUES (2)") }
        #expect(try database.scalarInt("SELECT SUM(n) FROM t") == 2)
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorruption() throws {
        let (folder, file) = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 0x41, count: 8192).write(to: file)
        let error = #expect(throws: DatabaseError.self) { _ = try Database(path: file.path) }
        #expect(error?.isCorruption == true)
    }

    @Test func aFileDatabaseIsInWALModeAndKeepsItsRowsAcrossConnections() throws {
        let (folder, file) = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let database = try Database(path: file.path)
            #expect(try database.scalarText("PRAGMA journal_mode")?.lowercased() == "wal")
            try database.execute("CREATE TABLE t (s TEXT)")
            try database.transaction { _ = try database.run("INSERT INTO t VALUES (?)", [.text("kept")]) }
        }
        let reopened = try Database(path: file.path)
        #expect(try reopened.scalarText("SELECT s FROM t") == "kept")
    }
}

@Suite struct DatabaseMigratorTests {
    private let migrator = DatabaseMigrator(migrations: [
        .init(name: "one", sql: "CREATE TABLE a (n INTEGER)"),
        .init(name: "two", sql: "ALTER TABLE a ADD COLUMN s TEXT"),
        .init(name: "three", sql: "CREATE TABLE b (n INTEGER)"),
    ])

    @Test func migrationsRunInOrderOnceAndRecordTheVersion() throws {
        let database = try Database(path: ":memory:")
        try migrator.migrate(database, upTo: 2)
        #expect(database.userVersion == 2)
        _ = try database.run("INSERT INTO a (n, s) VALUES (1, 'x')")
        try migrator.migrate(database)
        #expect(database.userVersion == 3)
        // Again: nothing to do, nothing run twice (a second ALTER TABLE would fail).
        try migrator.migrate(database)
        #expect(try database.scalarInt("SELECT COUNT(*) FROM a") == 1)
        #expect(try database.scalarInt("SELECT COUNT(*) FROM b") == 0)
    }

    @Test func aFailingMigrationLeavesTheVersionBeforeIt() throws {
        let database = try Database(path: ":memory:")
        let broken = DatabaseMigrator(migrations: migrator.migrations + [.init(name: "bad", sql: "ALTER TABLE nope")])
        #expect(throws: DatabaseError.self) { try broken.migrate(database) }
        #expect(database.userVersion == 3)
    }

    @Test func aDatabaseFromANewerSchemaIsRefused() throws {
        let database = try Database(path: ":memory:")
        try database.setUserVersion(9)
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(database) }
        #expect(error?.message.contains("newer") == true)
        #expect(database.userVersion == 9)
    }
}

@Suite struct DatabaseFileTests {
    private func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func missingFoldersAndTheFileAreMadePrivate() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tether-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("a/b/db.sqlite")
        try DatabaseFile.createPrivately(file)
        #expect(try mode(root) == 0o700)
        #expect(try mode(root.appendingPathComponent("a/b")) == 0o700)
        #expect(try mode(file) == 0o600)
        // SQLite's log and shared-memory files take the database file's mode.
        let database = try Database(path: file.path)
        try database.execute("CREATE TABLE t (n INTEGER)")
        #expect(try mode(URL(fileURLWithPath: file.path + "-wal")) == 0o600)
        withExtendedLifetime(database) {}
    }

    @Test func whatTheUserMadeKeepsItsMode() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tether-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        let file = root.appendingPathComponent("db.sqlite")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o644])
        try DatabaseFile.createPrivately(file)
        #expect(try mode(root) == 0o755)
        #expect(try mode(file) == 0o644)
    }

    @Test func aFolderThatCannotBeMadeIsATypedError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tether-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A file where a folder should be.
        _ = FileManager.default.createFile(atPath: root.path, contents: Data("x".utf8))
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseFile.createPrivately(root.appendingPathComponent("sub/db.sqlite"))
        }
        #expect(error?.code == SQLITE_CANTOPEN)
        #expect(error?.message.contains(root.path) == true)
    }
}
