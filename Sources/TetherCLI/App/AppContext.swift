import Foundation
import TetherAPIs
import TetherHTTP
import TetherImages
import TetherStore
import TetherTerminal

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
    /// The item pictures, drawn in `colorMode` (none under ``ColorMode/monochrome``).
    let thumbnails: Thumbnails

    /// A context whose stores use copies of `apiClient` and `itemClient` that report to ``activity``, in memory,
    /// and whose pictures are drawn for a terminal of `colorMode` (none by default, as in tests that compare text)
    /// with `imagePipeline` (one caching in memory only by default).
    convenience init(
        apiClient: HTTPClient, itemClient: HTTPClient, serverDescription: String,
        colorMode: ColorMode = .monochrome, imagePipeline: ImagePipeline = ImagePipeline()
    ) {
        let activity = AppActivity()
        let monitor = ActivityMonitor(activity: activity)
        self.init(
            store: EntityStore(client: Self.client(apiClient, reportingTo: monitor)),
            itemStore: EntityStore(client: Self.client(itemClient, reportingTo: monitor)),
            serverDescription: serverDescription, activity: activity,
            thumbnails: Thumbnails(pipeline: imagePipeline, colorMode: colorMode))
    }

    /// A context whose stores keep their lists and the outbox of writes in the databases at `apiDatabase` and
    /// `itemDatabase` (`nil`: in memory), opened off the main actor.
    static func open(
        apiClient: HTTPClient, itemClient: HTTPClient, serverDescription: String, apiDatabase: URL?,
        itemDatabase: URL?, colorMode: ColorMode = .monochrome, imagePipeline: ImagePipeline = ImagePipeline()
    ) async -> AppContext {
        let activity = AppActivity()
        let monitor = ActivityMonitor(activity: activity)
        let store = await EntityStore.open(client: client(apiClient, reportingTo: monitor), databaseURL: apiDatabase)
        let itemStore = await EntityStore.open(
            client: client(itemClient, reportingTo: monitor), databaseURL: itemDatabase)
        return AppContext(
            store: store, itemStore: itemStore, serverDescription: serverDescription, activity: activity,
            thumbnails: Thumbnails(pipeline: imagePipeline, colorMode: colorMode))
    }

    private init(
        store: EntityStore, itemStore: EntityStore, serverDescription: String, activity: AppActivity,
        thumbnails: Thumbnails
    ) {
        self.store = store
        self.itemStore = itemStore
        self.serverDescription = serverDescription
        self.activity = activity
        self.thumbnails = thumbnails
    }

    private static func client(_ client: HTTPClient, reportingTo monitor: ActivityMonitor) -> HTTPClient {
        var configuration = client.configuration
        configuration.monitors.append(monitor)
        return HTTPClient(baseURL: client.baseURL, configuration: configuration)
    }
}
