import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program started with `posix_spawn`, its output in files, that a test can wait for or kill with SIGKILL.
///
/// The child starts with no signal blocked or ignored (a concurrency thread blocks nearly all) and its standard
/// input from `/dev/null`.
final class ChildProcess {
    let pid: pid_t
    let stdoutFile: URL
    let stderrFile: URL
    private(set) var status: Int32?

    /// Starts `executable` with `arguments` and exactly the variables `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String], outputIn folder: URL) throws {
        let name = UUID().uuidString.prefix(8)
        stdoutFile = folder.appendingPathComponent("out-\(name)")
        stderrFile = folder.appendingPathComponent("err-\(name)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(message: "posix_spawn \(executable): \(result)") }
        pid = child
    }

    /// Waits for the child to end; its exit status (128 + the signal when a signal ended it).
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// Sends SIGKILL and reaps the child.
    @discardableResult
    func killNow() -> Int32 {
        if let status { return status }  // reaped: the pid may name another process now
        kill(pid, SIGKILL)
        return wait()
    }

    /// Whether the child has ended (reaping it if so).
    var hasEnded: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return false }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return true
    }

    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }
}

struct SpawnError: Error {
    var message: String
}
