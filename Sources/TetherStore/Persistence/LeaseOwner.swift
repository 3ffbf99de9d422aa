import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who holds an outbox entry's lease: a process on this machine, named so that another process can tell whether
/// the holder still runs.
///
/// The name is `<pid>-<start>-<tag>` on Linux, where `<start>` is the process's start time from `/proc` (in clock
/// ticks since boot), and `<pid>-<tag>` elsewhere. The start time matters because process ids are reused:
/// `pid_max` is often 32,768 and every thread takes an id, so the id of a process killed in the middle of a send
/// can name another process within minutes, which must not keep the entry held until its lease runs out.
///
/// - Thread safety: stateless functions; callable from any thread.
enum LeaseOwner {
    /// The name of this process, with a random tag that tells its databases' connections apart.
    static func current() -> String {
        let tag = String(RandomKey.uuid().prefix(8))
        if let start = thisProcess.start { return "\(thisProcess.pid)-\(start)-\(tag)" }
        return "\(thisProcess.pid)-\(tag)"
    }

    /// This process's id and start time, read from `/proc` once: every database it opens names it (reading the
    /// file took about 50 µs of the 175 µs that opening a database took).
    private static let thisProcess: (pid: Int32, start: UInt64?) = {
        let pid = getpid()
        return (pid, startTime(of: pid))
    }()

    /// Whether the process that `owner` names has ended (so its leases are free). An owner that cannot be read
    /// counts as running.
    static func hasEnded(_ owner: String) -> Bool {
        let parts = owner.split(separator: "-")
        guard let pid = parts.first.flatMap({ Int32($0) }), pid > 0 else { return false }
        if parts.count == 3, let recorded = UInt64(parts[1]), let start = startTime(of: pid) {
            // The id is in use: by the holder only if it started when the holder did.
            return start != recorded
        }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The start time of process `pid` (field 22 of `/proc/<pid>/stat`), or `nil` where there is no `/proc` or
    /// no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return nil }
            // After the command name (which may hold spaces and parentheses): field 3, the state, onwards.
            let fields = text[text.index(after: close)...].split(separator: " ")
            return fields.count > 19 ? UInt64(fields[19]) : nil
        #else
            return nil
        #endif
    }
}
