import Foundation
import Testing
import TetherJSON

@testable import TetherServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `TetherServerApp` over real sockets, with URLSession.
@Suite struct TetherServerAppTests {
    private func get(_ url: URL) async throws -> (Data, HTTPURLResponse) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: url)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test func servesBuiltInPostsRakutenSearchAndImages() async throws {
        let app = try await TetherServerApp.start(.init(rakutenRateLimit: false))
        defer { Task { await app.stop() } }
        #expect(app.baseURL.absoluteString == "http://127.0.0.1:\(app.port)")
        #expect(app.resources.contains("posts") && app.resources.contains("notes"))

        let (post, postResponse) = try await get(URL(string: "\(app.baseURL)/posts/1")!)
        #expect(postResponse.statusCode == 200)
        let json = try JSON(parsing: Array(post))
        #expect(json["id"].number?.int == 1)

        let keyword = HTTPTargetEncoding.encode("ノートパソコン")
        let search = URL(
            string: "\(app.baseURL)/services/api/IchibaItem/Search/20220601?applicationId=test&keyword=\(keyword)")!
        let (result, searchResponse) = try await get(search)
        #expect(searchResponse.statusCode == 200)
        let page = try JSON(parsing: Array(result))
        #expect((page["count"].number?.int ?? 0) > 0)

        let (image, imageResponse) = try await get(URL(string: "\(app.baseURL)/images/1?_ex=64x64")!)
        #expect(imageResponse.statusCode == 200)
        #expect(Array(image.prefix(3)) == [0xFF, 0xD8, 0xFF])  // an item's picture is a JPEG
        let (photo, _) = try await get(URL(string: "\(app.baseURL)/images/photo-1?_ex=64x64")!)
        #expect(Array(photo.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])  // a photo's a PNG
        await app.stop()
    }

    @Test func writesPersistAcrossRestartsOnTheSameFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-app-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("db.json")
        try Data(#"{"notes": []}"#.utf8).write(to: file)

        let first = try await TetherServerApp.start(.init(data: .file(file)))
        var request = URLRequest(url: URL(string: "\(first.baseURL)/notes")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"text": "remember the milk"}"#.utf8)
        let session = URLSession(configuration: .ephemeral)
        let (_, response) = try await session.data(for: request)
        session.finishTasksAndInvalidate()
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        await first.stop()

        let second = try await TetherServerApp.start(.init(data: .file(file)))
        let (notes, _) = try await get(URL(string: "\(second.baseURL)/notes")!)
        await second.stop()
        let json = try JSON(parsing: Array(notes))
        #expect(json[0]["text"].string == "remember the milk")
    }

    @Test func invalidFileReportsLineAndColumn() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tether-app-\(UUID()).json")
        try Data("{\n  \"posts\": [,]\n}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        await #expect(throws: ServerError.self) { _ = try await TetherServerApp.start(.init(data: .file(file))) }
        #expect(throws: ServerError.self) { _ = try TetherServerApp.openFile(file, writes: .persistent) }
    }

    @Test func portInUseFails() async throws {
        let app = try await TetherServerApp.start(.init())
        let error = await #expect(throws: ServerError.self) {
            _ = try await TetherServerApp.start(.init(port: app.port))
        }
        #expect(error?.code == .addressInUse)
        await app.stop()
    }

    @Test func baseURLs() {
        #expect(TetherServerApp.baseURL(host: "0.0.0.0", port: 8).absoluteString == "http://127.0.0.1:8")
        #expect(TetherServerApp.baseURL(host: "::1", port: 8).absoluteString == "http://[::1]:8")
        #expect(TetherServerApp.isLoopback(host: "127.0.0.1"))
        #expect(!TetherServerApp.isLoopback(host: "0.0.0.0"))
    }
}

/// Percent-encoding for a query value (everything outside the unreserved set).
enum HTTPTargetEncoding {
    static func encode(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}
