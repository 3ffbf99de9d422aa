/// Reads a command line with options that take values: flags, `--name value` or `--name=value` options, and
/// positional arguments.
///
/// ```swift
/// @testable import TetherCLI
///
/// let reader = try OptionReader(
///     ["ノートパソコン", "--page=2", "--json"], flags: ["--json"], options: ["--page"], command: "tether items search")
/// reader.flag("--json")                        // true
/// try reader.integer("--page", in: 1...100)    // 2
/// reader.positionals                           // ["ノートパソコン"]
/// ```
///
/// Rules, as in ``ArgumentReader``: an argument starting with `-` is an option, except `-` alone and anything
/// after `--`. `-h` and `--help` are always understood and set ``helpRequested``; the rest of the line is then not
/// checked, so `tether notes add --help` shows help even without the required options. An option given twice
/// keeps its last value.
struct OptionReader {
    /// Whether `-h` or `--help` was given.
    private(set) var helpRequested = false
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []
    /// The flags that were given.
    private var givenFlags: Set<String> = []
    /// The values of the options that were given, by name.
    private var values: [String: String] = [:]
    /// The command, for messages: `"tether items search"`.
    let command: String

    /// The hint of usage errors: `"<command> --help"`.
    var hint: String { "\(command) --help" }

    /// Splits `arguments`.
    ///
    /// - Parameters:
    ///   - flags: the options without a value, such as `["--json"]`.
    ///   - options: the options with a value, such as `["--page", "--hits"]`.
    ///   - command: the command's name for messages.
    /// - Throws: ``CLIError/usage(_:hint:)`` for an unknown option, an option without its value, or a value
    ///   given to a flag (`--json=1`).
    init(
        _ arguments: some Sequence<String>, flags: Set<String> = [], options: Set<String> = [], command: String
    ) throws(CLIError) {
        self.command = command
        var rest = ArraySlice(arguments)
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                helpRequested = true
                return
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("option '\(name)' takes no value", hint: hint) }
                givenFlags.insert(name)
            } else if options.contains(name) {
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw .usage("option '\(name)' needs a value", hint: hint)
                }
                values[name] = value
            } else {
                throw .usage("unknown option '\(name)' for '\(command)'", hint: hint)
            }
        }
    }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool {
        givenFlags.contains(name)
    }

    /// The value of option `name`, `nil` when it was not given.
    func value(_ name: String) -> String? {
        values[name]
    }

    /// The value of option `name` as a whole number in `range`, `nil` when it was not given.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for a value that is not a number or is out of range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = values[name] else { return nil }
        return try Self.integer(text, in: range, problem: "invalid value '\(text)' for '\(name)'", hint: hint)
    }

    /// The one positional argument as an id (a whole number from 1): `tether notes show 3`.
    ///
    /// - Parameter what: what the id names, for messages: `"note"`.
    /// - Throws: ``CLIError/usage(_:hint:)`` when it is missing or not a number, or for a second argument.
    func id(_ what: String) throws(CLIError) -> Int {
        guard let text = positionals.first else { throw .usage("missing the id of the \(what)", hint: hint) }
        if positionals.count > 1 { throw .usage("unexpected argument '\(positionals[1])'", hint: hint) }
        return try Self.integer(text, in: 1...Int.max, problem: "invalid \(what) id '\(text)'", hint: hint)
    }

    /// `text` as a whole number in `range`.
    ///
    /// - Parameter problem: the start of the message, such as `"invalid note id 'x'"`; `": expected …"` follows.
    /// - Throws: ``CLIError/usage(_:hint:)`` for a value that is not a number or is out of range.
    static func integer(
        _ text: String, in range: ClosedRange<Int>, problem: String, hint: String
    ) throws(CLIError) -> Int {
        let expected =
            range.upperBound == Int.max
            ? "a whole number from \(range.lowerBound)"
            : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(problem): expected \(expected)", hint: hint)
        }
        return number
    }
}
