import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherServer
import TetherStoreTestSupport

@testable import TetherStore

/// For an app without a database, the HTTP cache's disk tier is its offline copy: a list loaded once is shown again
/// after a restart with the server killed, loaded and offline, from the cache's stale copy (RFC 5861
/// `stale-if-error`, or the client's `maximumStaleOnError`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct CachedOfflineCopyTests {
    /// Answers `GET /posts` with two posts and `cacheControl`, over real sockets.
    struct PostsResponder: HTTPResponder {
        let cacheControl: String

        func respond(to request: HTTPRequest) async -> HTTPResponse? {
            guard request.path == "/posts" else { return nil }
            let body =
                #"[{"userId": 1, "id": 1, "title": "a", "body": ""}, {"userId": 1, "id": 2, "title": "b", "body": ""}]"#
            return HTTPResponse(
                headers: ["Content-Type": "application/json", "Cache-Control": cacheControl, "ETag": #""v1""#],
                body: Array(body.utf8))
        }
    }

    func client(_ baseURL: URL, cache folder: URL, maximumStaleOnError: Duration?) -> HTTPClient {
        HTTPClient(baseURL: baseURL) {
            $0.cache = HTTPCache(configuration: .init(directory: folder))
            $0.retryPolicy = .never
            $0.timeout = .seconds(5)
            $0.maximumStaleOnError = maximumStaleOnError
        }
    }

    func store(_ client: HTTPClient) -> EntityStore {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        return EntityStore(client: client, configuration: configuration)
    }

    /// Loads `/posts` once with the server up, kills it, and loads again in a new store over the same cache
    /// folder; returns the second query.
    func loadAfterTheServerIsKilled(cacheControl: String, maximumStaleOnError: Duration?) async throws
        -> QueryState<Post>
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-cached-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = HTTPServer(responders: [PostsResponder(cacheControl: cacheControl)])
        let port = try await server.start()
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))

        let first = client(baseURL, cache: folder, maximumStaleOnError: maximumStaleOnError)
        let firstStore = store(first)
        let online = firstStore.query(.list("/posts") as Query<Post>)
        await online.load()
        #expect(online.status == .loaded)
        #expect(online.items.map(\.id) == [1, 2])
        #expect(!online.isOffline)
        first.configuration.cache?.flush()

        await server.stop()
        let again = store(client(baseURL, cache: folder, maximumStaleOnError: maximumStaleOnError))
        let offline = again.query(.list("/posts") as Query<Post>)
        await offline.load()
        withExtendedLifetime((firstStore, again)) {}
        return offline
    }

    @Test func withStaleIfErrorTheListIsShownLoadedAndOffline() async throws {
        let offline = try await loadAfterTheServerIsKilled(
            cacheControl: "max-age=0, stale-if-error=86400", maximumStaleOnError: nil)
        #expect(offline.status == .loaded)
        #expect(offline.items.map(\.id) == [1, 2])
        #expect(offline.isOffline)
        #expect(offline.error == nil)
        // Still stale: the next load asks the server again.
        #expect(offline.isStale)
    }

    @Test func withTheClientsMaximumStaleOnErrorAnyStoredListIsShown() async throws {
        let offline = try await loadAfterTheServerIsKilled(
            cacheControl: "max-age=0", maximumStaleOnError: .seconds(86_400))
        #expect(offline.status == .loaded)
        #expect(offline.items.map(\.id) == [1, 2])
        #expect(offline.isOffline)
    }

    @Test(
        arguments: [
            ("max-age=0", nil), ("no-cache", .seconds(86_400)), ("max-age=0, must-revalidate", .seconds(86_400)),
        ] as [(String, Duration?)])
    func otherwiseTheFailureShows(cacheControl: String, maximumStaleOnError: Duration?) async throws {
        let offline = try await loadAfterTheServerIsKilled(
            cacheControl: cacheControl, maximumStaleOnError: maximumStaleOnError)
        #expect(offline.status == .failed)
        #expect(offline.items.isEmpty)
        #expect(offline.isOffline)
        #expect(offline.error != nil)
    }
}
