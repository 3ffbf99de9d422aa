internal import Foundation

/// orjson (the fastest JSON library for Python, written in Rust) as the peer of `tether-bench json`'s files:
/// `orjson.loads` against the parser, `orjson.dumps` of the loaded value against the writer and the encoder.
///
/// orjson comes from the bench's own virtual environment (``PythonPeer``; `TETHER_BENCH_NO_ORJSON=1` skips it).
/// One Python process stays up for the whole run and times each job on request (CPU time of its thread), so its
/// rounds alternate with Tether's in the same run.
final class OrjsonContender {
    typealias Skipped = PythonPeer.Skipped

    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    private var pending = Data()
    /// The size of `orjson.dumps`' output for each loaded file, by name: what the compact writer is compared with.
    private(set) var outputSizes: [String: Int] = [:]

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
        let python: String
        switch PythonPeer.python(package: "orjson", module: "orjson", switchedOffBy: "TETHER_BENCH_NO_ORJSON") {
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
            guard let reply = contender.ask("load \(file.name) \(file.path)"), reply.hasPrefix("ok ") else {
                return .failure(Skipped(description: "orjson could not load \(file.path)"))
            }
            contender.outputSizes[file.name] = Int(reply.dropFirst(3))
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
}
