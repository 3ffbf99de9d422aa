import TetherAPIs
import TetherStore
import TetherTerminal

/// `tether notes list|show|add|edit|rm`: the notes of the API server.
///
/// ```text
/// $ tether notes add --title Groceries --body "Milk, eggs"
/// Note 21: Groceries
/// updated 2026-12-01 14:15 UTC
///
/// Milk, eggs
/// ```
///
/// The embedded server keeps the notes across runs (see ``APIEnvironment``). `edit` sends `PATCH` with `If-Match`
/// set to the ETag of a fresh `GET`, so a note changed by someone else in between is not overwritten. The
/// requests live in `NotesCommand+Requests.swift`.
enum NotesCommand: Command {
    static let name = "notes"
    static let summary = "List, show, add, edit and delete notes"
    static let synopsis = "list|show|add|edit|rm [options]"

    static let help = """
        USAGE: tether notes list [--json] [API options]
               tether notes show <id> [--json] [API options]
               tether notes add --title <title> [--body <text>] [--json] [API options]
               tether notes edit <id> [--title <title>] [--body <text>] [--json] [API options]
               tether notes rm <id> [API options]

        'list' prints the notes as a table fitted to the terminal (id, title, the body's start,
        when it changed). 'show' prints one note. 'add' creates a note and prints it with its
        new id. 'edit' changes the title and/or body of a note (at least one of them), unless
        it changed on the server since it was read, and prints the saved note. 'rm' deletes a
        note. The embedded server keeps its notes in $XDG_DATA_HOME/tether/embedded-db.json
        (~/.local/share/tether/embedded-db.json); TETHER_EPHEMERAL=1 keeps them in memory.

        'add', 'edit' and 'rm' first save the change on this device (an outbox in
        $XDG_DATA_HOME/tether), then send it with an Idempotency-Key that every retry reuses, so
        the server applies it once even when an answer is lost.

        Exit code 0: done (the server has the change); 1 when the server refused it or the note
        does not exist, with its message (nothing is kept); 2 for a wrong command line; 3 when
        the outcome is unknown or the server cannot be reached: the change is kept on this
        device and 'tether sync' (or the app) sends it.

        OPTIONS:
          --title <title>          add, edit: the note's title
          --body <text>            add, edit: the note's text (add: empty by default)
          --json                   list: the notes as a JSON array; show, add, edit: the note
                                   as a JSON object (pretty, sorted keys)
          -h, --help               Show this help

        API OPTIONS:
        \(APIOptions.help)

        """

    /// What the command line asks for.
    enum Action: Equatable, Sendable {
        case list
        case show(id: Int)
        case add(title: String, body: String)
        case edit(id: Int, title: String?, body: String?)
        case remove(id: Int)
    }

    /// The command line, read.
    struct Options: Equatable, Sendable {
        var api: APIOptions
        var action: Action
        var json: Bool
    }

    /// What a run produced.
    enum Outcome: Sendable {
        case notes([Note])
        case note(Note)
        case removed(id: Int)
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let variables = APIEnvironment.variables
        guard let options = try parse(arguments, variables: variables) else {
            console.print(help)
            return ExitCode.success
        }
        let database = openDatabase(for: options, variables: variables, console: console)
        let outcome = try APIEnvironment.run(options.api) { (environment) throws(CLIError) -> Outcome in
            try await perform(options.action, client: environment.client, database: database)
        }
        let width = Table.terminalWidth(variables: variables)
        switch outcome {
        case .notes(let notes):
            if options.json {
                console.print(try CommandOutput.json(notes))
            } else if notes.isEmpty {
                console.print("No notes yet. Add one with: tether notes add --title <title> --body <text>\n")
            } else {
                console.print(renderList(notes, width: width))
            }
        case .note(let note):
            console.print(options.json ? try CommandOutput.json(note) : renderNote(note, width: width))
        case .removed(let id):
            console.print("Deleted note \(id).\n")
        }
        return ExitCode.success
    }

    /// The outbox's database for a write (`nil` for `list` and `show`, with `TETHER_EPHEMERAL=1`, or when it
    /// cannot be opened, which is said on standard error).
    static func openDatabase(for options: Options, variables: [String: String], console: Console) -> StoreDatabase? {
        switch options.action {
        case .list, .show: return nil
        case .add, .edit, .remove: break
        }
        guard let url = APIEnvironment.storeDatabaseURL(options.api, variables: variables) else { return nil }
        do {
            return try StoreDatabase(url: url)
        } catch {
            console.printError("tether: \(error.kind.databaseMessage ?? error.description)\n")
            return nil
        }
    }

