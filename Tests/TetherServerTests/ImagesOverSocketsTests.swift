import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// The generated thumbnails over real sockets: a valid JPEG (items) or PNG (photos) of the asked size, validators, caching headers,
/// errors, and the image URLs the search results and the built-in photos hand out.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ImagesOverSocketsTests {
    private func withImageServer<Value>(_ body: (LiveServer) async throws -> Value) async throws -> Value {
        let search = RakutenSearchResponder(catalog: try await builtInCatalog(), configuration: .init(rateLimit: nil))
        return try await withLiveServer(responders: [search, ImageResponder()], body)
    }

    /// The PNG signature, then the IHDR chunk's width and height (the first chunk, as PNG requires).
    private func pngSize(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> (Int, Int)? {
        guard bytes.count > 33, Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            Array(bytes[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8)
        else {
            Issue.record("not a PNG starting with IHDR", sourceLocation: sourceLocation)
            return nil
        }
        func uint32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        // The last chunk is an empty IEND.
        #expect(Array(bytes.suffix(12).prefix(8)) == [0, 0, 0, 0] + Array("IEND".utf8), sourceLocation: sourceLocation)
        return (uint32(16), uint32(20))
    }

    @Test(arguments: [
        ("?_ex=128x128", 128, 128), ("?_ex=64x64", 64, 64), ("", 128, 128), ("?_ex=300x150", 300, 150),
        ("?_ex=1x2000", 16, 1024),
    ])
    func aJPEGOfTheAskedSize(query: String, width: Int, height: Int) async throws {
        let response = try await withImageServer { server in try await server.get("/images/42" + query) }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(response.header("Content-Length") == "\(response.body.count)")
        #expect(response.header("Cache-Control") == "public, max-age=86400")
        let tag = try #require(response.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
        let size = try #require(ImageResponderTests.jpegSize(response.body))
        #expect(size == (width, height))
    }

    @Test func entityTagsGive304AndDifferPerImage() async throws {
        try await withImageServer { server in
            let first = try await server.get("/images/9?_ex=64x64")
            let tag = try #require(first.header("ETag"))
            for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let cached = try await server.get("/images/9?_ex=64x64", headers: [("If-None-Match", header)])
                #expect(cached.status == 304, "\(header)")
                #expect(cached.body.isEmpty)
                #expect(cached.header("ETag") == tag)
                #expect(cached.header("Cache-Control") == "public, max-age=86400")
            }
            #expect(
                try await server.get("/images/9?_ex=64x64", headers: [("If-None-Match", "\"other\"")]).status == 200)
            // The same request gives the same bytes; another size or id is another image with another tag.
            let again = try await server.get("/images/9?_ex=64x64")
            #expect(again.body == first.body && again.header("ETag") == tag)
            let bigger = try await server.get("/images/9?_ex=65x64", headers: [("If-None-Match", tag)])
            #expect(bigger.status == 200 && bigger.header("ETag") != tag)
            let other = try await server.get("/images/10?_ex=64x64")
            #expect(other.body != first.body && other.header("ETag") != tag)
        }
    }

    @Test func badSizesAre400AndUnknownIDs404() async throws {
        try await withImageServer { server in
            for ex in ["abc", "128", "128x", "-1x10", "12x12x12", "1e3x10"] {
                let response = try await server.get("/images/1?_ex=\(ex)")
                #expect(response.status == 400, "\(ex)")
                #expect(response.json?["error"].string == "invalid_size", "\(ex)")
                #expect(response.json?["message"].string?.isEmpty == false, "\(ex)")
            }
            for id in ["0", "10001", "abc", "1-4", "photo-0", "photo-5001"] {
                let response = try await server.get("/images/\(id)")
                #expect(response.status == 404, "\(id)")
                #expect(response.text == "{}", "\(id)")
            }
            for id in ["1", "10000", "7-2", "7-3", "photo-1", "photo-5000"] {
                let response = try await server.get("/images/\(id)?_ex=16x16")
                #expect(response.status == 200, "\(id)")
                let size = id.hasPrefix("photo-") ? pngSize(response.body) : ImageResponderTests.jpegSize(response.body)
                #expect(size.map { $0 == (16, 16) } == true, "\(id)")
            }
            let post = try await server.send("POST", "/images/1", body: "{}")
            #expect(post.status == 405)
            #expect(post.json?["error"].string != nil)
            let head = try await server.send("HEAD", "/images/1?_ex=32x32")
            let get = try await server.get("/images/1?_ex=32x32")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Length") == "\(get.body.count)")
        }
    }

    @Test func imageURLsOfSearchResultsAreServed() async throws {
        try await withImageServer { server in
            let search = try await server.get(
                "/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=camera&hits=2&formatVersion=2")
            let item = try #require(search.json?["Items"][0])
            for (field, side) in [("mediumImageUrls", 128), ("smallImageUrls", 64)] {
                let url = try #require(item[field][0].string)
                #expect(url.hasPrefix(server.base))
                let image = try await server.get(String(url.dropFirst(server.base.count)))
                #expect(image.status == 200, "\(url)")
                #expect(image.header("Content-Type") == "image/jpeg")
                #expect(ImageResponderTests.jpegSize(image.body).map { $0 == (side, side) } == true, "\(url)")
            }
        }
    }

    @Test func builtInPhotosPointAtThisServersImages() async throws {
        try await withLiveApp(.init(rakutenRateLimit: false)) { server, _ in
            let photo = try await server.get("/photos/1")
            let url = try #require(photo.json?["url"].string)
            let thumbnail = try #require(photo.json?["thumbnailUrl"].string)
            for link in [url, thumbnail] {
                #expect(link.hasPrefix("\(server.base)/images/photo-1"), "\(link)")
                let image = try await server.get(String(link.dropFirst(server.base.count)))
                #expect(image.status == 200, "\(link)")
                #expect(image.header("Content-Type") == "image/png")
                #expect(pngSize(image.body) != nil)
            }
        }
    }
}
