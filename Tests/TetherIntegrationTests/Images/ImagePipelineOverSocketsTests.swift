import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherTestSupport

@testable import TetherImages

/// The pipeline over real sockets against a TetherServer: decoding and fitting, the memory cache, the HTTP cache's
/// validators, coalescing, cancellation, prefetching and every failure as a typed error.
@Suite(.timeLimit(.minutes(1)))
struct ImagePipelineOverSocketsTests {
    private static let thumb = ImageSize(width: 64, height: 64)

    /// A route serving one JPEG photo at `/photo.jpg`.
    private func photoRoutes() throws -> ImageRoutes {
        let photo = try ImageFixtures.jpegPhoto(width: 400, height: 300)
        return { request, _ in
            request.path == "/photo.jpg" ? imageResponse(photo) : HTTPResponse(status: .notFound)
        }
    }

    @Test func anImageIsDecodedFittedAndThenServedFromMemory() async throws {
        try await withImageServer(try photoRoutes()) { server in
            let pipeline = ImagePipeline()
            let image = try await pipeline.image(for: server.url("/photo.jpg"), size: Self.thumb)
            #expect(image.size == ImageSize(width: 64, height: 48))
            #expect(pipeline.cachedImage(for: server.url("/photo.jpg"), size: Self.thumb) == image)
            let again = try await pipeline.image(for: server.url("/photo.jpg"), size: Self.thumb)
            #expect(again == image)
            #expect(server.counts.count("/photo.jpg") == 1)
            #expect(pipeline.memoryCache.totalCost == 64 * 48 * 4)
        }
    }

    @Test func identicalLoadsShareOneDownloadAndTwoSizesShareTheDownload() async throws {
        // The answer is held until all six callers wait (three on each size's decode), however slow the machine.
        let gate = Gate()
        defer { gate.open() }
        try await withImageServer(heldImageRoutes(try ImageFixtures.jpegPhoto(width: 400, height: 300), until: gate)) {
            server in
            let pipeline = ImagePipeline()
            let url = server.url("/photo.jpg")
            let images = try await withThrowingTaskGroup(of: RGBAImage.self) { group in
                for index in 0..<6 {
                    let size = index % 2 == 0 ? Self.thumb : ImageSize(width: 128, height: 128)
                    group.addTask { try await pipeline.image(for: url, size: size) }
                }
                #expect(await poll { pipeline.decodes.waiterCount == 6 })
                #expect(pipeline.decodes.count == 2)  // one decode per size
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(images.count == 6)
            #expect(Set(images.map(\.width)) == [64, 128])
            #expect(server.counts.count("/photo.jpg") == 1)
            #expect(pipeline.decodes.count == 0 && pipeline.downloads.count == 0)
        }
    }

    @Test func aCallerLeavingDoesNotCancelAnotherCallersLoad() async throws {
        let gate = Gate()
        defer { gate.open() }  // whatever the test does, no answer stays held
        let photo = try ImageFixtures.jpegPhoto(width: 200, height: 200)
        let routes = heldImageRoutes(photo, until: gate)
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/slow.jpg")
            let leaving = pipeline.task(for: url, size: Self.thumb)
            let staying = pipeline.task(for: url, size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            leaving.cancel()
            await #expect {
                try await leaving.image
            } throws: { error in
                (error as? ImageError)?.kind == .cancelled
            }
            gate.open()
            let image = try await staying.image
            #expect(image.size == ImageSize(width: 64, height: 64))
            #expect(server.counts.count("/slow.jpg") == 1)
        }
    }

    @Test func theLastCallerLeavingCancelsTheLoad() async throws {
        let gate = Gate()
        defer { gate.open() }  // whatever the test does, no answer stays held
        let photo = try ImageFixtures.jpegPhoto(width: 200, height: 200)
        let routes = heldImageRoutes(photo, until: gate)
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let task = pipeline.task(for: server.url("/slow.jpg"), size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            task.cancel()
            await #expect(throws: ImageError.self) { try await task.image }
            #expect(await poll { pipeline.decodes.count == 0 && pipeline.downloads.count == 0 })
            gate.open()
            // A new load starts afresh.
            let image = try await pipeline.image(for: server.url("/slow.jpg"), size: Self.thumb)
            #expect(image.width == 64)
            #expect(server.counts.count("/slow.jpg") == 2)
        }
    }

