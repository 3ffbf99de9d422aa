internal import Foundation

/// A Python package as the peer of a benchmark (Pillow for `images`, orjson for `json`), in a virtual environment
/// of the bench's own, `$XDG_CACHE_HOME/tether-bench/<package>-venv` (`~/.cache/…`), installed with pip once;
/// nothing is installed elsewhere. When python3, venv or pip (or the network to PyPI) is missing, or the
/// environment variable that turns the peer off is `1`, the comparison is skipped with the reason.
enum PythonPeer {
    struct Skipped: Error, CustomStringConvertible {
        var description: String
    }

    /// The venv's python with `package` importable as `module`, creating the venv and installing the package when
    /// needed; or why there is none. `switchedOffBy` names the environment variable that skips the peer.
    static func python(package: String, module: String, switchedOffBy variable: String) -> Result<String, Skipped> {
        if ProcessInfo.processInfo.environment[variable] == "1" {
            return .failure(Skipped(description: "\(variable)=1"))
        }
        let cacheHome =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        let venv = cacheHome + "/tether-bench/\(package)-venv"
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python), run(python, ["-c", "import \(module)"]).status == 0 {
            return .success(python)
        }
        guard
            let system = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return .failure(Skipped(description: "no python3")) }
        try? FileManager.default.createDirectory(atPath: cacheHome + "/tether-bench", withIntermediateDirectories: true)
        Bench.note("# installing \(package) into \(venv) (pip)…")
        let created = run(system, ["-m", "venv", venv])
        guard created.status == 0 else {
            return .failure(Skipped(description: "python3 -m venv failed: \(created.errors.suffix(200))"))
        }
        let installed = run(
            venv + "/bin/pip",
            ["install", "--quiet", "--disable-pip-version-check", "--timeout", "20", "--retries", "1", package])
        guard installed.status == 0, run(python, ["-c", "import \(module)"]).status == 0 else {
            return .failure(Skipped(description: "pip could not install \(package): \(installed.errors.suffix(200))"))
        }
        return .success(python)
    }

    /// Runs `executable` to its end with no input: its exit status (127 when it cannot start), standard output
    /// and standard error. Both pipes are read while it runs, so a chatty child cannot block on a full pipe.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, "", "\(error)")
        }
        let errorData = readToEnd(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData(), as: UTF8.self)
        )
    }

    /// Starts reading `handle` to its end on another thread; the function returned waits for that and gives the
    /// bytes.
    private static func readToEnd(_ handle: FileHandle) -> () -> Data {
        let group = DispatchGroup()
        let box = DataBox()
        DispatchQueue.global().async(group: group) { box.data = handle.readDataToEndOfFile() }
        return {
            group.wait()
            return box.data
        }
    }
}

/// Bytes handed from the reading thread to the waiting one (the group's wait orders the accesses).
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
