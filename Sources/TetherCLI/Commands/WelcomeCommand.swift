/// What `tether` does with no arguments: says what Tether is and what it can do today.
///
/// Not listed among the commands. In a terminal, `tether` opens the full-screen app instead (``AppCommand``); this
/// is what it prints when standard input or output is not a terminal.
enum WelcomeCommand {
    static var text: String {
        """
        Tether \(TetherCLI.version): JSON from REST APIs into Swift apps, kept in sync.

        Tether is a Swift package that fetches JSON from REST APIs, parses and decodes it fast,
        and keeps it in sync on device. This is its command-line tool.

        In a terminal, 'tether' opens the full-screen app (item search, notes, posts) on an embedded
        server; here standard input or output is not a terminal. These commands work anywhere:

        \(TetherCLI.commandList)
        Examples:
          tether json response.json               check and pretty-print a file
          curl -s URL | tether json --compact -   check standard input, print it on one line

        Run 'tether --help' for usage, or 'tether <command> --help' for a command's options.

        """
    }

    static func run(console: Console) -> Int32 {
        console.print(text)
        return ExitCode.success
    }
}