    @Test func theOriginalBytesAreRevalidatedThroughTheHTTPCache() async throws {
        let photo = try ImageFixtures.jpegPhoto(width: 100, height: 100)
        let routes: ImageRoutes = { request, _ in
            if request.headers["If-None-Match"] == "\"v1\"" {
                return HTTPResponse(status: .notModified, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"])
            }
            return imageResponse(photo, cacheControl: "max-age=0")
        }
        try await withImageServer(routes) { server in
            let client = HTTPClient(baseURL: nil) { $0.cache = HTTPCache() }
            let pipeline = ImagePipeline {
                $0.client = client
                $0.memoryCostLimit = 0
            }
            let url = server.url("/photo.jpg")
            let first = try await pipeline.image(for: url, size: Self.thumb)
            let second = try await pipeline.image(for: url, size: Self.thumb)
            #expect(first == second)
            let requests = server.counts.requests("/photo.jpg")
            #expect(requests.count == 2)
            #expect(requests.last?.headers["If-None-Match"] == "\"v1\"")
        }
    }

    @Test func aPrefetchFillsTheMemoryCache() async throws {
        try await withImageServer(try photoRoutes()) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/photo.jpg")
            pipeline.prefetch([url], size: Self.thumb)
            #expect(await poll { pipeline.cachedImage(for: url, size: Self.thumb) != nil })
            #expect(await poll { pipeline.prefetchCount == 0 })
            _ = try await pipeline.image(for: url, size: Self.thumb)
            #expect(server.counts.count("/photo.jpg") == 1)
        }
    }

    @Test func failuresAreTypedErrors() async throws {
        let photo = try ImageFixtures.jpegPhoto(width: 300, height: 300)
        let bomb = ImageFixtures.patchingJPEGSize(photo, width: 30000, height: 30000)
        let routes: ImageRoutes = { request, _ in
            switch request.path {
            case "/html": HTTPResponse(headers: ["Content-Type": "text/html"], body: Array("<html></html>".utf8))
            case "/truncated": imageResponse(photo.prefix(photo.count / 2))
            case "/text-bytes": imageResponse(Data("not an image".utf8), type: "image/png")
            case "/bomb": imageResponse(bomb)
            default:
                HTTPResponse(status: .notFound, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
            }
        }
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline { $0.maximumPixelCount = 1_000_000 }
            func kind(_ path: String) async -> ImageError.Kind? {
                do {
                    _ = try await pipeline.image(for: server.url(path), size: Self.thumb)
                    return nil
                } catch {
                    #expect(error.url == server.url(path))
                    return error.kind
                }
            }
            #expect(await kind("/missing") == .status(404))
            #expect(await kind("/html") == .wrongContentType("text/html"))
            #expect(await kind("/text-bytes") == .unsupportedFormat)
            #expect(await kind("/bomb") == .tooManyPixels(width: 30000, height: 30000, limit: 1_000_000))
            guard case .invalidData = await kind("/truncated") else {
                Issue.record("a truncated JPEG was not invalid data")
                return
            }
        }
    }

    @Test func fileURLsAreReadFromDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-images-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.png")
        try ImageFixtures.pngPhoto(width: 90, height: 60).write(to: file)
        let pipeline = ImagePipeline()
        #expect(try await pipeline.image(for: file, size: Self.thumb).size == ImageSize(width: 64, height: 43))
        await #expect {
            try await pipeline.image(for: directory.appendingPathComponent("none.png"), size: Self.thumb)
        } throws: { error in
            (error as? ImageError)?.kind == .unreadableFile
        }
    }
}
