internal import Foundation
internal import TetherServer
internal import TetherSync

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `tether-bench server`: the standard server (``TetherServerApp``, built-in data, no rate limit, no log) against
/// nginx serving the same bytes as static files, both loaded by `wrk -t2 --latency` at 32 and at 256 connections
/// in five alternating 2 s rounds per case (one with `--quick`), so that load from other processes falls on both
/// alike. Prints `server <side> <route> c<connections> <req/s> <ratio-vs-nginx> <p99-ms> <rss-MB>` per case (the
/// median rate over the rounds; the ratio is the median of the per-round ratios, which go to standard error) and
/// a summary; the target is at least nginx's throughput (1.0x) in every case. Any non-2xx answer or socket error
/// wrk reports fails the run. When wrk or nginx is missing and cannot be installed, `--check` fails; without it
/// the area prints SKIP and exits 0.
enum ServerBench {
    /// One wrk run's figures.
    struct Figures {
        var requestsPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        /// wrk's "Non-2xx or 3xx responses" count.
        var non2xx = 0
        /// wrk's socket errors (connect, read, write, timeout), summed.
        var socketErrors = 0

        /// The median of each figure over several runs; the failures summed.
        static func median(_ runs: [Figures]) -> Figures {
            Figures(
                requestsPerSecond: Bench.median(runs.map(\.requestsPerSecond)),
                p50Milliseconds: Bench.median(runs.map(\.p50Milliseconds)),
                p99Milliseconds: Bench.median(runs.map(\.p99Milliseconds)),
                non2xx: runs.map(\.non2xx).reduce(0, +), socketErrors: runs.map(\.socketErrors).reduce(0, +))
        }
    }

    static let routes = ["/posts/1", "/posts?_page=1"]

