internal import Foundation
internal import TetherServer
internal import TetherSync

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `tether-bench server`'s held-connections case: the standard server (``TetherServerApp``, built-in data, no rate
/// limit) runs as a child process, since one process's open-file limit (20,000 here) is too small for both ends of
/// 12,000 connections. The bench opens 12,000 keep-alive connections (1,000 with `--quick`), each sending one
/// `GET /posts/1` and reading its answer, then leaves them idle and measures:
/// - the server's resident memory per held connection: its `VmRSS` with them held, less its `VmRSS` before, over
///   the count (the kernel's socket buffers are not in it);
/// - the latency of 200 new clients, one after another, each opening a connection for one `GET /posts/1`, before
///   and while the connections are held: p50 and p95;
/// - that ten of the held connections still answer a second request (none was closed to make room).
///
/// Prints `server held c<count> <KB-per-connection> <p95-ms>` and `PASS`/`FAIL` against the targets: at most 16 KB
/// per idle connection, and a new client's p95 at most 100 ms with them held.
enum ServerHeldBench {
    /// Runs the case; whether it met its targets (false too when it could not run, with the reason printed).
    static func run(quick: Bool) -> Bool {
        let count = quick ? 1_000 : 12_000
        _ = OpenFileLimit.raiseToHardLimit()
        guard let child = ServerChild.start() else {
            print("server held FAIL: the server's child process did not start")
            return false
        }
        defer { child.stop() }
        let port = child.port
        // Warm the server up (its caches, its loops' buffers), then take the baseline.
        let before = newClientLatencies(port: port, count: 200)
        guard before.count == 200, let rssBefore = residentKilobytes(of: child.pid) else {
            print("server held FAIL: the server did not answer new clients before the connections were held")
            return false
        }
        var held: [ServerWriteBench.Connection] = []
        held.reserveCapacity(count)
        defer { for connection in held { close(connection.fd) } }
        for index in 0..<count {
            guard let connection = ServerWriteBench.Connection(port: port),
                connection.send("GET /posts/1 HTTP/1.1\r\nHost: bench\r\n\r\n"), connection.readResponse()
            else {
                print("server held FAIL: connection \(index + 1) of \(count) was refused or not answered")
                return false
            }
            held.append(connection)
        }
        guard let rssHeld = residentKilobytes(of: child.pid) else {
            print("server held FAIL: cannot read the server's memory")
            return false
        }
        let during = newClientLatencies(port: port, count: 200)
        let stillOpen = held.prefix(10).filter {
            $0.send("GET /posts/1 HTTP/1.1\r\nHost: bench\r\n\r\n") && $0.readResponse()
        }.count
        let perConnection = Double(max(0, rssHeld - rssBefore)) / Double(count)
        let p95 = ServerWriteBench.percentile(during, 0.95)
        Bench.note(
            "# held: server VmRSS \(rssBefore) KB before, \(rssHeld) KB with \(count) held; new clients p50 "
                + "\(format(ServerWriteBench.percentile(before, 0.5))) ms / p95 "
                + "\(format(ServerWriteBench.percentile(before, 0.95))) ms before, p50 "
                + "\(format(ServerWriteBench.percentile(during, 0.5))) ms while held; \(stillOpen) of 10 held answered "
                + "again")
        print("server held c\(count) \(format(perConnection)) KB/connection p95 \(format(p95)) ms")
        guard during.count == 200, stillOpen == 10 else {
            print(
                "server held FAIL: \(200 - during.count) of 200 new clients not answered, \(10 - stillOpen) of 10 "
                    + "held connections closed")
            return false
        }
        let pass = perConnection <= 16 && p95 <= 100
        print(
            "server held \(pass ? "PASS" : "FAIL"): \(format(perConnection)) KB per idle connection (target <= 16), "
                + "new client p95 \(format(p95)) ms with \(count) held (target <= 100)")
        return pass
    }

    /// The child's side (`tether-bench _serve`): starts the server, prints `port <n>` and serves until its standard
    /// input ends.
    static func serveChild() -> Int32 {
        _ = OpenFileLimit.raiseToHardLimit()
        guard let app = runBlocking({ try? await TetherServerApp.start(.init(rakutenRateLimit: false)) }) else {
            return 1
        }
        FileHandle.standardOutput.write(Data("port \(app.port)\n".utf8))
        while FileHandle.standardInput.availableData.count > 0 {}
        runBlocking { await app.stop() }
        return 0
    }

    /// The milliseconds of up to `count` GETs by new clients, one after another (a failed one is left out).
    private static func newClientLatencies(port: Int, count: Int) -> [Double] {
        var times: [Double] = []
        for _ in 0..<count {
            let start = Bench.now()
            guard let connection = ServerWriteBench.Connection(port: port) else { continue }
            defer { close(connection.fd) }
            guard connection.send("GET /posts/1 HTTP/1.1\r\nHost: bench\r\n\r\n"), connection.readResponse() else {
                continue
            }
            times.append((Bench.now() - start) * 1_000)
        }
        return times
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// `VmRSS` of process `pid`, in KB.
    private static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// The server as a child process of this executable.
    private struct ServerChild {
        let process: Process
        let input: Pipe
        let pid: Int32
        let port: Int

        static func start() -> ServerChild? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Bench.selfPath())
            process.arguments = ["_serve"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            do { try process.run() } catch { return nil }
            // The first line is `port <n>`; nothing (the pipe closed) when the server did not start.
            var line: [UInt8] = []
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                guard let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                line.append(first)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)) else {
                process.terminate()
                process.waitUntilExit()
                return nil
            }
            return ServerChild(process: process, input: input, pid: process.processIdentifier, port: port)
        }

        /// Ends the child's standard input (it stops the server and exits) and waits for it.
        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
