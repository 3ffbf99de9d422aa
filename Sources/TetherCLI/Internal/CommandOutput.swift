import TetherJSON

/// Text helpers shared by the API commands' output.
enum CommandOutput {
    /// `value` as JSON for `--json`: pretty-printed with two spaces, keys sorted, `/` and non-ASCII text as they
    /// are, ending with a newline.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the value cannot be encoded (a non-finite number).
    static func json(_ value: some Encodable) throws(CLIError) -> String {
        var encoder = TetherJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encodeToBytes(value), as: UTF8.self) + "\n"
        } catch {
            throw .failure("cannot write the answer as JSON: \(error)")
        }
    }

    /// `number` with its digits grouped by three: `1,234`, `-5,000`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
