import Foundation
import Testing
import TetherServer
import TetherTestSupport

@testable import TetherCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tether serve` as its own process (the open-file limit of one process is too small for both ends) holding
/// 10,000 connections that send nothing, while new clients are served; and `--max-connections`.
@Suite(.serialized) struct HeldConnectionsTests {
    /// Runs blocking `body` on a thread of its own, off the concurrency pool.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// A blocking loopback connection to `port`, or -1.
    private static func connectTo(_ port: Int) -> Int32 { connectToLoopback(port: port) ?? -1 }

    /// Sends a GET for `path` on `fd` with `Connection: close` and reads to the end (5 s at most); the status
    /// line, or "" when nothing came.
    private static func get(_ path: String, on fd: Int32) -> String {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return "" }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        return text.split(separator: "\r\n").first.map(String.init) ?? ""
    }

    /// The resident memory of process `pid` in KB (`VmRSS`), or nil.
    private static func residentKB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ")[1])
    }

    private static func startServer(_ tether: String, _ extra: [String], in folder: URL) throws -> (ChildProcess, Int) {
        let port = try CrashSafetyTests.freePort()
        var environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let server = try ChildProcess(
            tether, ["serve", "--port", String(port), "--no-rate-limit"] + extra, environment: environment,
            outputIn: folder)
        try CrashSafetyTests.waitForPort(port, server: server)
        return (server, port)
    }

    @Test(
        .timeLimit(.minutes(3)),
        .enabled(if: TmuxSession.tether != nil, "needs the tether executable built beside the tests"))
    func tenThousandIdleConnectionsDoNotKeepNewClientsOut() async throws {
        let tether = try #require(TmuxSession.tether)
        let held = 10_000
        try #require(OpenFileLimit.raiseToHardLimit() > held + 500, "the open-file hard limit is too low for this test")
        let report = try await onThread { () -> (statuses: [String], late: String, perConnection: Int?) in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-held-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (server, port) = try Self.startServer(tether, [], in: folder)
            defer {
                kill(server.pid, SIGTERM)
                _ = server.wait()
            }
            // Warm up (the data set, the first responses) before measuring memory.
            for _ in 0..<20 {
                let fd = Self.connectTo(port)
                _ = Self.get("/posts/1", on: fd)
                close(fd)
            }
            let before = Self.residentKB(server.pid)
            var idle: [Int32] = []
            defer { for fd in idle { close(fd) } }
            for _ in 0..<held {
                let fd = Self.connectTo(port)
                guard fd >= 0 else { throw SpawnError(message: "connection \(idle.count) failed: errno \(errno)") }
                idle.append(fd)
            }
            // New clients while the 10,000 are held.
            let statuses = (0..<50).map { _ in
                let fd = Self.connectTo(port)
                defer { close(fd) }
                return fd < 0 ? "refused" : Self.get("/posts?_page=1", on: fd)
            }
            let after = Self.residentKB(server.pid)
            // The first of the held connections is still served.
            let late = Self.get("/posts/1", on: idle[0])
            let perConnection = before.flatMap { before in after.map { ($0 - before) * 1024 / held } }
            return (statuses, late, perConnection)
        }
        #expect(report.statuses == Array(repeating: "HTTP/1.1 200 OK", count: 50), "\(Set(report.statuses))")
        #expect(report.late == "HTTP/1.1 200 OK")
        print("held connections: \(held), server memory per idle connection: \(report.perConnection ?? -1) bytes")
        if let perConnection = report.perConnection {
            #expect(perConnection <= 16 * 1024, "\(perConnection) bytes per idle connection")
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        .enabled(if: TmuxSession.tether != nil, "needs the tether executable built beside the tests"))
    func maxConnectionsSetsTheLimitAndTheLongestIdleMakesRoom() async throws {
        let tether = try #require(TmuxSession.tether)
        let (first, late) = try await onThread { () -> (String, [String]) in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-max-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (server, port) = try Self.startServer(tether, ["--max-connections", "4"], in: folder)
            defer {
                kill(server.pid, SIGTERM)
                _ = server.wait()
            }
            // waitForPort's probe may still hold a place; four idle connections fill the limit.
            let idle = (0..<4).map { _ in Self.connectTo(port) }
            defer { for fd in idle where fd >= 0 { close(fd) } }
            let late = (0..<6).map { _ in
                let fd = Self.connectTo(port)
                defer { close(fd) }
                return Self.get("/posts/1", on: fd)
            }
            // The oldest idle connection was closed to make room: it reads the end at once.
            var byte: UInt8 = 0
            let first = recv(idle[0], &byte, 1, 0) == 0 ? "closed" : "open"
            return (first, late)
        }
        #expect(late == Array(repeating: "HTTP/1.1 200 OK", count: 6))
        #expect(first == "closed")
    }

    @Test func maxConnectionsMustBeAPositiveNumber() throws {
        #expect(try ServeCommand.parse(["--max-connections", "20000"])?.maximumConnections == 20_000)
        #expect(try ServeCommand.parse([])?.maximumConnections == 0)
        for bad in ["0", "-3", "many"] {
            #expect(throws: CLIError.self) { try ServeCommand.parse(["--max-connections", bad]) }
        }
    }
}
