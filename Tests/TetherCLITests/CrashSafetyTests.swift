import Foundation
import Testing
import TetherJSON
import TetherTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The promise of the outbox, tested as a hostile user would: `tether notes add|edit|rm` in child processes
/// against `tether serve` with random faults, both killed with SIGKILL at random points and restarted, at times a
/// second `tether notes add` running on the same database at once; then `tether sync`. The server must hold exactly
/// what the user did: nothing lost, nothing twice.
///
/// These are the seeds of the outbox's model test (`OutboxModelTests`, in-process crashes) that run the real binary
/// and kill it. CI runs ``ciSeeds`` seeds; more: `TETHER_KILL_SEEDS=50 swift test --filter CrashSafetyTests`; one seed
/// again: `TETHER_KILL_SEED=20261203 swift test --filter CrashSafetyTests`. A seed fixes every command, fault and
/// kill delay; where in its work a killed process was is up to the machine's timing, so a failure's seed makes it
/// likely again rather than certain. The counts (seeds, commands, kills) are printed.
@Suite struct CrashSafetyTests {
    /// What one command did, as far as the test can know.
    enum Ending: Equatable {
        case exited(Int32)
        case killed
    }

    struct Operation {
        enum Kind {
            case add(String)
            case edit(id: Int, title: String)
            case remove(id: Int)
        }
        var kind: Kind
        var result: Ending
        /// The id a confirmed add printed.
        var id: Int?
    }

    /// The seeds CI runs, with ``operationsPerSeed`` commands each.
    static let ciSeeds = 3
    static let operationsPerSeed = 100

    @Test(
        .timeLimit(.minutes(10)),
        .enabled(if: TmuxSession.tether != nil, "needs the tether executable built beside the tests"))
    func killedCommandsAndAKilledServerLoseNothingAndApplyNothingTwice() async throws {
        let tether = try #require(TmuxSession.tether)
        let seeds = seedsFromEnvironment(
            one: "TETHER_KILL_SEED", count: "TETHER_KILL_SEEDS", defaultCount: Self.ciSeeds
        ) { 20_261_202 + $0 }
        var totals = Counts()
        for seed in seeds {
            let (counts, problems) = try await onThread {
                try Self.scenario(tether: tether, operations: Self.operationsPerSeed, seed: seed)
            }
            totals.add(counts)
            if !problems.isEmpty {
                Issue.record(
                    "seed \(seed): \(counts)\n\(problems.joined(separator: "\n"))\nagain: TETHER_KILL_SEED=\(seed)")
                break
            }
        }
        print("kill -9 seeds: \(seeds.count) seeds, \(totals)")
    }

    /// What the seeds did, for the printed report.
    struct Counts: CustomStringConvertible {
        var commands = 0
        var confirmed = 0
        var kept = 0
        var killed = 0
        var concurrent = 0
        var serverKills = 0
        var notes = 0

        mutating func add(_ other: Counts) {
            commands += other.commands
            confirmed += other.confirmed
            kept += other.kept
            killed += other.killed
            concurrent += other.concurrent
            serverKills += other.serverKills
            notes += other.notes
        }

        var description: String {
            "\(commands) commands (\(confirmed) exit 0, \(kept) exit 3, \(killed) killed with SIGKILL, "
                + "\(concurrent) with a second process on the database), server killed \(serverKills) times, "
                + "\(notes) notes on the server at the end"
        }
    }

    /// The scenario's choices, from its seed.
    typealias Random = SeededRandom

