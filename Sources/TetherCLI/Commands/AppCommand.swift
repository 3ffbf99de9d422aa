import Dispatch
import Foundation
import TetherImages
import TetherTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tether [options]`: the full-screen app (items, notes, posts) on the embedded server or on `--api`.
///
/// Needs a terminal on standard input and output; without one (a pipe, a CI log) `tether` with no arguments
/// prints the overview of its commands instead, and with options it fails with exit code 1.
enum AppCommand {
    static var help: String {
        """
        USAGE: tether [options]

        Opens the full-screen app: Rakuten item search, notes and posts, on an embedded server with the
        built-in data set (notes you add or edit are kept in $XDG_DATA_HOME/tether), or on --api.

        OPTIONS:
          --screen <name>          The screen to open: items (default), notes or posts
          --search <keyword>       Search items for this keyword at start
        \(APIOptions.help)
          -h, --help               Show this help

        KEYS: Tab and 1/2/3 switch screens, / searches, ? lists every key, q quits.

        """
    }

    /// The command line, read.
    struct Options: Equatable {
        var api = APIOptions()
        var screen = TerminalApp.ScreenID.items
        var search: String?
    }

    /// Reads the app's options; `nil` for `--help`.
    static func parse(_ arguments: ArraySlice<String>, environment: [String: String]) throws(CLIError) -> Options? {
        var rest = arguments
        var options = Options()
        options.api = try APIOptions.parse(&rest, environment: environment, command: "tether")
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "-h", "--help":
                return nil
            case "--screen", "--search":
                guard let value = inline ?? rest.popFirst() else {
                    throw .usage("option '\(name)' needs a value", hint: "tether --help")
                }
                if name == "--search" {
                    guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw .usage("--search needs a keyword", hint: "tether --help")
                    }
                    options.search = value
                } else {
                    guard let screen = screen(named: value) else {
                        throw .usage("unknown screen '\(value)': use items, notes or posts", hint: "tether --help")
                    }
                    options.screen = screen
                }
            default:
                throw .usage(
                    argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unknown command '\(argument)'",
                    hint: "tether --help")
            }
        }
        return options
    }

    private static func screen(named name: String) -> TerminalApp.ScreenID? {
        switch name.lowercased() {
        case "items": .items
        case "notes": .notes
        case "posts": .posts
        default: nil
        }
    }

    /// Whether standard input and output are both terminals.
    static var hasTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Runs the app until the user quits, then exits the process: call only from the main thread of
    /// `tether` itself (the main actor needs the main thread, so this never returns).
    static func runInTerminal(_ options: Options) -> Never {
        let session: TerminalSession
        do throws(TerminalError) {
            session = try TerminalSession()
            try session.enterRawMode()
        } catch {
            SystemIO.write(Array("tether: \(error)\n".utf8), to: STDERR_FILENO)
            exit(ExitCode.failure)
        }
        let colorMode = ColorMode.detect(environment: ProcessInfo.processInfo.environment, isTerminal: true)
        Task { @MainActor in
            let runner = TerminalAppRunner(session: session, colorMode: colorMode)
            runner.showStartup(options.api.api == nil ? "Starting the embedded server…" : "Connecting…")
            let environment: APIEnvironment
            do throws(CLIError) {
                environment = try await APIEnvironment.start(options.api)
            } catch {
                session.close()
                SystemIO.write(Array(error.message.utf8), to: STDERR_FILENO)
                exit(error.exitCode)
            }
            let variables = ProcessInfo.processInfo.environment
            let context = await AppContext.open(
                apiClient: environment.client, itemClient: environment.rakuten,
                serverDescription: environment.serverDescription,
                apiDatabase: APIEnvironment.storeDatabaseURL(options.api, variables: variables),
                itemDatabase: APIEnvironment.itemDatabaseURL(options.api, variables: variables), colorMode: colorMode,
                imagePipeline: ImagePipelines.make(environment: variables))
            let app = TerminalApp(context: context, initialScreen: options.screen, initialSearch: options.search)
            await runner.run(app)
            session.close()
            await context.store.flush()
            await context.itemStore.flush()
            context.thumbnails.pipeline.client.configuration.cache?.flush()
            await environment.stop()
            exit(ExitCode.success)
        }
        dispatchMain()
    }
}
