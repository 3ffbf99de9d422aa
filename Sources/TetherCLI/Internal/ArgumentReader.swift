/// A tiny command-line argument splitter: known flags, positional arguments, and usage errors for the rest.
///
/// ```swift
/// @testable import TetherCLI
///
/// let arguments = try ArgumentReader(
///     ["--compact", "data.json"], flags: ["--compact", "--sort-keys"], command: "tether json")
/// arguments.flag("--compact")        // true
/// let file = arguments.positionals   // ["data.json"]
/// ```
///
/// Rules, as in most Unix tools: an argument starting with `-` is an option, except `-` alone (standard
/// input); `--` ends the options, so everything after it is positional. Options take no values here; see
/// ``OptionReader`` for options with values.
struct ArgumentReader {
    /// The flags that were given, by their spelling in `flags`.
    private(set) var givenFlags: Set<String> = []
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []

    /// Splits `arguments` into flags and positionals.
    ///
    /// - Parameters:
    ///   - flags: the options this command understands, such as `["-h", "--help", "--compact"]`.
    ///   - command: the command's name for messages, such as `"tether json"`.
    /// - Throws: ``CLIError/usage(_:hint:)`` for an option not in `flags`.
    init(_ arguments: some Sequence<String>, flags: Set<String>, command: String) throws(CLIError) {
        var optionsEnded = false
        for argument in arguments {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if flags.contains(argument) {
                givenFlags.insert(argument)
            } else {
                throw .usage("unknown option '\(argument)' for '\(command)'", hint: "\(command) --help")
            }
        }
    }

    /// Whether any of `names` was given.
    func flag(_ names: String...) -> Bool {
        names.contains { givenFlags.contains($0) }
    }
}
