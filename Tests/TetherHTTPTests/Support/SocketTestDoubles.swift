import Foundation
import Synchronization
import TetherHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects a client's events, thread safe, and lets a test wait for one.
final class SocketEventLog: HTTPEventMonitor {
    private let storage = Mutex<[HTTPEvent]>([])

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
    func wait(timeout: Duration = .seconds(10), for matches: @escaping @Sendable (HTTPEvent) -> Bool) async -> Bool {
        await poll(timeout: timeout) { self.events.contains(where: matches) }
    }
}

/// Collects lines written by a ``ConsoleLogger``, thread safe.
final class SocketLines: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    /// A logger that writes here.
    var logger: ConsoleLogger { ConsoleLogger { line in self.storage.withLock { $0.append(line) } } }
}

/// Sets the `X-Tether-Fault` header on the first `count` attempts the client makes, so the real server fails
/// those attempts and the client's retries meet a healthy server.
final class FaultOnFirstAttempts: HTTPInterceptor {
    private let script: String
    private let remaining: Mutex<Int>

    init(_ script: String, count: Int = 1) {
        self.script = script
        remaining = Mutex(count)
    }

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        let faulted = remaining.withLock { remaining -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        guard faulted else { return request }
        var request = request
        request.headers.set("X-Tether-Fault", script)
        return request
    }
}

/// A one-shot signal: `wait()` suspends until `open()`. Thread safe.
final class SocketGate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A socket on 127.0.0.1 that listens but never accepts or answers: connections complete in the kernel and
/// requests go unanswered, as with a server that hangs before its first byte.
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc) || canImport(Musl)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw POSIXError(.EIO)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { close(descriptor) }
}

/// Rakuten's error body, `{"error": "wrong_parameter", "error_description": "..."}`, for
/// ``HTTPClient/Configuration/apiErrorDecoder``.
struct RakutenAPIError: Decodable, Error, LocalizedError, Equatable {
    var error: String
    var description: String

    enum CodingKeys: String, CodingKey {
        case error
        case description = "error_description"
    }

    var errorDescription: String? { description }
}

/// A post of the built-in data set.
struct SocketPost: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

/// A post read with the wrong type for `title`, to make decoding fail.
struct PostWithNumericTitle: Decodable, Sendable {
    var id: Int
    var title: Int
}

extension HTTPError {
    /// The status failure, when this is one.
    var statusFailure: HTTPError.StatusFailure? {
        if case .status(let failure) = kind { return failure }
        return nil
    }

    /// The decoding failure, when this is one.
    var decodingFailure: HTTPError.DecodingFailure? {
        if case .decoding(let failure) = kind { return failure }
        return nil
    }

    /// Whether this is a transport failure.
    var isTransport: Bool {
        if case .transport = kind { return true }
        return false
    }
}

/// Sends `request` and returns its error, or `nil` (recording nothing) when it succeeded.
func sendExpectingError<Value>(_ request: Request<Value>, on client: HTTPClient) async -> HTTPError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}

/// A new directory below the system's temporary one, removed when the value goes away.
final class SocketScratchDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The regular files in the directory.
    var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { url.appendingPathComponent($0) }
    }
}

/// A count shared between tasks.
final class SocketCounter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
