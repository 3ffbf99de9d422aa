import Testing

@testable import TetherCLI

/// `tether [options]`: the full-screen app's command line, which is read before any terminal is touched.
@Suite struct AppCommandTests {
    @Test func optionsAreRead() throws {
        let options = try #require(
            try AppCommand.parse(
                ["--screen", "notes", "--search=ノートパソコン", "--api", "http://127.0.0.1:3000"], environment: [:]))
        #expect(options.screen == .notes)
        #expect(options.search == "ノートパソコン")
        #expect(options.api.api?.absoluteString == "http://127.0.0.1:3000")
        #expect(try AppCommand.parse(["--screen", "POSTS"], environment: [:])?.screen == .posts)
        #expect(try AppCommand.parse(["--screen", "posts", "--help"], environment: [:]) == nil)
    }

    @Test(arguments: [
        (["--screen", "basket"], "unknown screen 'basket'"), (["--screen"], "option '--screen' needs a value"),
        (["--search", "  "], "--search needs a keyword"), (["--bogus"], "unknown option '--bogus'"),
        (["--api", "ftp://example.com"], "--api"), (["--screen", "notes", "extra"], "unknown command 'extra'"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) {
        let result = tether(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func withoutATerminalTheAppFailsWithAHint() {
        // Tests run without the process's terminal: options that would open the app fail plainly instead.
        let result = tether("--screen", "notes")
        #expect(result.status == 1)
        #expect(result.stderr.contains("needs a terminal"))
    }

    @Test func helpDescribesTheAppsOptions() {
        let result = tether("--screen", "items", "--help")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: tether [options]"))
        #expect(result.stdout.contains("--search <keyword>"))
        #expect(result.stdout.contains("--rakuten-app-id"))
    }
}
