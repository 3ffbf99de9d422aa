/// `tether version` (also `tether --version`): prints the version.
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version"
    static let synopsis = ""

    static let help = """
        USAGE: tether version

        Prints the version of tether, such as '\(TetherCLI.version)'.

        """

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let arguments = try ArgumentReader(arguments, flags: ["-h", "--help"], command: "tether version")
        if arguments.flag("-h", "--help") {
            console.print(help)
            return ExitCode.success
        }
        if let extra = arguments.positionals.first {
            throw .usage("unexpected argument '\(extra)'", hint: "tether version --help")
        }
        console.print("tether \(TetherCLI.version)\n")
        return ExitCode.success
    }
}
