import Foundation
import TetherAPIs
import TetherJSON
import TetherStore
import TetherSync

/// `tether sync [--list]`: sends the writes that the app and the commands kept on this device (their outbox), or
/// lists them.
///
/// ```text
/// $ tether sync
/// sent     #4 POST /notes (note -3): 201
/// sent     #5 PATCH /notes/21: 200
/// nothing is waiting
/// ```
///
/// Each write goes out with the `Idempotency-Key` it was given when it was made, so a write whose first answer was
/// lost is not applied twice. Writes of one entity go in order; a refused one stays (marked failed) until the app
/// retries or discards it.
enum SyncCommand: Command {
    static let name = "sync"
    static let summary = "Send the changes waiting on this device, or list them"
    static let synopsis = "[--list] [API options]"

    static let help = """
        USAGE: tether sync [--list] [API options]

        Sends the changes that the app and 'tether notes' kept on this device because the server
        could not confirm them (their outbox, in $XDG_DATA_HOME/tether), oldest first, and prints
        what became of each: sent, failed (the server refused it; it stays until the app retries
        or discards it) or waiting (the server still cannot be reached). With --list, only lists
        them: each with its method and path, state, when it was made, its attempts and last error,
        and on the line below what it changes (the note and its title; for an edit, the fields that
        differ from the server's version last seen here).

        Exit code 0 when nothing is left waiting; 1 when changes are still waiting (or failed), or
        the outbox cannot be read; 2 for a wrong command line.

        OPTIONS:
          --list                   only list the waiting changes
          -h, --help               Show this help

        API OPTIONS:
        \(APIOptions.help)

        """

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let variables = APIEnvironment.variables
        var arguments = arguments
        let api = try APIOptions.parse(&arguments, environment: variables, command: "tether sync")
        let reader = try OptionReader(arguments, flags: ["--list"], command: "tether sync")
        if reader.helpRequested {
            console.print(help)
            return ExitCode.success
        }
        if let extra = reader.positionals.first {
            throw .usage("unexpected argument '\(extra)'", hint: reader.hint)
        }
        guard let url = APIEnvironment.storeDatabaseURL(api, variables: variables) else {
            console.print("nothing is waiting (TETHER_EPHEMERAL keeps no changes on this device)\n")
            return ExitCode.success
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            console.print("nothing is waiting\n")
            return ExitCode.success
        }
        let database: StoreDatabase
        do {
            database = try StoreDatabase(url: url)
        } catch {
            throw .failure(error.kind.databaseMessage ?? error.description)
        }
        if reader.flag("--list") {
            let entries = try wait { () async throws(StoreError) in
                var described: [(OutboxEntry, Data?)] = []
                for entry in try await database.outboxEntries() {
                    described.append((entry, try? await database.serverVersion(of: entry)))
                }
                return described
            }
            for (entry, server) in entries {
                console.print(describe(entry) + "\n")
                console.print("    " + describeChange(entry, server: server) + "\n")
            }
            console.print(entries.isEmpty ? "nothing is waiting\n" : "\(entries.count) waiting\n")
            return entries.isEmpty ? ExitCode.success : ExitCode.failure
        }
        let left = try APIEnvironment.run(api) { (environment) throws(CLIError) -> [String] in
            let outbox = Outbox(database: database, client: environment.client)
            let report = await outbox.sendAll(
                retries: Outbox.Retries(maximumAttempts: 4, initialDelay: .milliseconds(250), maximumDelay: .seconds(2))
            )
            var lines: [String] = []
            for (entry, body) in report.confirmed {
                var line = "sent     #\(entry.id) \(entry.method) \(entry.path)"
                if entry.kind == .create, let id = (try? JSON(parsing: body))?["id"].map({ "\($0)" }) {
                    line += " (now \(entry.collectionPath)/\(id))"
                }
                lines.append(line)
            }
            for (entry, error) in report.failed {
                lines.append(
                    "failed   #\(entry.id) \(entry.method) \(entry.path): \(error.httpError?.message ?? error.message)")
            }
            for (entry, error) in report.pending {
                let reason = error.map { ": " + ($0.httpError?.message ?? $0.message) } ?? " (behind an earlier change)"
                lines.append("waiting  #\(entry.id) \(entry.method) \(entry.path)\(reason)")
            }
            let remaining = (try? await database.outboxEntries().count) ?? 0
            lines.append(remaining == 0 ? "nothing is waiting" : "\(remaining) still waiting")
            return lines
        }
        for line in left { console.print(line + "\n") }
        return left.last == "nothing is waiting" ? ExitCode.success : ExitCode.failure
    }

    /// One entry as a line of `--list`.
    static func describe(_ entry: OutboxEntry) -> String {
        var line = "#\(entry.id) \(entry.method) \(entry.path) \(entry.state.rawValue)"
        line += ", made \(entry.createdAt.formatted(.iso8601))"
        if entry.attempts > 0 { line += ", \(entry.attempts) attempt\(entry.attempts == 1 ? "" : "s")" }
        if let error = entry.lastError { line += ": \(error)" }
        return line
    }

    /// What a waiting write changes, for the line under its entry in `--list`: the entity, its title, and for an
    /// update the fields that differ from the server's version the database knows (`server`, JSON).
    ///
    /// `note 3 "Groceries": changes title, body` · `new note "Groceries"` · `deletes note 3 "Groceries"`
    static func describeChange(_ entry: OutboxEntry, server: Data?) -> String {
        let value = entry.value.flatMap { try? JSON(parsing: $0) }?.object
        let known = server.flatMap { try? JSON(parsing: $0) }?.object
        let noun = entry.entityType.split(separator: ".").last.map { $0.lowercased() } ?? entry.entityType
        var title = ""
        if let label = label(of: value) ?? label(of: known) { title = " \"\(label)\"" }
        switch entry.kind {
        case .create:
            return "new \(noun)\(title) (temporary id \(entry.entityID))"
        case .delete:
            return "deletes \(noun) \(entry.entityID)\(title)"
        case .update:
            guard let value else { return "changes \(noun) \(entry.entityID)\(title)" }
            let changed = value.keys.filter { key in key != "id" && known?[key] != value[key] }
            let fields = changed.isEmpty ? "nothing new" : changed.joined(separator: ", ")
            return "\(noun) \(entry.entityID)\(title): changes \(fields)"
        }
    }

    /// A short label of an entity: its `title`, `name` or `subject`, on one line, at most 40 characters.
    private static func label(of object: JSON.Object?) -> String? {
        guard let object else { return nil }
        for key in ["title", "name", "subject"] {
            guard let text = object[key]?.string, !text.isEmpty else { continue }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
            return line.count > 40 ? String(line.prefix(39)) + "…" : line
        }
        return nil
    }

    /// Runs `body` to its end from this (non-pool) thread.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws(StoreError) -> T) throws(CLIError)
        -> T
    {
        do throws(StoreError) {
            return try runBlocking(body)
        } catch {
            throw .failure(error.kind.databaseMessage ?? error.description)
        }
    }
}
