internal import Foundation

/// Pillow, the Python imaging library, as the contender of `tether-bench images`: `Image.open`, `draft()` (JPEG's
/// DCT scaling), `thumbnail()` (its default reducing and bicubic filter) and `load()` on the same file, timed in
/// CPU time of the thread, median of `runs`.
///
/// Pillow is installed into a virtual environment of the bench's own, `$XDG_CACHE_HOME/tether-bench/pillow-venv`
/// (`~/.cache/…`), with pip, once; nothing is installed elsewhere. When python3, venv or pip (or the network to
/// PyPI) is missing, the comparison is skipped with the reason.
enum PillowContender {
    struct Skipped: Error, CustomStringConvertible {
        var description: String
    }

    /// The median seconds per case name, or why there are none.
    static func times(_ cases: [(name: String, path: String, side: Int)], runs: Int) -> Result<
        [String: Double], Skipped
    > {
        if ProcessInfo.processInfo.environment["TETHER_BENCH_NO_PILLOW"] == "1" {
            return .failure(Skipped(description: "TETHER_BENCH_NO_PILLOW=1"))
        }
        let python: String
        switch environment() {
        case .success(let path): python = path
        case .failure(let skipped): return .failure(skipped)
        }
        let script = """
            import io, sys, time
            from PIL import Image
            runs = int(sys.argv[1])
            for spec in sys.argv[2:]:
                name, path, side = spec.split("|")
                side = int(side)
                data = open(path, "rb").read()
                def once():
                    image = Image.open(io.BytesIO(data))
                    image.draft("RGB", (side, side))
                    image.thumbnail((side, side))
                    image.load()
                once(); once()
                times = []
                for _ in range(runs):
                    start = time.thread_time()
                    once()
                    times.append(time.thread_time() - start)
                times.sort()
                print(name, times[len(times) // 2])
            """
        let result = run(python, ["-c", script, String(runs)] + cases.map { "\($0.name)|\($0.path)|\($0.side)" })
        guard result.status == 0 else {
            return .failure(Skipped(description: "Pillow failed: \(result.errors.suffix(300))"))
        }
        var times: [String: Double] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let seconds = Double(fields[1]) { times[String(fields[0])] = seconds }
        }
        return .success(times)
    }

    /// Pillow's thumbnail of one case against a reference: the file decoded at full size, then resized to the
    /// thumbnail's size with Lanczos (a high-quality filter).
    struct Quality {
        /// The PSNR of Pillow's `draft()` + `thumbnail()` result against the reference, in dB (RGB).
        var pillowPSNR: Double
        var width: Int
        var height: Int
        /// The reference's RGB bytes, row by row.
        var reference: [UInt8]
    }

    /// For each case, Pillow's thumbnail quality and the reference to measure another thumbnail against; or why
    /// there are none. The reference files go to `directory`.
    static func quality(_ cases: [(name: String, path: String, side: Int)], directory: URL) -> Result<
        [String: Quality], Skipped
    > {
        if ProcessInfo.processInfo.environment["TETHER_BENCH_NO_PILLOW"] == "1" {
            return .failure(Skipped(description: "TETHER_BENCH_NO_PILLOW=1"))
        }
        let python: String
        switch environment() {
        case .success(let path): python = path
        case .failure(let skipped): return .failure(skipped)
        }
        let script = """
            import io, math, sys
            from PIL import Image
            folder = sys.argv[1]
            for spec in sys.argv[2:]:
                name, path, side = spec.split("|")
                side = int(side)
                data = open(path, "rb").read()
                image = Image.open(io.BytesIO(data))
                image.draft("RGB", (side, side))
                image.thumbnail((side, side))
                thumbnail = image.convert("RGB")
                full = Image.open(io.BytesIO(data)).convert("RGB")
                reference = full.resize(thumbnail.size, Image.LANCZOS)
                a = thumbnail.tobytes()
                b = reference.tobytes()
                error = sum((x - y) * (x - y) for x, y in zip(a, b)) / len(a)
                psnr = 99.0 if error == 0 else 10 * math.log10(255 * 255 / error)
                open(folder + "/" + name + ".reference.rgb", "wb").write(b)
                print(name, psnr, thumbnail.size[0], thumbnail.size[1])
            """
        let result = run(python, ["-c", script, directory.path] + cases.map { "\($0.name)|\($0.path)|\($0.side)" })
        guard result.status == 0 else {
            return .failure(Skipped(description: "Pillow failed: \(result.errors.suffix(300))"))
        }
        var qualities: [String: Quality] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let psnr = Double(fields[1]), let width = Int(fields[2]),
                let height = Int(fields[3]),
                let reference = FileManager.default.contents(
                    atPath: directory.appendingPathComponent("\(fields[0]).reference.rgb").path),
                reference.count == width * height * 3
            else { continue }
            qualities[String(fields[0])] = Quality(
                pillowPSNR: psnr, width: width, height: height, reference: [UInt8](reference))
        }
        return .success(qualities)
    }

    /// The PSNR of `rgba` (RGBA bytes) against `reference` (RGB bytes of as many pixels), in dB; 99 when equal.
    static func psnr(rgba: [UInt8], against reference: [UInt8]) -> Double {
        let pixels = reference.count / 3
        precondition(rgba.count == pixels * 4, "the two pictures differ in size")
        var squares = 0.0
        for pixel in 0..<pixels {
            for channel in 0..<3 {
                let difference = Double(rgba[pixel * 4 + channel]) - Double(reference[pixel * 3 + channel])
                squares += difference * difference
            }
        }
        let meanSquare = squares / Double(reference.count)
        return meanSquare == 0 ? 99 : 10 * log10(255 * 255 / meanSquare)
    }

    /// The venv's python with Pillow, creating the venv and installing Pillow when needed.
    static func environment() -> Result<String, Skipped> {
        let cacheHome =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        let venv = cacheHome + "/tether-bench/pillow-venv"
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python), run(python, ["-c", "import PIL"]).status == 0 {
            return .success(python)
        }
        guard
            let system = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return .failure(Skipped(description: "no python3")) }
        try? FileManager.default.createDirectory(atPath: cacheHome + "/tether-bench", withIntermediateDirectories: true)
        Bench.note("# installing Pillow into \(venv) (pip)…")
        let created = run(system, ["-m", "venv", venv])
        guard created.status == 0 else {
            return .failure(Skipped(description: "python3 -m venv failed: \(created.errors.suffix(200))"))
        }
        let installed = run(
            venv + "/bin/pip",
            ["install", "--quiet", "--disable-pip-version-check", "--timeout", "20", "--retries", "1", "pillow"])
        guard installed.status == 0, run(python, ["-c", "import PIL"]).status == 0 else {
            return .failure(Skipped(description: "pip could not install Pillow: \(installed.errors.suffix(200))"))
        }
        return .success(python)
    }

    private static func run(_ executable: String, _ arguments: [String]) -> (
        status: Int32, output: String, errors: String
    ) {
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
        // Read both pipes on other threads while waiting, so a chatty child cannot block on a full pipe.
        let errorData = DispatchGroup.readToEnd(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData(), as: UTF8.self)
        )
    }
}

extension DispatchGroup {
    /// Starts reading `handle` to its end on another thread; the function returned waits for that and gives the
    /// bytes.
    fileprivate static func readToEnd(_ handle: FileHandle) -> () -> Data {
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
