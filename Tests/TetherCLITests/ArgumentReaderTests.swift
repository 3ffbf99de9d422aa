import Testing

@testable import TetherCLI

@Suite struct ArgumentReaderTests {
    @Test func splitsFlagsFromPositionalsInAnyOrder() throws {
        let reader = try ArgumentReader(["a", "--x", "b", "-y"], flags: ["--x", "-y", "--z"], command: "t")

        #expect(reader.positionals == ["a", "b"])
        #expect(reader.flag("--x"))
        #expect(reader.flag("-y"))
        #expect(!reader.flag("--z"))
        #expect(reader.flag("--z", "-y"))
    }

    @Test func aLoneDashIsPositional() throws {
        let reader = try ArgumentReader(["-"], flags: [], command: "t")

        #expect(reader.positionals == ["-"])
    }

    @Test func doubleDashEndsOptions() throws {
        let reader = try ArgumentReader(["--x", "--", "--x", "--"], flags: ["--x"], command: "t")

        #expect(reader.positionals == ["--x", "--"])
        #expect(reader.flag("--x"))
    }

    @Test func unknownOptionThrowsAUsageErrorNamingTheCommand() {
        #expect(throws: CLIError.usage("unknown option '--q' for 't sub'", hint: "t sub --help")) {
            try ArgumentReader(["--q"], flags: ["--x"], command: "t sub")
        }
    }

    @Test func errorsMapToExitCodesAndMessages() {
        #expect(CLIError.usage("bad", hint: "t --help").exitCode == 2)
        #expect(CLIError.usage("bad", hint: "t --help").message == "tether: bad; see 't --help'\n")
        #expect(CLIError.failure("broken").exitCode == 1)
        #expect(CLIError.failure("broken").message == "tether: broken\n")
    }
}