    static func run(_ options: BenchOptions) -> Int32 {
        // Acknowledgements of concurrent writes (no wrk or nginx needed).
        let writeAck = ServerWriteBench.run(quick: options.quick)
        if let writeAck, writeAck > 1, options.check { return 1 }
        // Keyed PATCHes with many notes and many remembered keys (target p50 <= 3 ms).
        let patchesPass = ServerWriteBench.runKeyedPatches(quick: options.quick)
        if !patchesPass, options.check { return 1 }
        if options.writesOnly { return 0 }
        // 12,000 held idle connections: memory per connection, a new client's latency (no wrk or nginx needed).
        let heldPass = ServerHeldBench.run(quick: options.quick)
        if !heldPass, options.check { return 1 }
        guard ensureTools() else {
            if options.check {
                print("server FAIL: wrk and nginx are not installed and 'apt-get install -y wrk nginx' failed")
                return 1
            }
            print(
                "server SKIP (not measured): wrk and nginx are not installed and 'apt-get install -y wrk nginx' failed")
            return 0
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-\(UUID())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let app = runBlocking { try? await TetherServerApp.start(.init(rakutenRateLimit: false)) }
        guard let app else {
            log("the server did not start")
            return 1
        }
        var nginx: Process?
        defer {
            if let nginx, nginx.isRunning {
                nginx.terminate()
                nginx.waitUntilExit()
            }
            runBlocking { await app.stop() }
            try? FileManager.default.removeItem(at: directory)
        }
        do {
            for (index, route) in routes.enumerated() {
                let bytes = try runBlocking { () async throws -> Data in
                    let session = URLSession(configuration: .ephemeral)
                    defer { session.finishTasksAndInvalidate() }
                    return try await session.data(from: URL(string: "\(app.baseURL)\(route)")!).0
                }
                try bytes.write(to: directory.appendingPathComponent("route\(index).json"))
            }
            let port = try freePort()
            nginx = try startNginx(directory: directory, port: port)
            // Alternating rounds (nginx, then tether, five times) so that a change in the machine's load hits
            // both sides alike: on a shared machine one 10 s run of each compares two different machines.
            let rounds = options.quick ? 1 : 5
            let duration = "2s"
            var failures: [String] = []
            for connections in [32, 256] {
                for route in routes {
                    var references: [Figures] = []
                    var tethers: [Figures] = []
                    for _ in 0..<rounds {
                        references.append(
                            try wrk("http://127.0.0.1:\(port)\(route)", connections: connections, duration: duration))
                        tethers.append(try wrk("\(app.baseURL)\(route)", connections: connections, duration: duration))
                    }
                    let roundRatios = zip(tethers, references).map { $0.requestsPerSecond / $1.requestsPerSecond }
                    let name = "\(route) c\(connections)"
                    log(
                        "\(name): ratio per round "
                            + roundRatios.map { String(format: "%.2f", $0) }.joined(separator: " "))
                    let reference = Figures.median(references)
                    let tether = Figures.median(tethers)
                    let ratio = Bench.median(roundRatios)
                    log(
                        "\(name): p50 tether \(String(format: "%.2f", tether.p50Milliseconds)) ms, nginx "
                            + "\(String(format: "%.2f", reference.p50Milliseconds)) ms")
                    line("nginx \(name)", reference, ratio: 1)
                    line("tether \(name)", tether, ratio: ratio)
                    let errors = tethers.map(\.non2xx).reduce(0, +) + tethers.map(\.socketErrors).reduce(0, +)
                    if errors > 0 { failures.append("\(name): \(errors) non-2xx answers or socket errors") }
                    if ratio < 1 { failures.append("\(name) at \(String(format: "%.2f", ratio))x nginx") }
                }
            }
            let pass = failures.isEmpty
            print(
                "server summary: target >= 1.00x nginx in every case, no non-2xx answer: "
                    + (pass ? "PASS" : "FAIL (\(failures.joined(separator: "; ")))"))
            return pass || !options.check ? 0 : 1
        } catch {
            log("\(error)")
            return 1
        }
    }

    private static func line(_ name: String, _ figures: Figures, ratio: Double) {
        print(
            "server \(name) \(String(format: "%.0f", figures.requestsPerSecond)) \(String(format: "%.2f", ratio)) "
                + "\(String(format: "%.2f", figures.p99Milliseconds)) \(String(format: "%.1f", peakRSSMegabytes()))")
    }

    private static func log(_ message: String) {
        FileHandle.standardError.write(Data("server: \(message)\n".utf8))
    }

    /// Whether wrk and nginx are there, installing them with apt-get when they are not.
    private static func ensureTools() -> Bool {
        if which("wrk") && which("nginx") { return true }
        log("installing wrk and nginx with apt-get")
        _ = try? shell(["apt-get", "install", "-y", "wrk", "nginx"])
        return which("wrk") && which("nginx")
    }

    private static func which(_ tool: String) -> Bool {
        (try? shell(["sh", "-c", "command -v \(tool)"]))?.status == 0
    }

    /// Runs a command and returns its exit status and standard output.
    @discardableResult
    private static func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// A port that was free a moment ago (bound to 0 and closed).
    private static func freePort() throws -> Int {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Unavailable(description: "cannot create a socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func startNginx(directory: URL, port: Int) throws -> Process {
        let root = directory.path
        let configuration = """
            daemon off;
            worker_processes 2;
            user root;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                keepalive_requests 1000000;
                client_body_temp_path \(root)/body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                uwsgi_temp_path \(root)/uwsgi;
                scgi_temp_path \(root)/scgi;
                default_type application/json;
                server {
                    listen 127.0.0.1:\(port);
                    location = /posts/1 { alias \(root)/route0.json; }
                    location = /posts { alias \(root)/route1.json; }
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nginx", "-p", root, "-c", file.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if (try? shell(["curl", "-sf", "-o", "/dev/null", "http://127.0.0.1:\(port)/posts/1"]))?.status == 0 {
                return process
            }
            usleep(50_000)
        }
        process.terminate()
        throw Unavailable(description: "nginx did not answer on port \(port)")
    }

    /// Runs wrk against `url` and reads requests/sec, the p50 and p99 latencies, and the failures it counts.
    private static func wrk(_ url: String, connections: Int, duration: String) throws -> Figures {
        let (status, output) = try shell(["wrk", "-t2", "-c\(connections)", "-d\(duration)", "--latency", url])
        guard status == 0 else { throw Unavailable(description: "wrk failed on \(url)") }
        var figures = Figures(requestsPerSecond: 0, p50Milliseconds: 0, p99Milliseconds: 0)
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            switch fields[0] {
            case "Requests/sec:": figures.requestsPerSecond = Double(fields[1]) ?? 0
            case "50%": figures.p50Milliseconds = milliseconds(fields[1])
            case "99%": figures.p99Milliseconds = milliseconds(fields[1])
            case "Non-2xx": figures.non2xx = Int(fields.last ?? "") ?? 0
            case "Socket":
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                figures.socketErrors = fields.compactMap { Int($0.trimmingCharacters(in: [","])) }.reduce(0, +)
            default: break
            }
        }
        guard figures.requestsPerSecond > 0 else { throw Unavailable(description: "cannot read wrk's output") }
        return figures
    }

    /// `1.23ms`, `500.00us`, `1.20s` in milliseconds.
    private static func milliseconds(_ text: Substring) -> Double {
        for (suffix, factor) in [("us", 1e-3), ("ms", 1.0), ("s", 1e3), ("m", 60e3)] where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)) { return value * factor }
        }
        return 0
    }

    /// The peak resident set of this process (VmHWM), in megabytes.
    private static func peakRSSMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return (kilobytes.flatMap { Double($0) } ?? 0) / 1024
        }
        return 0
    }
}
