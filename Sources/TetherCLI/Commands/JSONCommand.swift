import TetherJSON

/// `tether json <file|->`: validates JSON and pretty-prints it.
///
/// Reads the whole file, or standard input for `-`, parses it strictly, and writes it to standard output with a
/// two-space indent and members in their original order (`--sort-keys` sorts them, `--compact` prints one line).
/// Invalid JSON is reported on standard error with the place and an excerpt, and exit code 1:
///
/// ```text
/// tether: data.json:1:9: expected ',' or '}' after an object member, found '"'
///   {"a": 1 "b": 2}
///           ^
/// ```
enum JSONCommand: Command {
    static let name = "json"
    static let summary = "Check JSON and pretty-print it"
    static let synopsis = "<file|->"

    static let help = """
        USAGE: tether json [--sort-keys] [--compact] <file|->

        Reads JSON from a file, or from standard input when the file is '-', checks that it
        is valid, and prints it indented by two spaces with members in their original order.
        Invalid JSON is reported on standard error with its line, column and an excerpt,
        and the exit code is 1.

        OPTIONS:
          --sort-keys   Sort object members by key
          --compact     Print on one line without spaces
          -h, --help    Show this help

        """

    /// The name used for standard input in messages.
    static let standardInputName = "<stdin>"

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let arguments = try ArgumentReader(
            arguments, flags: ["-h", "--help", "--sort-keys", "--compact"], command: "tether json")
        if arguments.flag("-h", "--help") {
            console.print(help)
            return ExitCode.success
        }
        guard let path = arguments.positionals.first else {
            throw .usage("missing the file to read (use '-' for standard input)", hint: "tether json --help")
        }
        if arguments.positionals.count > 1 {
            throw .usage("unexpected argument '\(arguments.positionals[1])'", hint: "tether json --help")
        }

        let name = path == "-" ? standardInputName : path
        let input = try read(path, console: console)
        let json: JSON
        do {
            json = try JSONParser().parse(input)
        } catch {
            throw .failure(describe(error, in: name))
        }

        // URLs are common in API responses: print their slashes as they are, not as `\/`.
        var options: JSONWriter.Options = [.withoutEscapingSlashes]
        if !arguments.flag("--compact") { options.insert(.prettyPrinted) }
        if arguments.flag("--sort-keys") { options.insert(.sortedKeys) }
        var output: [UInt8]
        do {
            output = try JSONWriter(options: options, indentWidth: 2).bytes(json)
        } catch {
            throw .failure(describe(error, in: name))
        }
        output.append(UInt8(ascii: "\n"))
        console.writeOutput(output)
        return ExitCode.success
    }

    /// The bytes of the file at `path`, or of standard input for `-`.
    static func read(_ path: String, console: Console) throws(CLIError) -> [UInt8] {
        if path == "-" {
            do {
                return try console.readInput()
            } catch {
                throw .failure("cannot read standard input: \(error)")
            }
        }
        do {
            return try SystemIO.read(path: path)
        } catch {
            throw .failure("cannot read '\(path)': \(error)")
        }
    }

    /// A parse error as `<name>:<line>:<column>: <message>`, then the excerpt with a caret under the spot.
    static func describe(_ error: JSONError, in name: String) -> String {
        guard let location = error.location else { return "\(name): \(error.message)" }
        var text = "\(name):\(location.line):\(location.column): \(error.message)"
        if !location.excerpt.isEmpty {
            text += "\n  \(location.excerpt)\n  " + String(repeating: " ", count: location.excerptColumn) + "^"
        }
        return text
    }
}