    static func scenario(tether: String, operations count: Int, seed: UInt64) throws -> (Counts, [String]) {
        var problems: [String] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-kill9-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("db.json")
        try Data(#"{"notes": []}"#.utf8).write(to: database)
        let port = try freePort()
        let api = "http://127.0.0.1:\(port)"
        var environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

        func startServer(faults: Bool) throws -> ChildProcess {
            var arguments = [
                "serve", database.path, "--port", String(port), "--no-rate-limit",
            ]
            if faults { arguments += ["--reset-rate", "0.15", "--fail-rate", "0.05", "--seed", String(seed)] }
            let server = try ChildProcess(tether, arguments, environment: environment, outputIn: folder)
            try waitForPort(port, server: server)
            return server
        }

        var random = Random(seed: seed)
        var server = try startServer(faults: true)
        var operations: [Operation] = []
        var live: [Int] = []  // notes whose creation was confirmed and that no command removed
        var serverKills = 0
        var concurrent = 0
        for index in 0..<count {
            // Every 40 commands the server is killed, and stays down for 4 commands (they exit 3, kept).
            if index > 0 && index % 40 == 0 {
                server.killNow()
                serverKills += 1
            }
            if index % 40 == 4 && server.hasEnded {
                server = try startServer(faults: true)
            }
            let kind: Operation.Kind
            let choice = random.below(100)
            if live.isEmpty || choice < 50 {
                kind = .add("k9 add \(index)")
            } else if choice < 85 {
                kind = .edit(id: live[random.below(live.count)], title: "k9 edit \(index)")
            } else {
                let position = random.below(live.count)
                kind = .remove(id: live[position])
                live.remove(at: position)
            }
            let arguments: [String]
            switch kind {
            case .add(let title): arguments = ["notes", "add", "--title", title, "--json", "--api", api]
            case .edit(let id, let title): arguments = ["notes", "edit", String(id), "--title", title, "--api", api]
            case .remove(let id): arguments = ["notes", "rm", String(id), "--api", api]
            }
            let child = try ChildProcess(tether, arguments, environment: environment, outputIn: folder)
            // At times a second process adds a note on the same database while this command runs.
            var second: (title: String, process: ChildProcess)?
            if random.below(100) < 15, !isRemove(kind) {
                let title = "k9 second \(index)"
                let process = try ChildProcess(
                    tether, ["notes", "add", "--title", title, "--json", "--api", api], environment: environment,
                    outputIn: folder)
                second = (title, process)
            }
            var result: Ending
            if random.below(100) < 30 {
                usleep(UInt32(random.below(150_000)))
                result = child.hasEnded ? .exited(child.wait()) : .killed
                if result == .killed { child.killNow() }
            } else {
                result = .exited(child.wait())
            }
            var id: Int?
            if case .add = kind, result == .exited(0) {
                id = (try? JSON(parsing: child.stdout))?["id"]?.int
                if let id { live.append(id) }
            }
            if case .exited(let status) = result, status != 0 && status != 3 {
                problems.append("\(arguments.joined(separator: " ")) exited \(status): \(child.stderr)")
            }
            operations.append(Operation(kind: kind, result: result, id: id))
            if let (title, process) = second {
                concurrent += 1
                let status = process.wait()
                var id: Int?
                if status == 0, let made = (try? JSON(parsing: process.stdout))?["id"]?.int {
                    id = made
                    live.append(made)
                } else if status != 3 {
                    problems.append("the second process's notes add exited \(status): \(process.stderr)")
                }
                operations.append(Operation(kind: .add(title), result: .exited(status), id: id))
            }
        }
        server.killNow()
        serverKills += 1
        server = try startServer(faults: false)
        defer { server.killNow() }

        var syncRuns = 0
        var synced = false
        var lastSync = ""
        while !synced && syncRuns < 5 {
            syncRuns += 1
            let sync = try ChildProcess(tether, ["sync", "--api", api], environment: environment, outputIn: folder)
            synced = sync.wait() == 0
            lastSync = sync.stdout + sync.stderr
        }
        if !synced { problems.append("tether sync left writes waiting: \(lastSync)") }

        // The server's notes, from its file: the server is killed once more (its last writes are only in its
        // journal), started again (the journal replayed) and stopped cleanly (SIGTERM: the journal folded into the
        // file, replaced atomically).
        server.killNow()
        serverKills += 1
        let last = try startServer(faults: false)
        kill(last.pid, SIGTERM)
        if last.wait() != 0 { problems.append("tether serve did not stop cleanly: \(last.stderr)") }
        guard let notes = try JSON(parsing: Data(contentsOf: database))["notes"]?.array else {
            return (Counts(), ["no notes in the server's file"])
        }
        var titleOf: [Int: String] = [:]
        for note in notes { if let id = note["id"]?.int { titleOf[id] = note["title"]?.string } }

        var tally = (confirmed: 0, kept: 0, killed: 0)
        // The oracle follows each note the user knows by its id, in the order of the commands. An id can name
        // several notes one after the other: json-server gives a new note the largest id plus one, so deleting the
        // newest note frees its id for the next create. Only the last note under an id is checked at the end.
        struct Known {
            var addTitle: String
            /// The titles the note may have now: the last sure edit's, or any killed edit's after it.
            var titles: Set<String>
            var sureEdit = false
            var removed = false
            var removeMaybe = false
        }
        var known: [Int: Known] = [:]
        let confirmedIDs = Set(operations.compactMap(\.id))
        for operation in operations {
            switch operation.result {
            case .exited(0): tally.confirmed += 1
            case .exited: tally.kept += 1
            case .killed: tally.killed += 1
            }
            let sure = operation.result != .killed
            switch operation.kind {
            case .add(let title):
                if let id = operation.id {
                    known[id] = Known(addTitle: title, titles: [title])
                } else {
                    // Kept (exit 3): there once after the sync; killed: at most once. No id was printed, so no
                    // later command touched it, and it keeps its title.
                    let found = notes.filter { $0["title"]?.string == title }.count
                    if found > 1 || (sure && found != 1) {
                        problems.append("\(title): \(found) on the server after \(operation.result)")
                    }
                }
            case .edit(let id, let title):
                guard var note = known[id] else { continue }
                if sure {
                    note.titles = [title]
                    note.sureEdit = true
                } else {
                    note.titles.insert(title)
                }
                known[id] = note
            case .remove(let id):
                guard var note = known[id] else { continue }
                if sure { note.removed = true } else { note.removeMaybe = true }
                known[id] = note
            }
        }
        for (id, note) in known {
            let now = notes.first { $0["id"]?.int == id }
            let title = now?["title"]?.string
            if note.removed {
                // Gone, or the id names a later note (a create the oracle did not see confirmed).
                if let title, note.titles.contains(title) || title == note.addTitle {
                    problems.append("note \(id) ('\(title)') was removed but is still there")
                }
            } else if let title {
                let allowed = note.titles.contains(title) || (!note.sureEdit && title == note.addTitle)
                if !allowed { problems.append("note \(id) is '\(title)', expected one of \(note.titles)") }
            } else if !note.removeMaybe {
                problems.append("note \(id) ('\(note.addTitle)') is not on the server")
            }
        }
        if Set(notes.compactMap { $0["id"]?.int }).count != notes.count { problems.append("repeated ids") }
        // Nothing twice: a note the test did not see confirmed must be an unconfirmed add, under its own title.
        let unconfirmedTitles = Set(
            operations.compactMap { operation -> String? in
                if case .add(let title) = operation.kind, operation.id == nil { return title }
                return nil
            })
        for note in notes where !confirmedIDs.contains(note["id"]?.int ?? 0) {
            let title = note["title"]?.string ?? ""
            if !unconfirmedTitles.contains(title) { problems.append("an extra note on the server: \(note)") }
        }
        var counts = Counts()
        counts.commands = operations.count
        counts.confirmed = tally.confirmed
        counts.kept = tally.kept
        counts.killed = tally.killed
        counts.concurrent = concurrent
        counts.serverKills = serverKills
        counts.notes = notes.count
        return (counts, problems)
    }

    private static func isRemove(_ kind: Operation.Kind) -> Bool {
        if case .remove = kind { return true }
        return false
    }

    /// A port nothing listens on now.
    static func freePort() throws -> Int { try freeLoopbackPort() }

    /// Waits (up to 20 s) until something accepts connections on `port`.
    static func waitForPort(_ port: Int, server: ChildProcess) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if server.hasEnded { throw SpawnError(message: "tether serve ended: \(server.stderr)") }
            if let fd = connectToLoopback(port: port) {
                close(fd)
                return
            }
            usleep(20_000)
        }
        throw SpawnError(message: "tether serve did not listen on \(port)")
    }

    /// Runs `body` on a thread of its own (it blocks on child processes), off the concurrency pool.
    func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