    /// Reads the command line; `nil` for `--help`.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for a missing or unknown subcommand, a missing or invalid id, an
    ///   unknown option, `add` without a title, `edit` without a title or body, or an extra argument.
    static func parse(_ arguments: ArraySlice<String>, variables: [String: String]) throws(CLIError) -> Options? {
        var arguments = arguments
        let api = try APIOptions.parse(&arguments, environment: variables, command: "tether notes")
        guard let subcommand = arguments.popFirst() else {
            throw .usage("missing the subcommand: list, show, add, edit or rm", hint: "tether notes --help")
        }
        let command = "tether notes \(subcommand)"
        let reader: OptionReader
        switch subcommand {
        case "-h", "--help":
            return nil
        case "list", "show":
            reader = try OptionReader(arguments, flags: ["--json"], command: command)
        case "add", "edit":
            reader = try OptionReader(arguments, flags: ["--json"], options: ["--title", "--body"], command: command)
        case "rm":
            reader = try OptionReader(arguments, command: command)
        default:
            throw .usage(
                "unknown subcommand '\(subcommand)' for 'tether notes' (use list, show, add, edit or rm)",
                hint: "tether notes --help")
        }
        if reader.helpRequested { return nil }
        let action: Action
        switch subcommand {
        case "list":
            if let extra = reader.positionals.first {
                throw .usage("unexpected argument '\(extra)'", hint: reader.hint)
            }
            action = .list
        case "show":
            action = .show(id: try reader.id("note"))
        case "add":
            if let extra = reader.positionals.first {
                throw .usage("unexpected argument '\(extra)' (give the title with --title)", hint: reader.hint)
            }
            guard let title = reader.value("--title") else {
                throw .usage("missing --title for the new note", hint: reader.hint)
            }
            try checkTitle(title, hint: reader.hint)
            action = .add(title: title, body: reader.value("--body") ?? "")
        case "edit":
            let id = try reader.id("note")
            let title = reader.value("--title")
            let body = reader.value("--body")
            guard title != nil || body != nil else {
                throw .usage("nothing to change: give --title, --body or both", hint: reader.hint)
            }
            if let title { try checkTitle(title, hint: reader.hint) }
            action = .edit(id: id, title: title, body: body)
        default:
            action = .remove(id: try reader.id("note"))
        }
        return Options(api: api, action: action, json: reader.flag("--json"))
    }

    /// Refuses a title that is empty or only spaces.
    private static func checkTitle(_ title: String, hint: String) throws(CLIError) {
        guard title.contains(where: { !$0.isWhitespace }) else {
            throw .usage("a note's title cannot be empty", hint: hint)
        }
    }

    // MARK: - Output

    /// The notes as a table: id, title, the body's first line, when they changed.
    static func renderList(_ notes: [Note], width: Int) -> String {
        var table = Table(columns: [
            .init("ID", alignment: .right),
            .init("TITLE", minWidth: 8, maxWidth: 40, flexible: true),
            .init("BODY", minWidth: 8, flexible: true),
            .init("UPDATED", minWidth: 10),
        ])
        for note in notes {
            let firstLine = note.body.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            table.append([String(note.id), note.title, firstLine, note.updatedAt.map(displayTime) ?? "-"])
        }
        return table.render(width: width)
    }

    /// One note: `Note 3: <title>`, when it changed, a blank line and the body wrapped to `width`.
    static func renderNote(_ note: Note, width: Int) -> String {
        var lines = TextLayout.wrap("Note \(note.id): \(note.title)", toColumns: width)
        if let updatedAt = note.updatedAt {
            let time = displayTime(updatedAt)
            lines.append(TextLayout.truncate("updated \(time)\(time == updatedAt ? "" : " UTC")", toColumns: width))
        }
        if !note.body.isEmpty {
            lines.append("")
            lines += TextLayout.wrap(note.body, toColumns: width)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// An ISO 8601 UTC time as `2026-11-30 09:12`; anything else as it is.
    static func displayTime(_ text: String) -> String {
        let characters = Array(text)
        guard characters.count >= 16, characters[10] == "T", characters[13] == ":", text.hasSuffix("Z") else {
            return text
        }
        return String(characters[0..<10]) + " " + String(characters[11..<16])
    }
}
