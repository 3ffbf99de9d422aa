internal import CJPEG
internal import CPNG
internal import Foundation
internal import TetherImages
internal import TetherSync
internal import TetherTerminal

/// `tether-bench images`: the image pipeline against Pillow, its memory cache, and the item list's redraw with
/// thumbnails. One line per case, `images <case> <value> <unit> <ratio>`:
/// - `jpeg-1000-to-128`, `jpeg-1000-to-64`, `png-1000-to-128`: decoding a 1000×1000 photo-like file and
///   downsizing it to fit the box (``ImageDecoder``: DCT scaling, then area averaging), median CPU ms. The ratio is
///   Pillow's time over ours (`draft()` plus `thumbnail()`, then `load()`, on the same bytes), so above 1 is
///   faster than Pillow (target ≥ 1.0); `-` when Pillow is unavailable. Pillow is installed by pip into a virtual
///   environment of the bench's own (`$XDG_CACHE_HOME/tether-bench/pillow-venv`); without python3 or network
///   the comparison is skipped with a message. `TETHER_BENCH_NO_PILLOW=1` skips it on purpose.
/// - `jpeg-1000-to-128-psnr` and the like: the thumbnail's quality, PSNR in dB (RGB) against the file decoded at
///   full size and resized to the thumbnail's size by Pillow's Lanczos filter; the last field is ours less
///   Pillow's (`draft()` + `thumbnail()`), target ≥ -1 dB for the JPEG cases (the fast path: DCT scaling with the
///   fast IDCT); the PNG case is printed, not judged. Not measured (SKIP) without Pillow.
/// - `memory-hit-median`, `memory-hit-p99`: `ImagePipeline.image(for:size:)` answered from the memory cache,
///   µs per call.
/// - `scroll-thumbnails-80x24`: redrawing the item list (three lines per row, six-column half-block thumbnails
///   ready in memory, 24-bit colour) while the selection moves down 10,000 items, µs per frame; the ratio is
///   over the same scroll with placeholders instead of pictures (target ≤ 1.5).
/// - `scroll-peak-memory`: the peak resident memory of that scroll with a decoded thumbnail for every one of the
///   10,000 items, MB above the same run without them (target ≤ 64), each run in a child process.
enum ImagesBench {
    static func run(_ options: BenchOptions) -> Int32 {
        var ok = true
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-images-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // The inputs: one photo-like picture as JPEG (quality 90) and PNG.
        let pixels = photo(width: 1000, height: 1000)
        guard let jpeg = encodeJPEG(pixels, width: 1000, height: 1000),
            let png = encodePNG(pixels, width: 1000, height: 1000)
        else {
            Bench.emit("images summary FAIL (the inputs could not be encoded)")
            return options.check ? 1 : 0
        }
        let jpegFile = directory.appendingPathComponent("photo.jpg")
        let pngFile = directory.appendingPathComponent("photo.png")
        try? jpeg.write(to: jpegFile)
        try? png.write(to: pngFile)
        Bench.note("# inputs: 1000x1000 JPEG \(jpeg.count) bytes, PNG \(png.count) bytes")

        let cases: [(name: String, data: Data, file: URL, side: Int)] = [
            ("jpeg-1000-to-128", jpeg, jpegFile, 128), ("jpeg-1000-to-64", jpeg, jpegFile, 64),
            ("png-1000-to-128", png, pngFile, 128),
        ]
        let budget = Budget(
            warmUpRuns: 2, minimumRuns: options.quick ? 5 : 30, maximumRuns: 1_000, seconds: options.quick ? 0.3 : 3)
        let ours = Bench.measureRounds(
            budget,
            cases.map { item in
                {
                    blackHole(
                        try ImageDecoder.decode(item.data, fitting: ImageSize(width: item.side, height: item.side)))
                }
            })
        // Where the time goes: the PNG's decoding alone (libpng, full size) against decoding and downsizing.
        if case .success(let full) = Bench.measureRounds(budget, [{ blackHole(try ImageDecoder.decode(png)) }])[0] {
            Bench.note("# png-1000 decoded at full size, not downsized: \(Bench.format(full.median * 1000, 2)) ms")
        }
        let pillow = PillowContender.times(
            cases.map { ($0.name, $0.file.path, $0.side) }, runs: options.quick ? 5 : 30)
        // A comparison not made never passes: without Pillow the summary says SKIP, and --check fails.
        var skipped: String?
        if case .failure(let reason) = pillow {
            Bench.note("# Pillow comparison skipped: \(reason)")
            skipped = "no Pillow: \(reason)"
        }
        for (index, item) in cases.enumerated() {
            guard case .success(let timing) = ours[index] else {
                Bench.emit("images \(item.name) unavailable")
                ok = false
                continue
            }
            let milliseconds = timing.median * 1000
            var ratio = "-"
            if case .success(let times) = pillow, let theirs = times[item.name] {
                let speed = theirs / timing.median
                ratio = Bench.format(speed, 2) + "x"
                Bench.note(
                    "# \(item.name): Pillow \(Bench.format(theirs * 1000, 2)) ms, Tether \(Bench.format(milliseconds, 2)) ms"
                )
                ok = ok && speed >= 1.0
            }
            Bench.emit("images \(item.name) \(Bench.format(milliseconds, 2)) ms \(ratio)")
        }

        // The quality of each thumbnail: PSNR against a full decode resized by Lanczos; ours within 1 dB of
        // Pillow's (the fast IDCT and plain upsampling at reduced size must not cost more).
        switch PillowContender.quality(cases.map { ($0.name, $0.file.path, $0.side) }, directory: directory) {
        case .failure(let reason):
            Bench.note("# thumbnail quality not measured: \(reason)")
            skipped = skipped ?? "no Pillow: \(reason)"
        case .success(let qualities):
            for item in cases {
                guard let quality = qualities[item.name],
                    let thumbnail = try? ImageDecoder.decode(
                        item.data, fitting: ImageSize(width: item.side, height: item.side)),
                    thumbnail.width == quality.width, thumbnail.height == quality.height
                else {
                    Bench.emit("images \(item.name)-psnr unavailable (no reference, or the sizes differ)")
                    ok = false
                    continue
                }
                let ours = PillowContender.psnr(rgba: thumbnail.pixels, against: quality.reference)
                Bench.emit(
                    "images \(item.name)-psnr \(Bench.format(ours, 2)) dB \(Bench.format(ours - quality.pillowPSNR, 2))"
                )
                Bench.note(
                    "# \(item.name) PSNR: Tether \(Bench.format(ours, 2)) dB, Pillow \(Bench.format(quality.pillowPSNR, 2)) dB"
                )
                // Judged where decoding takes a fast path (JPEG's DCT scaling); the PNG line is for reading.
                if item.name.hasPrefix("jpeg") { ok = ok && ours >= quality.pillowPSNR - 1 }
            }
        }

        let (median, p99) = memoryHits(file: jpegFile, count: options.quick ? 2_000 : 50_000)
        Bench.emit("images memory-hit-median \(Bench.format(median, 2)) us -")
        Bench.emit("images memory-hit-p99 \(Bench.format(p99, 2)) us -")

        let frames = options.quick ? 300 : 3_000
        do {
            let with = try scrollInChild(thumbnails: true, frames: frames)
            let without = try scrollInChild(thumbnails: false, frames: frames)
            let ratio = with.microseconds / without.microseconds
            Bench.note(
                "# scroll: \(Bench.format(without.microseconds, 1)) us/frame without thumbnails; peak \(Bench.format(with.peakMB, 1)) MB with, \(Bench.format(without.peakMB, 1)) MB without"
            )
            Bench.emit(
                "images scroll-thumbnails-80x24 \(Bench.format(with.microseconds, 1)) us/frame \(Bench.format(ratio, 2))x"
            )
            let extra = with.peakMB - without.peakMB
            Bench.emit("images scroll-peak-memory \(Bench.format(extra, 1)) MB -")
            ok = ok && ratio <= 1.5 && extra <= 64
        } catch {
            Bench.note("# scroll: \(error)")
            Bench.emit("images scroll-thumbnails-80x24 unavailable")
            ok = false
        }
        let verdict = skipped.map { "SKIP (\($0))" } ?? (ok ? "PASS" : "FAIL")
        Bench.emit(
            "images summary \(verdict) (targets: decode >= 1.0x Pillow, JPEG thumbnails' PSNR within 1 dB of Pillow's, "
                + "scroll <= 1.5x and <= 64 MB more)")
        return options.check && (!ok || skipped != nil) ? 1 : 0
    }

