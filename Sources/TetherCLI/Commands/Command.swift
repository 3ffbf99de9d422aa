/// One `tether` subcommand, such as `tether json`.
///
/// A command is a caseless enum with static metadata and a `run` function. It reads its own arguments (with
/// ``ArgumentReader``), writes through the ``Console`` and returns its exit code; it reports usage mistakes and
/// failures by throwing ``CLIError`` rather than printing them, so the messages look the same everywhere.
protocol Command {
    /// The word that selects the command: `tether <name>`.
    static var name: String { get }
    /// What the command does, in a few words, for the command list.
    static var summary: String { get }
    /// The arguments after the name, for the command list: `"<file|->"`.
    static var synopsis: String { get }
    /// The full help text, ending with a newline.
    static var help: String { get }

    /// Runs the command with the arguments that follow its name.
    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32
}

extension TetherCLI {
    /// Every command, in the order the help lists them.
    static var commands: [any Command.Type] {
        [
            ItemsCommand.self, PostsCommand.self, NotesCommand.self, SyncCommand.self, JSONCommand.self,
            GetCommand.self, ImageCommand.self,
            ServeCommand.self, HelpCommand.self, VersionCommand.self,
        ]
    }

    /// The command called `name`, if there is one.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    /// The command list for help texts: one indented line per command, aligned.
    static var commandList: String {
        let entries = commands.map { command in
            (command.synopsis.isEmpty ? command.name : "\(command.name) \(command.synopsis)", command.summary)
        }
        let width = entries.map(\.0.count).max() ?? 0
        return entries.map { usage, summary in
            "  " + usage + String(repeating: " ", count: width - usage.count + 3) + summary + "\n"
        }.joined()
    }
}
