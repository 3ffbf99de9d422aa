import CPNG
import CZlib
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The thumbnail route: JPEG product pictures for items, PNGs for photos, of the asked size; validators and errors.
@Suite struct ImageResponderTests {
    let responder = ImageResponder()

    /// A PNG parsed back: its chunks (CRCs checked) and the inflated scanlines.
    struct ParsedPNG {
        var width: Int
        var height: Int
        var chunkTypes: [String]
        var scanlines: [UInt8]
    }

    private func parse(_ png: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedPNG {
        #expect(
            Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], sourceLocation: sourceLocation)
        func uint32(_ at: Int) -> Int {
            Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
        }
        var offset = 8
        var types: [String] = []
        var header: [UInt8] = []
        var idat: [UInt8] = []
        while offset < png.count {
            let length = uint32(offset)
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let crc = typeAndData.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            #expect(
                UInt32(uint32(offset + 8 + length)) == crc, "CRC of chunk \(types.count)",
                sourceLocation: sourceLocation)
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            types.append(type)
            if type == "IHDR" { header = Array(typeAndData.dropFirst(4)) }
            if type == "IDAT" { idat += typeAndData.dropFirst(4) }
            offset += 12 + length
        }
        #expect(offset == png.count, sourceLocation: sourceLocation)
        try #require(header.count == 13)
        let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        let height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        #expect(Array(header[8...]) == [8, 2, 0, 0, 0], sourceLocation: sourceLocation)
        let expected = height * (width * 3 + 1)
        var size = uLongf(expected + 16)
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        #expect(status == Z_OK, sourceLocation: sourceLocation)
        #expect(Int(size) == expected, sourceLocation: sourceLocation)
        return ParsedPNG(width: width, height: height, chunkTypes: types, scanlines: Array(output.prefix(Int(size))))
    }

    /// The RGB pixels of a PNG of `width` × `height` without alpha, read by libpng.
    private func decodeRGB(_ png: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let decoder = try #require(tether_png_decoder_create())
        defer { tether_png_decoder_destroy(decoder) }
        return try png.withUnsafeBufferPointer { buffer in
            try #require(tether_png_decoder_begin(decoder, buffer.baseAddress, buffer.count, 4_096, 1) == 0)
            try #require(decoder.pointee.channels == 3)
            try #require(Int(decoder.pointee.width) == width && Int(decoder.pointee.height) == height)
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            try #require(tether_png_decoder_read(decoder, &rgb, width * 3) == 0)
            return rgb
        }
    }

    private func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        try #require(await responder.respond(to: HTTPRequest(method: .get, target: target, headers: headers)))
    }

    @Test(arguments: [("?_ex=128x128", 128, 128), ("?_ex=64x64", 64, 64), ("", 128, 128), ("?_ex=300x150", 300, 150)])
    func servesAPNGOfTheAskedSizeForAPhoto(query: String, width: Int, height: Int) async throws {
        let response = try await get("/images/photo-42" + query)
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(response.headers["Cache-Control"] == "public, max-age=86400")
        let png = try parse(try #require(response.bodyBytes))
        #expect(png.width == width && png.height == height)
        #expect(png.chunkTypes == ["IHDR", "IDAT", "IEND"])
        // libpng reads it back as RGB, and the picture is not one flat colour.
        let pixels = try decodeRGB(try #require(response.bodyBytes), width: width, height: height)
        #expect(Array(pixels[0..<3]) != Array(pixels[(pixels.count - 3)...]))
    }

    @Test func sizesAreClamped() async throws {
        let tiny = try parse(try #require(try await get("/images/photo-1?_ex=1x2000").bodyBytes))
        #expect(tiny.width == 16 && tiny.height == 1024)
    }

    @Test(arguments: ["abc", "128", "128x", "x128", "-1x10", "12x12x12", "1e3x10"])
    func malformedSizesAre400(ex: String) async throws {
        let response = try await get("/images/1?_ex=" + ex)
        #expect(response.status.code == 400)
        let body = try JSON(parsing: try #require(response.bodyBytes))
        #expect(body["error"].string == "invalid_size")
    }

    @Test(arguments: ["0", "10001", "abc", "1-4", "1-1", "photo-0", "photo-5001", "-1", "photo-", "1-2-3"])
    func unknownIDsAre404(id: String) async throws {
        let response = try await get("/images/" + id)
        #expect(response.status.code == 404)
        #expect(response.bodyBytes == Array("{}".utf8))
    }

    @Test func knownIDKinds() async throws {
        for id in ["1", "10000", "7-2", "7-3", "photo-1", "photo-5000"] {
            #expect(try await get("/images/\(id)?_ex=16x16").status.code == 200, "\(id)")
        }
        #expect(await responder.respond(to: HTTPRequest(method: .get, target: "/imagesx/1")) == nil)
        #expect(await responder.respond(to: HTTPRequest(method: .get, target: "/images/1/2")) == nil)
        let post = try #require(await responder.respond(to: HTTPRequest(method: .post, target: "/images/1")))
        #expect(post.status.code == 405)
    }

    /// The width and height in a JPEG's first start-of-frame marker.
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if (0xC0...0xC2).contains(marker) {
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return (width, height)
            }
            offset += 2 + length
        }
        return nil
    }

    @Test(arguments: [("?_ex=128x128", 128, 128), ("?_ex=64x64", 64, 64), ("", 128, 128), ("?_ex=600x600", 600, 600)])
    func servesAJPEGProductPictureForAnItem(query: String, width: Int, height: Int) async throws {
        let response = try await get("/images/42" + query)
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"] == "image/jpeg")
        #expect(response.headers["Cache-Control"] == "public, max-age=86400")
        let bytes = try #require(response.bodyBytes)
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        let size = try #require(Self.jpegSize(bytes))
        #expect(size == (width, height))
    }

    @Test func productPicturesFollowTheGenreAndDifferPerItem() {
        // Items 1 and 21 are both laptops (20 genres): the same shapes, their own colours.
        let first = ProductPictureRenderer.render(id: "1", width: 32, height: 32)
        let sameGenre = ProductPictureRenderer.render(id: "21", width: 32, height: 32)
        let otherGenre = ProductPictureRenderer.render(id: "2", width: 32, height: 32)
        #expect(first == ProductPictureRenderer.render(id: "1", width: 32, height: 32))
        #expect(first != sameGenre && first != otherGenre)
        #expect(first.count == 32 * 32 * 3)
        // Not one flat colour: the product stands out from its background.
        let corner = Array(first[0..<3])
        let centre = Array(first[((16 * 32 + 16) * 3)..<((16 * 32 + 16) * 3 + 3)])
        #expect(corner != centre)
        // A second picture of an item is another framing.
        #expect(ProductPictureRenderer.render(id: "1-2", width: 32, height: 32) != first)
    }

    @Test func deterministicAndDistinctPerID() async throws {
        let first = try await get("/images/5?_ex=32x32")
        let again = await ImageResponder(cacheCapacity: 0).respond(
            to: HTTPRequest(method: .get, target: "/images/5?_ex=32x32"))
        #expect(first.bodyBytes == again?.bodyBytes)
        #expect(first.headers["ETag"] == again?.headers["ETag"])
        let other = try await get("/images/6?_ex=32x32")
        #expect(other.bodyBytes != first.bodyBytes)
        #expect(other.headers["ETag"] != first.headers["ETag"])
    }

    @Test func etagAndIfNoneMatch() async throws {
        let response = try await get("/images/9?_ex=64x64")
        let etag = try #require(response.headers["ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        for header in [etag, "\"nope\", \(etag)", "W/\(etag)", "*"] {
            let cached = try await get("/images/9?_ex=64x64", headers: ["If-None-Match": header])
            #expect(cached.status.code == 304, "\(header)")
            #expect(cached.bodyBytes == [])
            #expect(cached.headers["ETag"] == etag)
        }
        let changed = try await get("/images/9?_ex=64x64", headers: ["If-None-Match": "\"other\""])
        #expect(changed.status.code == 200)
        // Another size is another representation with another tag.
        let bigger = try await get("/images/9?_ex=65x64", headers: ["If-None-Match": etag])
        #expect(bigger.status.code == 200)
    }

    @Test func cacheIsBounded() {
        let cache = ImageCache(capacity: 2)
        for id in ["a", "b", "c"] {
            cache.store(.init(bytes: [1], contentType: "image/png", etag: id), for: .init(id: id, width: 1, height: 1))
        }
        #expect(cache.count == 2)
        #expect(cache.entry(for: .init(id: "a", width: 1, height: 1)) == nil)
        #expect(cache.entry(for: .init(id: "c", width: 1, height: 1))?.etag == "c")
    }

    @Test func catalogImageURLsAreServed() async throws {
        let answer = try await rakutenSearch([("applicationId", "1"), ("keyword", "camera"), ("formatVersion", "2")])
        let url = try #require(answer.body["Items"][0]["mediumImageUrls"][0].string)
        let target = String(url.dropFirst("http://127.0.0.1:3000".count))
        let jpeg = try #require(try await get(target).bodyBytes)
        #expect(Self.jpegSize(jpeg).map { $0 == (128, 128) } == true)
    }
}
