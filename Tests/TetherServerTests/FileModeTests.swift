import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// A fold replaces the user's file with one of the same mode (a db.json made private stays private), and the
/// server's own folder beside it (its journal, and the keys with the answers they replay) is the user's alone.
@Suite struct FileModeTests {
    typealias TemporaryDatabase = JSONServerPersistenceTests.TemporaryDatabase

    private static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test(arguments: [0o600, 0o640, 0o644])
    func aFoldKeepsTheModeOfTheFileItReplaces(mode: Int) async throws {
        let temp = try TemporaryDatabase(#"{"notes": []}"#)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temp.file.path)
        let database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
        let server = JSONServerResponder(database: database)
        let reply = try await server.send(
            .post, "/notes", body: #"{"title": "private"}"#, headers: [("Idempotency-Key", "k1")])
        #expect(reply.status == 201)
        try await database.close()
        #expect(try Self.mode(temp.file) == mode)
        #expect(try Self.mode(JournalStorage.folder(for: temp.file)) == 0o700)
        #expect(try String(contentsOf: temp.file, encoding: .utf8).contains("private"))
    }
}
