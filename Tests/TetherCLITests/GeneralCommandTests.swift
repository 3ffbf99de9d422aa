import Testing

@testable import TetherCLI

/// `tether` with no arguments, `--help`, `--version`, `help`, `version`, and wrong command lines.
@Suite struct GeneralCommandTests {
    @Test func noArgumentsPrintsTheWelcomeAndSucceeds() {
        let result = tether()

        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("Tether \(TetherCLI.version): JSON from REST APIs"))
        #expect(result.stdout.contains("opens the full-screen app"))
        #expect(result.stdout.contains("  json <file|->"))
        #expect(result.stdout.contains("tether --help"))
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpListsEveryCommand(arguments: [String]) {
        let result = tether(arguments: arguments)

        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("USAGE: tether [--screen items|notes|posts]"))
        #expect(result.stdout.contains("tether <command> [options]"))
        for command in TetherCLI.commands {
            #expect(result.stdout.contains("\n  \(command.name)"), "missing \(command.name)")
        }
        #expect(result.stdout.contains("--version"))
    }

    @Test(arguments: [["help", "json"], ["json", "--help"], ["json", "-h"], ["--help", "json"]])
    func commandHelpShowsItsOptions(arguments: [String]) {
        let result = tether(arguments: arguments)

        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: tether json [--sort-keys] [--compact] <file|->\n"))
        #expect(result.stdout.contains("--sort-keys"))
        #expect(result.stdout.contains("--compact"))
    }

    @Test(arguments: [["--version"], ["version"]])
    func versionPrintsTheVersionConstant(arguments: [String]) {
        let result = tether(arguments: arguments)

        #expect(result.status == 0)
        #expect(result.stdout == "tether 0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func versionIsSemanticVersion() {
        let parts = TetherCLI.version.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { Int($0) != nil })
    }

    @Test(arguments: [
        (["frob"], "tether: unknown command 'frob'; see 'tether --help'\n"),
        (["--frob"], "tether: unknown option '--frob'; see 'tether --help'\n"),
        (["-x", "json"], "tether: unknown option '-x'; see 'tether --help'\n"),
        (["help", "frob"], "tether: unknown command 'frob'; see 'tether --help'\n"),
        (["help", "json", "extra"], "tether: unexpected argument 'extra'; see 'tether help --help'\n"),
        (["version", "2"], "tether: unexpected argument '2'; see 'tether version --help'\n"),
        (
            ["--version", "--short"],
            "tether: unknown option '--short' for 'tether version'; see 'tether version --help'\n"
        ),
    ])
    func wrongCommandLinesExitWithTwoAndOneLine(arguments: [String], message: String) {
        let result = tether(arguments: arguments)

        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message)
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func commandNamesAreCaseSensitive() {
        #expect(tether("JSON", "-").status == 2)
    }
}
