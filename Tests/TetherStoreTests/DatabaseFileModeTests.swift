import Foundation
import Testing
import TetherStoreTestSupport

@testable import TetherStore

/// The database holds the user's notes and waiting writes: the folders and files Tether creates for it are the
/// user's alone (0700 and 0600), and a folder the user already had keeps its mode.
@Suite struct DatabaseFileModeTests {
    private static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func theFoldersAndFilesTetherCreatesAreTheUsersAlone() async throws {
        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("tether-modes-\(UUID())")
        try FileManager.default.createDirectory(
            at: existing, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: existing) }
        let made = existing.appendingPathComponent("data").appendingPathComponent("tether")
        let url = made.appendingPathComponent("store.sqlite")
        let database = try StoreDatabase(url: url)
        _ = try await database.enqueue(
            OutboxDraft(
                entityType: "Note", entityID: "1", collectionPath: "/notes", kind: .update, method: "PATCH",
                value: Data(#"{"id": 1, "title": "private"}"#.utf8)))
        #expect(try Self.mode(existing) == 0o755)
        #expect(try Self.mode(made.deletingLastPathComponent()) == 0o700)
        #expect(try Self.mode(made) == 0o700)
        #expect(try Self.mode(url) == 0o600)
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: url.path + suffix)
            if FileManager.default.fileExists(atPath: companion.path) { #expect(try Self.mode(companion) == 0o600) }
        }
    }

    @Test func aDatabaseFileTheUserMadeKeepsItsMode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-modes-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("shared.sqlite")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try StoreDatabase(url: url)
        #expect(try Self.mode(folder) == 0o750)
        #expect(try Self.mode(url) == 0o640)
    }
}
