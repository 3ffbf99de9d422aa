internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Options shared by every area.
struct BenchOptions: Sendable {
    /// A fast smoke run with small inputs and short budgets (CI).
    var quick = false
    /// Exit with status 1 when a target is missed (the summary says FAIL).
    var check = false
    /// Where the json area finds the real-world files (`--corpus DIR`); `nil`: `../shared/benchmarks/json`.
    var corpus: String?
    /// json: measure only the real-world files (`--files-only`).
    var filesOnly = false
    /// server: only the write benchmarks, without wrk and nginx (`--writes-only`).
    var writesOnly = false
}

/// Keeps a value alive and opaque to the optimizer, so a measured computation cannot be thrown away.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}

/// The timing of one contender on one input.
///
/// Times are the CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`): every contender is single-threaded,
/// so on an idle machine this equals the wall-clock time, and it stays meaningful when other builds share the
/// cores (time spent descheduled is not counted; page faults and allocation are). The wall-clock median is kept
/// for the details on standard error.
struct Timing {
    /// The median CPU time of the timed runs, in seconds.
    var median: Double
    /// The fastest timed run (CPU time), in seconds.
    var fastest: Double
    /// The median wall-clock time of the timed runs, in seconds.
    var wallMedian: Double
    /// How many runs were timed (warm-up runs excluded).
    var runs: Int

    /// Megabytes (10^6 bytes) per second at the median.
    func megabytesPerSecond(bytes: Int) -> Double {
        Double(bytes) / 1e6 / median
    }
}

/// How long to measure, in rounds (see ``Bench/measureRounds(_:_:)``): `warmUpRuns` untimed, then at least
/// `minimumRuns`, then more until `seconds` have been spent or `maximumRuns` is reached.
struct Budget {
    var warmUpRuns = 1
    var minimumRuns: Int
    var maximumRuns: Int
    var seconds: Double
}

/// Why a contender has no figure.
struct Unavailable: Error, CustomStringConvertible {
    var description: String
}

enum Bench {
    /// Seconds since an arbitrary start, from the monotonic clock.
    static func now() -> Double {
        seconds(CLOCK_MONOTONIC)
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUTime() -> Double {
        seconds(CLOCK_THREAD_CPUTIME_ID)
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Times `bodies` in rounds, one run of each per round in order: `budget.warmUpRuns` untimed rounds, then
    /// at least `minimumRuns` rounds and more until `budget.seconds` (wall clock, all bodies together) are spent
    /// or `maximumRuns` is reached. Returns each body's medians, or the error it threw (it is then left out of
    /// the later rounds).
    static func measureRounds(_ budget: Budget, _ bodies: [() throws -> Void]) -> [Result<Timing, any Error>] {
        var failures: [(any Error)?] = Array(repeating: nil, count: bodies.count)
        var cpu: [[Double]] = Array(repeating: [], count: bodies.count)
        var wall: [[Double]] = Array(repeating: [], count: bodies.count)
        func round(timed: Bool) {
            for index in bodies.indices where failures[index] == nil {
                let wallBefore = now()
                let cpuBefore = threadCPUTime()
                do {
                    try bodies[index]()
                } catch {
                    failures[index] = error
                    continue
                }
                if timed {
                    cpu[index].append(threadCPUTime() - cpuBefore)
                    wall[index].append(now() - wallBefore)
                }
            }
        }
        for _ in 0..<budget.warmUpRuns { round(timed: false) }
        let start = now()
        var rounds = 0
        while rounds < budget.minimumRuns || (rounds < budget.maximumRuns && now() - start < budget.seconds) {
            round(timed: true)
            rounds += 1
        }
        return bodies.indices.map { index in
            if let failure = failures[index] { return .failure(failure) }
            return .success(
                Timing(
                    median: median(cpu[index]), fastest: cpu[index].min() ?? 0, wallMedian: median(wall[index]),
                    runs: cpu[index].count))
        }
    }

    /// The true median: the mean of the two middle values of an even count.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The peak resident set size of this process, in bytes: since it started or since the last
    /// ``resetPeakResidentBytes()``.
    ///
    /// On Linux this is `VmHWM` from `/proc/self/status`, not `getrusage`'s `ru_maxrss`: a child started with
    /// `posix_spawn` (as `Process` does) inherits its parent's peak in `ru_maxrss`, because the kernel folds the
    /// vfork-shared address space's high-water mark into it at `exec`, so a child of a parent that once held
    /// 1 GB would report at least 1 GB. `VmHWM` belongs to the child's own address space.
    static func peakResidentBytes() -> Int {
        #if os(Linux)
            if let kilobytes = procStatus("VmHWM:") { return kilobytes * 1024 }
        #endif
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #endif
    }

    /// The resident set size of this process now, in bytes (Linux; elsewhere the peak so far).
    static func residentBytes() -> Int {
        #if os(Linux)
            if let kilobytes = procStatus("VmRSS:") { return kilobytes * 1024 }
        #endif
        return peakResidentBytes()
    }

    /// Resets the peak resident set size to the current size (Linux: writes 5 to `/proc/self/clear_refs`).
    /// Returns whether it could; if not, the peak stays the peak since the process started.
    @discardableResult
    static func resetPeakResidentBytes() -> Bool {
        #if os(Linux)
            let descriptor = open("/proc/self/clear_refs", O_WRONLY)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            let five = UInt8(ascii: "5")
            return withUnsafePointer(to: five) { write(descriptor, $0, 1) } == 1
        #else
            return false
        #endif
    }

    #if os(Linux)
        /// A `kB` field of `/proc/self/status`, such as `VmHWM:`.
        private static func procStatus(_ field: String) -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix(field) {
                return Int(line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
            }
            return nil
        }
    #endif

    /// Reads a whole file into `Data` with one allocation of the file's size, so the peak memory is not raised
    /// by temporary buffers.
    static func readFile(_ path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Unavailable(description: "cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Unavailable(description: "cannot stat \(path)") }
        var data = Data(count: Int(status.st_size))
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let done = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard done > 0 else { return false }
                offset += done
            }
            return true
        }
        guard complete else { throw Unavailable(description: "cannot read \(path)") }
        return data
    }

    /// Runs this executable again with `arguments` and returns its exit status and standard output.
    ///
    /// The child's standard error goes to a temporary file and is returned too (a crash message); Swift's
    /// backtracer is turned off in the child so a crash ends quickly.
    static func runSelf(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: selfPath())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let errorPath = NSTemporaryDirectory() + "tether-bench-\(getpid())-child-stderr.txt"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errorFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorFile
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorFile.close()
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: output, as: UTF8.self), errors)
    }

    /// The path of this executable.
    static func selfPath() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return path
            }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// Writes a line to standard error (progress and diagnostics; standard output has only the result lines).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Writes a result line to standard output at once.
    static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }
}
