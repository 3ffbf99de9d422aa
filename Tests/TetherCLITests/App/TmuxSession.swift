import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `tmux` server of its own running one program in a detached window: keys in, the screen's text out.
///
/// Each session uses a private socket (`tmux -L`), so tests never touch the user's tmux or each other.
final class TmuxSession {
    /// The `tmux` executable, when the machine has one.
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The `tether` executable built beside the test bundle, when there is one.
    static let tether: String? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("tether").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// Whether tmux tests can run here.
    static var isAvailable: Bool { tmux != nil && tether != nil }

    private let socket = "tether-test-\(UUID().uuidString.prefix(8))"
    private let tmux: String

    /// Starts `command` (a shell command line) in a `width` × `height` window.
    init(_ command: String, width: Int = 100, height: Int = 30) throws {
        tmux = try #require(Self.tmux)
        try run(
            [
                "new-session", "-d", "-s", "app", "-x", String(width), "-y", String(height),
                "sh", "-c", command,
            ], readsOutput: false)
        try run(["set-option", "-t", "app", "remain-on-exit", "on"], readsOutput: false)
        serverID = pid_t(try run(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The tmux server's process id, to make sure it is gone at the end.
    private var serverID: pid_t?

    /// Asks the server to end and makes sure it does: a server left behind would keep the descriptors it inherited
    /// open and its program running after the tests. The wait runs on a thread of its own, off the concurrency
    /// pool (a deinit cannot suspend, and blocking one of the pool's few threads for seconds starves other tests).
    deinit {
        _ = try? run(["kill-server"], readsOutput: false)
        guard let serverID, serverID > 0 else { return }
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(5)
            while TmuxSession.isRunning(serverID), Date() < deadline { usleep(20_000) }
            if TmuxSession.isRunning(serverID) { kill(serverID, SIGKILL) }
        }
    }

    /// Asks the server to end (`kill-server`, which hangs up its program) and waits up to 5 s for it to be gone;
    /// returns whether it is. Idempotent.
    func stop() async -> Bool {
        _ = try? run(["kill-server"], readsOutput: false)
        guard let serverID, serverID > 0 else { return false }
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.isRunning(serverID), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !Self.isRunning(serverID)
    }

    /// Whether process `id` exists and is not a zombie (a daemon's exit leaves one where nobody reaps it).
    private static func isRunning(_ id: pid_t) -> Bool {
        guard kill(id, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        return !stat[end...].hasPrefix(") Z")
    }

    /// Runs tmux with `arguments` and returns its standard output.
    ///
    /// Spawns and reaps the child with `posix_spawn` and `waitpid` directly: Foundation's `Process` waits for a
    /// SIGCHLD-driven notification that never came in the test runner (the tmux client stayed a zombie).
    ///
    /// The child starts clean: no signal blocked or ignored (a concurrency thread blocks nearly all, and a tmux
    /// server started with SIGCHLD blocked never reaps its program, so `kill-server` never ends it), and no
    /// descriptor but 0, 1 and 2 (the server lives on in the background and must not hold the test runner's pipes
    /// open).
    @discardableResult
    func run(_ arguments: [String], readsOutput: Bool = true) throws -> String {
        let argv = [tmux, "-L", socket, "-f", "/dev/null"] + arguments
        var pipe: [Int32] = [-1, -1]
        if readsOutput {
            #if canImport(Glibc)
                guard Glibc.pipe(&pipe) == 0 else { throw SpawnFailure(arguments: argv) }
            #else
                guard Darwin.pipe(&pipe) == 0 else { throw SpawnFailure(arguments: argv) }
            #endif
            _ = fcntl(pipe[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipe[1], F_SETFD, FD_CLOEXEC)  // dup2 clears it on the child's copy
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        #if canImport(Darwin)
            // Apple's spawn closes every descriptor the actions do not name.
            let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
            let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if readsOutput {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            // The first command starts the tmux server, which keeps the descriptors it inherits.
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        #if !canImport(Darwin)
            closeDescriptorsFromThree(&actions)  // last: the actions run in order, and the pipe is dup'ed above
        #endif
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" }.map {
            "\($0.key)=\($0.value)"
        }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, tmux, &actions, &attributes, &cArguments, &cEnvironment)
        var output: [UInt8] = []
        if readsOutput {
            close(pipe[1])
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while status == 0 {
                let count = read(pipe[0], &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output += chunk[0..<count]
            }
            close(pipe[0])
        }
        guard status == 0 else { throw SpawnFailure(arguments: argv) }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }

    /// Adds "close every descriptor from 3 up" to `actions` (glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`,
    /// looked up at run time as Swift does not see it); where it is missing, closes the descriptors open now.
    private func closeDescriptorsFromThree(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        var arguments: [String]
        var description: String { "cannot run \(arguments.joined(separator: " "))" }
    }

    /// Sends keys in tmux's notation (`"Enter"`, `"Down"`, `"C-s"`) or, with `literally`, as text.
    func send(_ keys: String..., literally: Bool = false) throws {
        try run(["send-keys", "-t", "app"] + (literally ? ["-l"] : []) + keys)
    }

    /// The window's text now.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "app"])
    }

    /// The pane's text with its colours and attributes as escape sequences (`capture-pane -e`).
    func coloredScreen() throws -> String {
        try run(["capture-pane", "-e", "-p", "-t", "app"])
    }

    /// Whether the program has ended.
    func hasExited() throws -> Bool {
        try run(["display-message", "-p", "-t", "app", "#{pane_dead}"]).hasPrefix("1")
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "app", "-x", String(width), "-y", String(height)])
    }

    /// Waits (up to a generous deadline) until the screen satisfies `condition`; returns the last screen.
    @discardableResult
    func waitFor(
        _ description: String, seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (String) -> Bool
    ) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = try screen()
        while !condition(text) {
            guard Date() < deadline else {
                Issue.record(
                    "timed out waiting for \(description); the screen shows:\n\(text)", sourceLocation: sourceLocation)
                return text
            }
            try await Task.sleep(for: .milliseconds(50))
            text = try screen()
        }
        return text
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await waitFor("'\(text)'", sourceLocation: sourceLocation) { $0.contains(text) }
    }
}