    // MARK: - Inputs

    /// A photo-like RGB picture: smooth gradients, soft discs and fine noise (which JPEG and PNG both find hard).
    static func photo(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 2024
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Double(Int(seed >> 27) - 16)
                let u = Double(x) / Double(width)
                let v = Double(y) / Double(height)
                let disc = max(0, 1 - ((u - 0.6) * (u - 0.6) + (v - 0.4) * (v - 0.4)) * 12)
                let sky = 1 - v
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: Int(60 + 150 * disc + 40 * u + noise))
                pixels[offset + 1] = UInt8(clamping: Int(70 + 90 * sky + 50 * disc * v + noise))
                pixels[offset + 2] = UInt8(clamping: Int(90 + 140 * sky * (1 - disc) + noise))
            }
        }
        return pixels
    }

    static func encodeJPEG(_ pixels: [UInt8], width: Int, height: Int, quality: Int = 90) -> Data? {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        guard
            tether_jpeg_encode(pixels, UInt32(width), UInt32(height), 3, Int32(quality), 0, &output, &size, &message)
                == 0, let output
        else { return nil }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }

    static func encodePNG(_ pixels: [UInt8], width: Int, height: Int) -> Data? {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        guard
            tether_png_encode(
                pixels, width * 3, UInt32(width), UInt32(height), 8, PNG_COLOR_TYPE_RGB, 0, nil, 0, nil, 0, 6, &output,
                &size, &message) == 0, let output
        else { return nil }
        defer { free(output) }
        return Data(bytes: output, count: size)
    }

    // MARK: - Memory cache

    /// The µs per `image(for:size:)` answered from memory: median and 99th percentile.
    static func memoryHits(file: URL, count: Int) -> (median: Double, p99: Double) {
        runBlocking {
            let pipeline = ImagePipeline()
            let size = ImageSize(width: 128, height: 128)
            _ = try? await pipeline.image(for: file, size: size)
            var times: [Double] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                let start = Bench.now()
                blackHole(try? await pipeline.image(for: file, size: size))
                times.append((Bench.now() - start) * 1_000_000)
            }
            times.sort()
            return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
        }
    }

    // MARK: - Scrolling

    struct ScrollResult {
        var microseconds: Double
        var peakMB: Double
    }

    /// Runs ``scroll(thumbnails:frames:)`` in a child process (`_images-scroll`), for its own peak memory.
    static func scrollInChild(thumbnails: Bool, frames: Int) throws -> ScrollResult {
        let child = try Bench.runSelf(["_images-scroll", thumbnails ? "thumbnails" : "placeholders", String(frames)])
        let fields = child.output.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard child.status == 0, fields.count == 2 else {
            throw Unavailable(description: "the scroll child failed (\(child.status)): \(child.errors)")
        }
        return ScrollResult(microseconds: fields[0], peakMB: fields[1])
    }

    /// The hidden child: `_images-scroll thumbnails|placeholders <frames>`; prints µs per frame and the peak MB.
    static func runScrollChild(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let frames = Int(arguments[1]) else { return 2 }
        let microseconds = scroll(thumbnails: arguments[0] == "thumbnails", frames: frames)
        print("\(microseconds) \(Double(Bench.peakResidentBytes()) / 1_048_576)")
        return 0
    }

    /// Scrolls an 80×24 item list of 10,000 items one row per frame (as the app draws it with pictures: three
    /// lines a row, a six-column thumbnail), with every item's thumbnail decoded from a 64×64 JPEG and held as
    /// half-block cells, or with placeholders; returns µs per frame of drawing plus rendering.
    static func scroll(thumbnails: Bool, frames: Int) -> Double {
        let count = 10_000
        let width = 80
        let height = 24
        // Twenty distinct 64×64 JPEGs, as the server's search results link them; each item decodes its own copy.
        var sources: [Data] = []
        for index in 0..<20 {
            var pixels = photo(width: 64, height: 64)
            for offset in stride(from: index % 3, to: pixels.count, by: 3) {
                pixels[offset] = pixels[offset] &+ UInt8(index * 12)
            }
            sources.append(encodeJPEG(pixels, width: 64, height: 64) ?? Data())
        }
        var cells: [[[Cell]]] = []
        if thumbnails {
            cells.reserveCapacity(count)
            for index in 0..<count {
                guard let image = try? ImageDecoder.decode(sources[index % 20], fitting: ImageSize(width: 6, height: 6))
                else { continue }
                cells.append(
                    HalfBlockImage.cells(TerminalPixels(width: image.width, height: image.height, rgba: image.pixels)))
            }
        }
        let names = (0..<count).map { "【送料無料】HIKARI ミラーレス一眼カメラ Mirrorless Camera 防水 \($0 + 1)" }
        var list = ListView()
        var renderer = ScreenRenderer(colorMode: .trueColor)
        let listRect = Rect(x: 0, y: 2, width: width, height: height - 3)
        let rowHeight = 3
        let visible = ListView.visibleRows(in: listRect, rowHeight: rowHeight)
        let placeholder = Span("░░░░░░ ", style: TextStyle(foreground: .brightBlack, background: .black))
        func frame() -> ScreenBuffer {
            var buffer = ScreenBuffer(width: width, height: height)
            buffer.draw(" Tether  1 Items  2 Notes  3 Posts ", x: 0, y: 0, style: TextStyle(attributes: .bold))
            buffer.draw(" カメラ  10,000 items", x: 0, y: 1)
            var shown: [(Int, Int)] = []
            list.draw(into: &buffer, in: listRect, itemCount: count, rowHeight: rowHeight) { index, _, width in
                shown.append((index, listRect.y + shown.count * rowHeight))
                let name = TextLayout.pad(names[index], toColumns: max(1, width - 7 - 13))
                return [
                    [placeholder, Span(name, style: TextStyle(attributes: .bold)), Span("    123,456円")],
                    [placeholder, Span("写真機見本堂  ★★★★★ 4.9 (2126)", style: TextStyle(attributes: .dim))],
                    [placeholder, Span("送料無料でお届け", style: TextStyle(attributes: .dim))],
                ]
            }
            if thumbnails {
                for (index, top) in shown where index < cells.count {
                    buffer.fill(Rect(x: listRect.x, y: top, width: 6, height: rowHeight))
                    buffer.drawImage(cells[index], x: listRect.x, y: top)
                }
            }
            return buffer
        }
        _ = renderer.render(frame())
        let start = Bench.now()
        for _ in 0..<frames {
            _ = list.handle(.down, itemCount: count, visibleRows: visible)
            blackHole(renderer.render(frame()))
        }
        return (Bench.now() - start) / Double(frames) * 1_000_000
    }
}
