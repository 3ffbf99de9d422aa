import Foundation
import TetherHTTP
import TetherSync
import TetherTestSupport

/// Collects a client's events, thread safe, and lets a test wait for one.
final class SocketEventLog: HTTPEventMonitor {
    private let storage = Locked<[HTTPEvent]>([])

    func handle(_ event: HTTPEvent) { storage.withLock { $0.append(event) } }

    var events: [HTTPEvent] { storage.withLock { $0 } }

    /// The events as ``ConsoleLogger`` writes them.
    var lines: [String] { events.map(ConsoleLogger.line(for:)) }

    /// The delays of the `.retrying` events, in order.
    var retryDelays: [Duration] {
        events.compactMap { event in
            if case .retrying(_, _, let delay, _) = event { return delay }
            return nil
        }
    }

    /// How many attempts went out (`.started` events).
    var startedCount: Int {
        events.count { event in
            if case .started = event { return true }
            return false
        }
    }

    /// Waits until some event satisfies `matches`; whether one did before `timeout`.
    func wait(timeout: Duration = .seconds(30), for matches: @escaping @Sendable (HTTPEvent) -> Bool) async -> Bool {
        await poll(timeout: timeout) { self.events.contains(where: matches) }
    }
}

/// Collects lines written by a ``ConsoleLogger``, thread safe.
final class SocketLines: Sendable {
    private let storage = Locked<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    /// A logger that writes here.
    var logger: ConsoleLogger { ConsoleLogger { line in self.storage.withLock { $0.append(line) } } }
}

/// A count shared between tasks.
final class SocketCounter: Sendable {
    private let count = Locked(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

/// The calls a completion handler received, thread safe.
final class SocketCompletions<Value: Sendable>: Sendable {
    private let calls = Locked<(results: [Result<Value, HTTPError>], allOnQueue: Bool)>(([], true))

    /// Records one call, and whether it ran on the expected queue.
    func append(_ result: Result<Value, HTTPError>, onQueue: Bool) {
        calls.withLock { calls in
            calls.results.append(result)
            calls.allOnQueue = calls.allOnQueue && onQueue
        }
    }

    var results: [Result<Value, HTTPError>] { calls.withLock { $0.results } }

    /// Whether every call ran on the expected queue.
    var allOnQueue: Bool { calls.withLock { $0.allOnQueue } }
}
