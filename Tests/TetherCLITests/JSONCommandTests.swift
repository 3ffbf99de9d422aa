import Testing

@testable import TetherCLI

/// `tether json <file|->`: pretty-printing, options, parse errors, unreadable files and usage errors.
@Suite struct JSONCommandTests {
    static let sample = #"{"b": [1, 2.5, "x\n"], "a": {"z": null, "y": true}, "e": {}, "f": []}"#

    static let pretty = """
        {
          "b": [
            1,
            2.5,
            "x\\n"
          ],
          "a": {
            "z": null,
            "y": true
          },
          "e": {},
          "f": []
        }

        """

    // MARK: Output

    @Test func prettyPrintsAFileWithTwoSpacesInOriginalOrder() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("sample.json", Self.sample)

        let result = tether("json", path)

        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == Self.pretty)
        #expect(result.stdinReads == 0)
    }

    @Test func readsStandardInputForADash() {
        let result = tether("json", "-", stdinText: Self.sample)

        #expect(result.status == 0)
        #expect(result.stdout == Self.pretty)
        #expect(result.stdinReads == 1)
    }

    @Test func sortKeysSortsEveryObject() {
        let result = tether("json", "--sort-keys", "-", stdinText: Self.sample)

        #expect(result.status == 0)
        #expect(
            result.stdout == """
                {
                  "a": {
                    "y": true,
                    "z": null
                  },
                  "b": [
                    1,
                    2.5,
                    "x\\n"
                  ],
                  "e": {},
                  "f": []
                }

                """)
    }

    @Test func compactPrintsOneLine() {
        let result = tether("json", "--compact", "-", stdinText: Self.sample)

        #expect(result.status == 0)
        #expect(result.stdout == #"{"b":[1,2.5,"x\n"],"a":{"z":null,"y":true},"e":{},"f":[]}"# + "\n")
    }

    @Test func compactAndSortKeysCombineInAnyOrder() {
        let expected = #"{"a":{"y":true,"z":null},"b":[1,2.5,"x\n"],"e":{},"f":[]}"# + "\n"

        #expect(tether("json", "--compact", "--sort-keys", "-", stdinText: Self.sample).stdout == expected)
        #expect(tether("json", "-", "--sort-keys", "--compact", stdinText: Self.sample).stdout == expected)
    }

    @Test(arguments: [
        ("42", "42\n"),
        (" \"text\" ", "\"text\"\n"),
        ("null", "null\n"),
        ("[]", "[]\n"),
        ("12345678901234567890123", "12345678901234567890123\n"),
    ])
    func printsScalarsAndEmptyContainers(input: String, output: String) {
        let result = tether("json", "-", stdinText: input)

        #expect(result.status == 0)
        #expect(result.stdout == output)
    }

    @Test func keepsNonASCIITextReadable() {
        let result = tether("json", "--compact", "-", stdinText: #"{"itemName": "緑茶 \u3000セット"}"#)

        #expect(result.stdout.contains("緑茶"))
        #expect(result.stdout.contains("セット"))
    }

    @Test func leavesSlashesInURLsAlone() {
        let input = #"{"url": "https:\/\/example.com/api"}"#

        #expect(tether("json", "-", stdinText: input).stdout == "{\n  \"url\": \"https://example.com/api\"\n}\n")
        #expect(
            tether("json", "--compact", "-", stdinText: input).stdout == #"{"url":"https://example.com/api"}"# + "\n")
    }

    @Test func doubleDashEndsTheOptions() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("--compact", "[1]")

        let result = tether("json", "--", path)

        #expect(result.status == 0)
        #expect(result.stdout == "[\n  1\n]\n")
    }

    // MARK: Invalid JSON

    @Test func invalidJSONReportsFileLineColumnAndAnExcerptWithACaret() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("bad.json", "{\n  \"a\": 1\n  \"b\": 2\n}\n")

        let result = tether("json", path)

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("tether: \(path):3:3: "))
        #expect(lines[0].contains("expected ',' or '}'"))
        #expect(lines[1] == #"    "b": 2"#)
        #expect(lines[2] == "    ^")
        #expect(lines[3].isEmpty)
    }

    @Test func invalidStandardInputIsNamedStdin() {
        let result = tether("json", "-", stdinText: "[1, 2,, 3]")

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: <stdin>:1:7: "))
        #expect(result.stderr.hasSuffix("\n  [1, 2,, 3]\n        ^\n"))
    }

    @Test(arguments: ["", "   ", "[1, 2", #"{"a": tru}"#, "[1] [2]", "01", "\"tab\there\""])
    func rejectsInvalidJSON(input: String) {
        let result = tether("json", "-", stdinText: input)

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: <stdin>:1:"))
    }

    @Test func rejectsInvalidUTF8() {
        let result = tether("json", "-", stdin: [0x22, 0xFF, 0x22])

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tether: <stdin>:1:2: "))
    }

    @Test func countsColumnsInCharactersNotBytes() {
        let result = tether("json", "-", stdinText: #"["緑茶", x]"#)

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tether: <stdin>:1:8: "))
    }

    // MARK: Unreadable input

    @Test func missingFileExitsWithOne() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("missing.json").path

        let result = tether("json", path)

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "tether: cannot read '\(path)': No such file or directory\n")
    }

    @Test func directoryExitsWithOne() throws {
        let folder = try TemporaryDirectory()

        let result = tether("json", folder.url.path)

        #expect(result.status == 1)
        #expect(result.stderr == "tether: cannot read '\(folder.url.path)': Is a directory\n")
    }

    @Test func failingStandardInputExitsWithOne() {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "Input/output error" }
        }
        var errors: [UInt8] = []

        let status = TetherCLI.run(
            arguments: ["json", "-"], stdin: { throw Broken() }, stdout: { _ in }, stderr: { errors += $0 })

        #expect(status == 1)
        #expect(String(decoding: errors, as: UTF8.self) == "tether: cannot read standard input: Input/output error\n")
    }

    // MARK: Usage errors

    @Test func missingFileArgumentIsAUsageError() {
        let result = tether("json")

        #expect(result.status == 2)
        #expect(
            result.stderr
                == "tether: missing the file to read (use '-' for standard input); see 'tether json --help'\n")
    }

    @Test(arguments: [
        (["json", "--pretty", "-"], "tether: unknown option '--pretty' for 'tether json'; see 'tether json --help'\n"),
        (["json", "-", "-c"], "tether: unknown option '-c' for 'tether json'; see 'tether json --help'\n"),
        (["json", "a.json", "b.json"], "tether: unexpected argument 'b.json'; see 'tether json --help'\n"),
    ])
    func wrongArgumentsAreUsageErrors(arguments: [String], message: String) {
        let result = tether(arguments: arguments)

        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message)
    }
}
