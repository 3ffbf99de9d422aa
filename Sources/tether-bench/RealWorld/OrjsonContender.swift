internal import Foundation

/// orjson (the fastest JSON library for Python, written in Rust) as the peer of `tether-bench json`'s files:
/// `orjson.loads` against the parser, `orjson.dumps` of the loaded value against the writer and the encoder.
///
/// orjson is installed into a virtual environment of the bench's own, `$XDG_CACHE_HOME/tether-bench/orjson-venv`
/// (`~/.cache/…`), with pip, once, as the images bench does with Pillow. One Python process stays up for the
/// whole run and times each job on request (CPU time of its thread), so its rounds alternate with Tether's in
/// the same run. When python3, venv or pip (or the network to PyPI) is missing, the comparison is skipped with
/// the reason.
final class OrjsonContender {
    struct Skipped: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    private var pending = Data()

    private static let script = """
        import sys, time, orjson
        data, values = {}, {}
        for line in sys.stdin:
            job, name, arg = line.split()
            if job == "load":
                data[name] = open(arg, "rb").read()
                values[name] = orjson.loads(data[name])
                print("ok", len(orjson.dumps(values[name])), flush=True)
                continue
            runs = int(arg)
            if job == "loads":
                d = data[name]
                start = time.thread_time()
                for _ in range(runs): orjson.loads(d)
            else:
                v = values[name]
                start = time.thread_time()
                for _ in range(runs): orjson.dumps(v)
            print((time.thread_time() - start) / runs, flush=True)
        """

    private init(process: Process, input: FileHandle, output: FileHandle) {
        self.process = process
        self.input = input
        self.output = output
    }

    deinit {
        try? input.close()
        process.waitUntilExit()
    }

    /// Starts the Python process with orjson and loads `files` (name, path) into it.
    static func start(files: [(name: String, path: String)]) -> Result<OrjsonContender, Skipped> {
        if ProcessInfo.processInfo.environment["TETHER_BENCH_NO_ORJSON"] == "1" {
            return .failure(Skipped(description: "TETHER_BENCH_NO_ORJSON=1"))
        }
        let python: String
        switch environment() {
        case .success(let path): python = path
        case .failure(let skipped): return .failure(skipped)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(Skipped(description: "cannot start python: \(error)"))
        }
        let contender = OrjsonContender(
            process: process, input: stdin.fileHandleForWriting, output: stdout.fileHandleForReading)
        for file in files {
            guard let reply = contender.ask("load \(file.name) \(file.path)"), reply.hasPrefix("ok") else {
                return .failure(Skipped(description: "orjson could not load \(file.path)"))
            }
        }
        return .success(contender)
    }

    /// The mean CPU seconds of `runs` runs of `orjson.loads` (`job` "loads") or `orjson.dumps` ("dumps") on the
    /// file loaded as `name`.
    func time(_ job: String, _ name: String, runs: Int) throws -> Double {
        guard let reply = ask("\(job) \(name) \(runs)"), let seconds = Double(reply) else {
            throw Skipped(description: "orjson \(job) \(name) failed")
        }
        return seconds
    }

    /// Sends one line and reads the one-line reply.
    private func ask(_ line: String) -> String? {
        input.write(Data((line + "\n").utf8))
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let reply = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                return reply
            }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
        }
    }

    /// The venv's python with orjson, creating the venv and installing orjson when needed.
    static func environment() -> Result<String, Skipped> {
        let cacheHome =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        let venv = cacheHome + "/tether-bench/orjson-venv"
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python), run(python, ["-c", "import orjson"]) == 0 {
            return .success(python)
        }
        guard
            let system = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return .failure(Skipped(description: "no python3")) }
        try? FileManager.default.createDirectory(atPath: cacheHome + "/tether-bench", withIntermediateDirectories: true)
        Bench.note("# installing orjson into \(venv) (pip)…")
        guard run(system, ["-m", "venv", venv]) == 0 else {
            return .failure(Skipped(description: "python3 -m venv failed"))
        }
        let installed = run(
            venv + "/bin/pip",
            ["install", "--quiet", "--disable-pip-version-check", "--timeout", "20", "--retries", "1", "orjson"])
        guard installed == 0, run(python, ["-c", "import orjson"]) == 0 else {
            return .failure(Skipped(description: "pip could not install orjson (status \(installed))"))
        }
        return .success(python)
    }

    /// Runs a command to its end with its output discarded; returns its exit status.
    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return 127
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
