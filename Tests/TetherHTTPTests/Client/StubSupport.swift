import Foundation
import TetherHTTP
import TetherHTTPTesting
import TetherSync

let stubBase = URL(string: "https://api.example.com/v1")!

/// A client over `stub` with fast retries.
func makeClient(
    _ stub: StubTransport, configure: (inout HTTPClient.Configuration) -> Void = { _ in }
) -> HTTPClient {
    HTTPClient(baseURL: stubBase) {
        $0.transport = stub
        $0.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1), jitter: 0)
        configure(&$0)
    }
}

struct Note: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

/// Counts calls, thread safe.
final class Counter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Collects events, thread safe.
final class EventLog: HTTPEventMonitor {
    private let storage = Locked<[HTTPEvent]>([])
    func handle(_ event: HTTPEvent) { storage.withLock { $0.append(event) } }
    var events: [HTTPEvent] { storage.withLock { $0 } }
    var lines: [String] { events.map(ConsoleLogger.line(for:)) }
}

extension HTTPError {
    var isTimeout: Bool {
        if case .timeout = kind { return true }
        return false
    }
}
