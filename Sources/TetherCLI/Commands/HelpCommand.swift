/// `tether help [command]` (also `tether --help`): the usage of `tether` or of one command.
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "Show help for tether or for a command"
    static let synopsis = "[command]"

    static var help: String {
        """
        USAGE: tether [--screen items|notes|posts] [--search <keyword>] [API options]
               tether <command> [options]

        Without a command, in a terminal, tether opens the full-screen app: Rakuten item search,
        notes and posts, on an embedded server (or --api). Keys: Tab and 1/2/3 switch screens,
        / searches, ? lists every key, q quits. 'tether --screen notes --help' shows its options.

        COMMANDS:
        \(TetherCLI.commandList)
        OPTIONS:
          -h, --help   Show this help
          --version    Print the version

        Run 'tether help <command>' or 'tether <command> --help' for a command's options.

        """
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let arguments = try ArgumentReader(arguments, flags: ["-h", "--help"], command: "tether help")
        switch arguments.positionals.count {
        case 0:
            console.print(help)
        case 1:
            let name = arguments.positionals[0]
            guard let command = TetherCLI.command(named: name) else {
                throw .usage("unknown command '\(name)'", hint: "tether --help")
            }
            console.print(command.help)
        default:
            throw .usage("unexpected argument '\(arguments.positionals[1])'", hint: "tether help --help")
        }
        return ExitCode.success
    }
}
