import Foundation
import TetherServer
import TetherStore
import TetherStoreTestSupport
import TetherSync

/// A Rakuten item, formatVersion 2.
struct Item: RemoteEntity {
    static let collectionPath = "/items"
    var id: String { itemCode }
    var itemCode: String
    var itemName: String
    var itemPrice: Int
}

struct SearchPage: Decodable, Sendable {
    var page: Int
    var pageCount: Int
    var items: [Item]

    enum CodingKeys: String, CodingKey {
        case page, pageCount
        case items = "Items"
    }
}

extension Query where Entity == Item {
    static func search(_ keyword: String, fault: String? = nil) -> Query<Item> {
        .numberedPages(key: "search?\(keyword)") { client, page throws(HTTPError) in
            var query: [(name: String, value: String?)] = [
                ("applicationId", "1234567890123456789"), ("keyword", keyword), ("formatVersion", "2"),
                ("hits", "30"), ("page", String(page)),
            ]
            if let fault { query.append(("_fault", fault)) }
            let response = try await client.send(
                Request<SearchPage>(path: "/services/api/IchibaItem/Search/20220601", query: query))
            return (response.value.items, response.value.pageCount)
        }
    }
}

/// Adds `X-Tether-Fault` to requests of the given method while set: the test asks the server for a failure.
final class FaultSwitch: HTTPInterceptor {
    private let state = Locked<(method: HTTPMethod, script: String)?>(nil)

    func set(_ script: String, for method: HTTPMethod) { state.withLock { $0 = (method, script) } }
    func clear() { state.withLock { $0 = nil } }

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        guard let (method, script) = state.withLock({ $0 }), method == request.method else { return request }
        var request = request
        request.headers.set("X-Tether-Fault", script)
        return request
    }
}

/// Counts requests by their access-log line prefix (`METHOD target`).
final class ServerAccessLog: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    func count(prefix: String) -> Int { lines.withLock { $0.filter { $0.hasPrefix(prefix) }.count } }

    /// ``count(prefix:)`` once the server has caught up. The server writes a request's line after sending its
    /// response, so a test that already has the answer can look before the line is there (seen under
    /// ThreadSanitizer on a loaded machine). Waits until at least `atLeast` lines match (for up to 10 s), then until
    /// no line of any kind has arrived for 200 ms, and counts.
    func settledCount(prefix: String, atLeast: Int = 0) async -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        while count(prefix: prefix) < atLeast, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        var seen = all().count
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(200))
            let now = all().count
            if now == seen { break }
            seen = now
        }
        return count(prefix: prefix)
    }
    func all() -> [String] { lines.withLock { $0 } }
}

/// A running server with the built-in data set, a store over it and a plain client to check the server's side.
@MainActor
struct StoreHarness {
    let app: TetherServerApp
    let store: EntityStore
    let client: HTTPClient
    let faults: FaultSwitch
    let log: ServerAccessLog

    static func start(
        coalescing: Bool = true, configure: (inout EntityStore.Configuration) -> Void = { _ in }
    ) async throws -> StoreHarness {
        let log = ServerAccessLog()
        let app = try await TetherServerApp.start(
            .init(writes: .inMemory, rakutenRateLimit: false, accessLog: { log.record($0) }))
        let faults = FaultSwitch()
        let client = HTTPClient(baseURL: app.baseURL) {
            $0.interceptors = [faults]
            $0.retryPolicy = .never
            $0.coalescesRequests = coalescing
            $0.timeout = .seconds(10)
        }
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configure(&configuration)
        let store = EntityStore(client: client, configuration: configuration)
        let plain = HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
        return StoreHarness(app: app, store: store, client: plain, faults: faults, log: log)
    }

    func stop() async { await app.stop() }

    /// The note as the server has it now.
    func serverNote(_ id: Int) async throws -> Note {
        try await client.send(Request<Note>(path: "/notes/\(id)")).value
    }
}

struct Todo: RemoteEntity {
    static let collectionPath = "/todos"
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}
