import Foundation
import Testing
import TetherAPIs
import TetherServer
import TetherSync
import TetherTerminal

@testable import TetherCLI

/// The full-screen app on an in-process server, driven key by key, with its frames read as text.
@MainActor
final class AppHarness {
    let server: TetherServerApp
    let environment: APIEnvironment
    let app: TerminalApp
    /// Makes the API client's writes fail while set (`"status=500"`…): an `X-Tether-Fault` for the server.
    let writeFault = WriteFault()
    var width = 80
    var height = 24

    /// Starts a server with the built-in data set (writes in memory) and the app on it.
    init(screen: TerminalApp.ScreenID = .items, colorMode: ColorMode = .monochrome) async throws {
        server = try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: false))
        environment = try await APIEnvironment.start(APIOptions(api: server.baseURL), variables: [:])
        let fault = writeFault
        var configuration = environment.client.configuration
        configuration.interceptors.append(
            RequestDecorator { request in
                guard request.method != .get, let value = fault.value else { return }
                request.headers.set("X-Tether-Fault", value)
            })
        let client = HTTPClient(baseURL: environment.client.baseURL, configuration: configuration)
        let context = AppContext(
            apiClient: client, itemClient: environment.rakuten, serverDescription: environment.serverDescription,
            colorMode: colorMode)
        app = TerminalApp(context: context, initialScreen: screen)
    }

    /// Stops the server.
    func stop() async {
        await environment.stop()
        await server.stop()
    }

    /// The frame the app draws now.
    var screen: String { app.draw(width: width, height: height).text }

    /// The frame the app draws now, as cells.
    var frame: ScreenBuffer { app.draw(width: width, height: height) }

    /// Sends keys.
    func press(_ keys: Key...) {
        for key in keys { app.handle(key) }
    }

    /// Types text, one character key each.
    func type(_ text: String) {
        for character in text { app.handle(.character(character)) }
    }

    /// Waits (up to a generous deadline, so a broken app fails instead of hanging) until the frame satisfies
    /// `condition`, and returns the last frame.
    @discardableResult
    func waitFor(
        _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (String) -> Bool
    ) async -> String {
        // A minute: in a full test run on a busy machine, one request has taken over 10 s.
        let deadline = ContinuousClock.now + .seconds(60)
        var frame = screen
        while !condition(frame) {
            guard ContinuousClock.now < deadline else {
                Issue.record(
                    "timed out waiting for \(description); the screen shows:\n\(frame)", sourceLocation: sourceLocation)
                return frame
            }
            try? await Task.sleep(for: .milliseconds(20))
            frame = screen
        }
        return frame
    }

    /// Waits until the frame contains `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async -> String {
        await waitFor("'\(text)'", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Waits until the notes screen has loaded its list, and returns the frame.
    @discardableResult
    func waitForNotes(sourceLocation: SourceLocation = #_sourceLocation) async -> String {
        await waitFor("the notes", sourceLocation: sourceLocation) { _ in
            self.app.notes.notes.status == .loaded && !self.app.notes.rows.isEmpty
        }
    }

    /// Fetches `path` from the server with a client of its own (what the server really has).
    func serverJSON(_ path: String) async throws -> [String: Any] {
        let data = try await HTTPClient(baseURL: server.baseURL).send(Request<Data>(path: path)).value
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// The fault the harness's writes carry, switched by tests while requests run on other threads.
final class WriteFault: Sendable {
    private let storage = Locked<String?>(nil)

    /// The `X-Tether-Fault` value for writes, `nil` for none.
    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
