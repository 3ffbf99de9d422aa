import Foundation
import TetherAPIs
import TetherServer

/// A Rakuten application id the local server accepts.
let testApplicationID = "1234567890123456789"

/// A running local server with the built-in data set, and stores over it the way an app makes them.
@MainActor
struct APIServer {
    let app: TetherServerApp

    /// Starts a server on 127.0.0.1 with in-memory writes; its Rakuten rate limit is off unless asked for.
    static func start(rakutenRateLimit: Bool = false) async throws -> APIServer {
        APIServer(app: try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: rakutenRateLimit)))
    }

    func stop() async { await app.stop() }

    /// A Rakuten client for this server, as ``HTTPClient/rakuten(applicationID:baseURL:configure:)`` makes it,
    /// without retries (so a 429 would show); with `rateLimited == false` it does not wait between requests.
    func rakutenClient(applicationID: String? = testApplicationID, rateLimited: Bool = false) -> HTTPClient {
        HTTPClient(baseURL: app.baseURL) {
            $0.useRakuten(applicationID: applicationID, host: app.baseURL.host ?? "127.0.0.1")
            if !rateLimited {
                $0.rateLimits = [:]
            } else {
                // Two seconds between searches rather than Rakuten's 1.1: on a loaded test machine a request can
                // reach the server a few hundred milliseconds late, bringing two closer than a second there.
                $0.rateLimits[app.baseURL.host ?? "127.0.0.1"] = RateLimit(requests: 1, per: .seconds(2))
            }
            $0.retryPolicy = .never
            $0.timeout = .seconds(10)
        }
    }

    /// A store for Rakuten searches.
    func rakutenStore(applicationID: String? = testApplicationID, rateLimited: Bool = false) -> EntityStore {
        EntityStore(
            client: rakutenClient(applicationID: applicationID, rateLimited: rateLimited), configuration: quiet)
    }

    /// A store for the json-server collections; `interceptors` can ask the server for faults.
    func store(interceptors: [any HTTPInterceptor] = []) -> EntityStore {
        let client = HTTPClient(baseURL: app.baseURL) {
            $0.interceptors = interceptors
            $0.retryPolicy = .never
            $0.timeout = .seconds(10)
        }
        return EntityStore(client: client, configuration: quiet)
    }

    /// A plain client, to check what the server has.
    var client: HTTPClient {
        HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
    }

    private var quiet: EntityStore.Configuration {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        return configuration
    }
}

extension RequestDecorator {
    /// Asks the local server to answer requests of `method` with the fault `script` (`"status=500"`).
    static func fault(_ script: String, for method: HTTPMethod) -> RequestDecorator {
        RequestDecorator { request in
            if request.method == method { request.headers.set("X-Tether-Fault", script) }
        }
    }
}
