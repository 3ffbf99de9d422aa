internal import Foundation
internal import TetherTerminal

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `tether-bench tui`: the full-screen app's start and its redraw cost. One line per case, `tui <case> <value>
/// <unit>`:
/// - `launch-to-data`: from starting the `tether` executable (built beside this one) in a pseudo-terminal with
///   `--search ノートパソコン` to the first frame that shows a yen price: the embedded server's start, the search
///   over loopback, decoding, the store and the first frames all included. Median of runs, in ms (target ≤ 300).
/// - `redraw-scroll-<w>x<h>`: moving the selection one row down a 10,000-row list (two lines per row, as the posts
///   and items screens draw them) and rendering the frame: drawing into a fresh ``ScreenBuffer`` plus
///   ``ScreenRenderer``'s diff, mean µs per frame (target ≤ 4,000).
/// - `bytes-per-frame-<w>x<h>`: the bytes the renderer wrote per frame in that scroll, mean.
enum TUIBench {
    static func run(_ options: BenchOptions) -> Int32 {
        var ok = true
        for (width, height) in [(80, 24), (200, 60)] {
            let (microseconds, bytes) = scroll(width: width, height: height, frames: options.quick ? 300 : 3_000)
            Bench.emit("tui redraw-scroll-\(width)x\(height) \(Bench.format(microseconds, 1)) us/frame")
            Bench.emit("tui bytes-per-frame-\(width)x\(height) \(Bench.format(bytes, 0)) bytes")
            ok = ok && microseconds <= 4_000
        }
        do {
            let runs = options.quick ? 2 : 7
            var times: [Double] = []
            for _ in 0..<runs { times.append(try launchToData()) }
            times.sort()
            let median = times[times.count / 2]
            Bench.note("# launch-to-data runs (ms): \(times.map { Bench.format($0, 1) }.joined(separator: ", "))")
            Bench.emit("tui launch-to-data \(Bench.format(median, 1)) ms")
            ok = ok && median <= 300
        } catch {
            Bench.note("# launch-to-data: \(error)")
            Bench.emit("tui launch-to-data unavailable")
            ok = false
        }
        Bench.emit("tui summary \(ok ? "PASS" : "FAIL") (targets: launch-to-data <= 300 ms, redraw <= 4000 us/frame)")
        return options.check && !ok ? 1 : 0
    }

    // MARK: - Scrolling

    /// Scrolls a 10,000-row list one row per frame; returns µs and bytes per frame.
    static func scroll(width: Int, height: Int, frames: Int) -> (microseconds: Double, bytes: Double) {
        let rows = (0..<10_000).map { index in
            (
                title: "Post \(index + 1): sunt aut facere repellat provident occaecati excepturi ノートパソコン",
                body: "quia et suscipit suscipit recusandae consequuntur expedita et cum reprehenderit molestiae",
                author: ["Leanne Graham", "Ervin Howell", "山田 太郎"][index % 3]
            )
        }
        var list = ListView()
        var renderer = ScreenRenderer(colorMode: .palette256)
        let listRect = Rect(x: 0, y: 2, width: width, height: height - 3)
        let visible = ListView.visibleRows(in: listRect, rowHeight: 2)
        func frame() -> ScreenBuffer {
            var buffer = ScreenBuffer(width: width, height: height)
            buffer.fill(
                Rect(x: 0, y: 0, width: width, height: 1), style: TextStyle(foreground: .white, background: .blue))
            buffer.draw(" Tether  1 Items  2 Notes  3 Posts ", x: 0, y: 0, style: TextStyle(attributes: .bold))
            buffer.draw(" Posts  \(list.positionText(itemCount: rows.count))", x: 0, y: 1)
            list.draw(into: &buffer, in: listRect, itemCount: rows.count, rowHeight: 2) { index, _, width in
                let row = rows[index]
                let authorWidth = row.author.terminalColumns
                let title = TextLayout.pad(row.title, toColumns: max(1, width - authorWidth - 3))
                return [
                    [Span(" "), Span(title, style: TextStyle(attributes: .bold)), Span("  "), Span(row.author)],
                    [
                        Span(" "),
                        Span(TextLayout.truncate(row.body, toColumns: width - 1), style: TextStyle(attributes: .dim)),
                    ],
                ]
            }
            buffer.fill(Rect(x: 0, y: height - 1, width: width, height: 1), style: TextStyle(attributes: .reverse))
            buffer.draw(" ● embedded 127.0.0.1:40000", x: 0, y: height - 1, style: TextStyle(attributes: .reverse))
            return buffer
        }
        _ = renderer.render(frame())
        var bytes = 0
        let start = Bench.now()
        for _ in 0..<frames {
            _ = list.handle(.down, itemCount: rows.count, visibleRows: visible)
            bytes += renderer.render(frame()).count
        }
        let elapsed = Bench.now() - start
        return (elapsed / Double(frames) * 1_000_000, Double(bytes) / Double(frames))
    }

    // MARK: - Launch

    struct LaunchFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `tether --search ノートパソコン` in a pseudo-terminal and returns the ms until a yen price shows.
    static func launchToData() throws -> Double {
        let tether = URL(fileURLWithPath: selfDirectory()).appendingPathComponent("tether").path
        guard FileManager.default.isExecutableFile(atPath: tether) else {
            throw LaunchFailure(description: "no tether executable beside tether-bench (swift build -c release first)")
        }
        // A pseudo-terminal: /dev/ptmx, unlocked and numbered with TIOCSPTLCK and TIOCGPTN (Glibc's Swift module
        // has no posix_openpt/grantpt/unlockpt/ptsname).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw LaunchFailure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        defer { close(master) }
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw LaunchFailure(description: "cannot open the pseudo-terminal's other end") }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-tui-\(getpid())")
        defer { try? FileManager.default.removeItem(at: data) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: tether)
        process.arguments = ["--search", "ノートパソコン"]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["TETHER_EPHEMERAL"] = "1"
        environment["XDG_DATA_HOME"] = data.path
        process.environment = environment
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        let start = Bench.now()
        try process.run()
        try? handle.close()

        let yen = Array("円".utf8)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var found: Double?
        while found == nil, Bench.now() - start < 10 {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(master, &chunk, chunk.count)
            guard count > 0 else { break }
            output.append(contentsOf: chunk[0..<count])
            if contains(output, yen) { found = Bench.now() }
        }
        // Quit, and drain the output until the process ends.
        _ = "q".utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, 1) }
        let quitStart = Bench.now()
        while process.isRunning, Bench.now() - quitStart < 5 {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) > 0 { _ = read(master, &chunk, chunk.count) }
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        guard let found else {
            throw LaunchFailure(description: "no yen price on screen within 10 s (\(output.count) bytes written)")
        }
        return (found - start) * 1_000
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }

    private static func selfDirectory() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return (path as NSString).deletingLastPathComponent
            }
        #endif
        return ((Bundle.main.executablePath ?? CommandLine.arguments[0]) as NSString).deletingLastPathComponent
    }
}
