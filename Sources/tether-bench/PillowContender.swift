internal import Foundation

/// Pillow, the Python imaging library, as the contender of `tether-bench images`: `Image.open`, `draft()` (JPEG's
/// DCT scaling), `thumbnail()` (its default reducing and bicubic filter) and `load()` on the same file, timed in
/// CPU time of the thread, median of `runs`.
///
/// Pillow comes from the bench's own virtual environment (``PythonPeer``); `TETHER_BENCH_NO_PILLOW=1` skips it.
enum PillowContender {
    typealias Skipped = PythonPeer.Skipped

    /// The median seconds per case name, or why there are none.
    static func times(_ cases: [(name: String, path: String, side: Int)], runs: Int) -> Result<
        [String: Double], Skipped
    > {
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
        let output: String
        switch run(script, [String(runs)], cases) {
        case .success(let text): output = text
        case .failure(let skipped): return .failure(skipped)
        }
        var times: [String: Double] = [:]
        for line in output.split(separator: "\n") {
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
        let output: String
        switch run(script, [directory.path], cases) {
        case .success(let text): output = text
        case .failure(let skipped): return .failure(skipped)
        }
        var qualities: [String: Quality] = [:]
        for line in output.split(separator: "\n") {
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

    /// Runs `script` with Pillow's python, `arguments`, then one `name|path|side` argument per case: its standard
    /// output, or why it could not run.
    private static func run(
        _ script: String, _ arguments: [String], _ cases: [(name: String, path: String, side: Int)]
    ) -> Result<String, Skipped> {
        let python: String
        switch environment() {
        case .success(let path): python = path
        case .failure(let skipped): return .failure(skipped)
        }
        let result = PythonPeer.run(
            python, ["-c", script] + arguments + cases.map { "\($0.name)|\($0.path)|\($0.side)" })
        guard result.status == 0 else {
            return .failure(Skipped(description: "Pillow failed: \(result.errors.suffix(300))"))
        }
        return .success(result.output)
    }

    /// The venv's python with Pillow, creating the venv and installing Pillow when needed.
    static func environment() -> Result<String, Skipped> {
        PythonPeer.python(package: "pillow", module: "PIL", switchedOffBy: "TETHER_BENCH_NO_PILLOW")
    }
}
