import Foundation
import TetherAPIs
import TetherHTTP
import TetherStore

/// What every screen of the app shares: the stores, the server in use and the request activity.
///
/// Two stores, because item search and the REST resources may talk to different hosts: the Rakuten API (or
/// the server standing in for it) and a json-server-style API. Both watch their requests through one
/// ``AppActivity``.
@MainActor
final class AppContext {
    /// Posts, users, comments and notes.
    let store: EntityStore
    /// Rakuten item searches.
    let itemStore: EntityStore
    /// What the status bar says about the server: `"embedded 127.0.0.1:43121"`.
    let serverDescription: String
    /// Requests in flight and the last one, for the status bar.
    let activity: AppActivity
    /// Counts animation frames, for spinners; advanced by the runner while something is loading.
    var tick = 0

    /// A context whose stores use copies of `apiClient` and `itemClient` that report to ``activity``, in memory.
    convenience init(apiClient: HTTPClient, itemClient: HTTPClient, serverDescription: String) {
        let activity = AppActivity()
        let monitor = ActivityMonitor(activity: activity)
        self.init(
            store: EntityStore(client: Self.client(apiClient, reportingTo: monitor)),
            itemStore: EntityStore(client: Self.client(itemClient, reportingTo: monitor)),
            serverDescription: serverDescription, activity: activity)
    }

    /// A context whose stores keep their lists and the outbox of writes in the databases at `apiDatabase` and
    /// `itemDatabase` (`nil`: in memory), opened off the main actor.
    static func open(
        apiClient: HTTPClient, itemClient: HTTPClient, serverDescription: String, apiDatabase: URL?,
        itemDatabase: URL?
    ) async -> AppContext {
        let activity = AppActivity()
        let monitor = ActivityMonitor(activity: activity)
        let store = await EntityStore.open(client: client(apiClient, reportingTo: monitor), databaseURL: apiDatabase)
        let itemStore = await EntityStore.open(
            client: client(itemClient, reportingTo: monitor), databaseURL: itemDatabase)
        return AppContext(store: store, itemStore: itemStore, serverDescription: serverDescription, activity: activity)
    }

    private init(store: EntityStore, itemStore: EntityStore, serverDescription: String, activity: AppActivity) {
        self.store = store
        self.itemStore = itemStore
        self.serverDescription = serverDescription
        self.activity = activity
    }

    private static func client(_ client: HTTPClient, reportingTo monitor: ActivityMonitor) -> HTTPClient {
        var configuration = client.configuration
        configuration.monitors.append(monitor)
        return HTTPClient(baseURL: client.baseURL, configuration: configuration)
    }
}
