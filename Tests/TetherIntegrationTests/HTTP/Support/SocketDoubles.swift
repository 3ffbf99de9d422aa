import Foundation
import TetherHTTP
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sets the `X-Tether-Fault` header on the first `count` attempts the client makes, so the real server fails
/// those attempts and the client's retries meet a healthy server.
final class FaultOnFirstAttempts: HTTPInterceptor {
    private let script: String
    private let remaining: Locked<Int>

    init(_ script: String, count: Int = 1) {
        self.script = script
        remaining = Locked(count)
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
