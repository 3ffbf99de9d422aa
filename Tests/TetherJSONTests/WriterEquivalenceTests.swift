import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// The writer of issue 38 (a walk over the tree by pointers, into a `ByteBuffer`, numbers written in words)
/// against the writer it replaced (``ReferenceJSONWriter``), byte for byte, under every option: on the real-world
/// corpus, JSONTestSuite's valid files, the fuzzer's seed corpus and random numbers.
@Suite struct WriterEquivalenceTests {
    /// Every combination of the options, with the default indentation and two others.
    static let writers: [(JSONWriter.Options, Int)] = {
        var writers: [(JSONWriter.Options, Int)] = []
        for raw in 0..<8 {
            let options = JSONWriter.Options(rawValue: raw)
            for indent in options.contains(.prettyPrinted) ? [2, 0, 4] : [2] { writers.append((options, indent)) }
        }
        return writers
    }()

    /// Expects the two writers to agree on `json` under every option (both failing on a non-finite number).
    static func expectSameText(_ json: JSON, _ name: String) {
        for (options, indent) in writers {
            let expected = ReferenceJSONWriter(options: options, indentWidth: indent).bytes(json)
            let actual = try? JSONWriter(options: options, indentWidth: indent).bytes(json)
            #expect(actual == expected, "\(name), options \(options.rawValue), indent \(indent)")
            // The string form and the streaming form write the same text.
            let string = try? JSONWriter(options: options, indentWidth: indent).string(json)
            #expect(string.map { Array($0.utf8) } == expected, "\(name): string(_:)")
            let data = try? JSONWriter(options: options, indentWidth: indent).data(json)
            #expect(data.map { Array($0) } == expected, "\(name): data(_:)")
            var streamed: [UInt8] = []
            let ok =
                (try? JSONWriter(options: options, indentWidth: indent).write(json, chunkSize: 100) {
                    streamed.append(contentsOf: $0)
                }) != nil
            #expect((ok ? streamed : nil) == expected, "\(name): write(_:chunkSize:to:)")
        }
    }

    /// The repository's root, from this file's path (Tests/TetherJSONTests/this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var fuzzCorpus: [URL] {
        let directory = repositoryRoot.appendingPathComponent("Fuzz/corpus")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(
        .enabled(if: SharedFixtures.hasBenchmarkFiles, "needs ../shared/benchmarks/json"),
        arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
    func corpusFileIsWrittenAsBefore(name: String) throws {
        let json = try JSONParser().parse(try SharedFixtures.benchmarkFile(name))
        Self.expectSameText(json, name)
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite, "needs ../shared/JSONTestSuite"))
    func jsonTestSuiteValidFilesAreWrittenAsBefore() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedFixtures.testSuiteDirectory.path)
            .filter { $0.hasPrefix("y_") }.sorted()
        #expect(names.count > 90)
        for name in names {
            let data = try Data(contentsOf: SharedFixtures.testSuiteDirectory.appendingPathComponent(name))
            guard let json = try? JSONParser().parse(data) else { continue }
            Self.expectSameText(json, name)
        }
    }

    @Test(.enabled(if: !fuzzCorpus.isEmpty, "needs Fuzz/corpus"))
    func fuzzCorpusIsWrittenAsBefore() throws {
        for file in Self.fuzzCorpus {
            let data = try Data(contentsOf: file)
            guard let json = try? JSONParser().parse(data) else { continue }
            Self.expectSameText(json, file.lastPathComponent)
        }
    }

    @Test func edgeValuesAreWrittenAsBefore() {
        let values: [JSON] = [
            .null, true, false, "", "/", "a/b\u{1}\u{1F}\"\\é🎉", .number(JSON.Number(-0.0)), .number(JSON.Number(0.0)),
            [[[], [:]], ["": [:]]], ["b": 1, "a": 2, "B": 3, "a\u{0}": 4, "é": 5, "a ": 6, "": 7],
            .number(JSON.Number(Double.nan)), [1, .number(JSON.Number(Double.infinity))],
            ["x": ["y": [.number(JSON.Number(-Double.infinity))]]],
            .number(JSON.Number(text: "123456789012345678901234567890")!),
            .number(JSON.Number(Int64.min)), .number(JSON.Number(UInt64.max)),
            .string(String(repeating: "abc/\"", count: 5000)),
        ]
        for (index, value) in values.enumerated() { Self.expectSameText(value, "edge value \(index)") }
    }

    /// Strings are read in place: up to 15 bytes as two words (masked to the string's length), longer ones in
    /// their storage. Every length from 0 to 40, with each byte that needs an escape (and a multi-byte character)
    /// at each position, as a value and as a key.
    @Test func everyLengthAndEscapePositionIsWrittenAsBefore() {
        let specials = ["\"", "\\", "/", "\u{0}", "\u{1F}", "\n", "é", "\u{7F}", " "]
        var values: [JSON] = []
        var members: [(String, JSON)] = []
        for length in 0...40 {
            let plain = String(repeating: "k", count: length)
            values.append(.string(plain))
            members.append((plain, .string(plain)))
            for position in 0..<max(length, 1) {
                for special in specials {
                    var characters = Array(plain)
                    if position < characters.count { characters[position] = Character(special) }
                    let text = String(characters)
                    values.append(.string(text))
                    members.append((text, .number(JSON.Number(length))))
                }
            }
        }
        Self.expectSameText(.array(values), "strings of every length")
        Self.expectSameText(.object(JSON.Object(keys: members.map(\.0), values: members.map(\.1))), "keys")
        // Strings made in place of a bridged or substring origin keep their text too.
        let substrings = values.compactMap(\.string).map { JSON.string(String(Substring($0))) }
        Self.expectSameText(.array(substrings), "strings from substrings")
        // Short strings held in heap storage (a long string cut down keeps its storage), not inside the value.
        let shortened = values.compactMap(\.string).map { text -> JSON in
            var long = text + String(repeating: "x", count: 40)
            long.removeLast(40)
            return .string(long)
        }
        Self.expectSameText(.array(shortened), "short strings in heap storage")
    }

    /// Objects that share one keys array have their keys written from texts made once per write (from the second
    /// object on): keys needing every escape, long and short, nested in each other, parsed and built in code, and
    /// more key text than the cache keeps (1 MB), so that later arrays are written directly.
    @Test func sharedKeysArraysAreWrittenAsBefore() throws {
        let keys = ["id", "a\"b", "</script>", "tab\tkey", "é🎉", "", String(repeating: "long/", count: 9), "z"]
        let inner = JSON.Object(keys: keys, values: keys.indices.map { JSON.number(JSON.Number($0)) })
        let objects = (0..<5).map { row in
            JSON.object(
                JSON.Object(
                    keys: keys, values: keys.indices.map { $0 == 0 ? .object(inner) : .string("\(row)/\($0)") }))
        }
        Self.expectSameText(.array(objects), "objects built from one keys array")

        // The parser shares the keys of objects of the same shape.
        let text =
            "["
            + (0..<20).map { #"{"k\"1":\#($0),"k/2":[{"x":1,"y":2},{"x":3,"y":4}],"é":null}"# }
            .joined(separator: ",") + "]"
        Self.expectSameText(try JSONParser().parse(Data(text.utf8)), "parsed objects of one shape")

        // 600 keys arrays, each in two objects, each of one 2 KB key: past the 1 MB the texts may take.
        let many = (0..<600).flatMap { index -> [JSON] in
            let keys = [String(repeating: "k", count: 2048) + "\(index)\""]
            let object = JSON.object(JSON.Object(keys: keys, values: [.number(JSON.Number(index))]))
            return [object, object]
        }
        Self.expectSameText(.array(many), "more key text than the cache keeps")
    }

    @Test func nonFiniteNumbersReportTheirPath() {
        let json: JSON = ["a": [1, ["b": .number(JSON.Number(Double.nan))]]]
        for (options, indent) in Self.writers {
            #expect(throws: JSONError.self) { try JSONWriter(options: options, indentWidth: indent).bytes(json) }
            #expect(throws: JSONError.self) { try JSONWriter(options: options, indentWidth: indent).data(json) }
            do {
                _ = try JSONWriter(options: options).bytes(json)
            } catch {
                #expect(error.path == [.key("a"), .index(1), .key("b")])
                #expect(error.message == "NaN cannot be written as a JSON number")
            }
        }
        #expect(JSON.number(JSON.Number(-Double.infinity)).description == "-Infinity")
    }

    /// Containers nested deeper than the walk's first stack of open containers (16), written and, with a NaN at the
    /// bottom, reported with the whole path.
    @Test func deepNestingIsWrittenAndReported() {
        var deep: JSON = ["leaf": [1, 2.5, "x"]]
        var bad: JSON = .number(JSON.Number(Double.nan))
        var path: [JSON.PathElement] = []
        for level in 0..<100 {
            deep = level % 2 == 0 ? [deep, .null] : ["k\(level)": deep]
            bad = level % 2 == 0 ? [.null, bad] : ["k\(level)": bad]
            path.insert(level % 2 == 0 ? .index(1) : .key("k\(level)"), at: 0)
        }
        Self.expectSameText(deep, "100 levels")
        for (options, indent) in Self.writers {
            let error = #expect(throws: JSONError.self) {
                try JSONWriter(options: options, indentWidth: indent).bytes(bad)
            }
            #expect(error?.path == path, "options \(options.rawValue)")
        }
    }

    @Test func randomDoublesAreWrittenAsBefore() {
        var random = SeededRandom(seed: 38)
        let special: [Double] = [
            .leastNonzeroMagnitude, 1e-5, 1e-4, 0.001, 0.1, 1, 9.999999999999999e22, 1e21, 1e22, 1e23, 0x1p53,
            0x1p53 + 2, 0x1p54,
            123_456_789_012_345_680, 1.7976931348623157e308, 2.2250738585072014e-308, 100, 1e16, 12.5, 0.3,
        ]
        var values = special + special.map { -$0 }
        for _ in 0..<100_000 {
            let bits = random.next()
            let double = Double(bitPattern: bits)
            if double.isFinite { values.append(double) }
            // Decimal-looking values, as in real documents.
            values.append(Double(Int64(bitPattern: bits) % 100_000_000) / [1, 10, 1000, 1e6, 1e9][Int(bits >> 61) % 5])
        }
        for value in values {
            var expected: [UInt8] = []
            ReferenceNumberFormatter.append(value, to: &expected)
            var buffer = ByteBuffer(capacity: 16)
            JSONNumberFormatter.append(value, to: &buffer)
            #expect(buffer.array == expected, "\(value)")
            buffer.deallocate()
        }
    }

    @Test func randomIntegersAreWrittenAsBefore() {
        var random = SeededRandom(seed: 3838)
        var values: [UInt64] = [0, UInt64.max, UInt64(Int64.max), UInt64(Int64.max) + 1]
        var power: UInt64 = 1
        for _ in 0..<20 {
            values += [power - 1, power, power + 1]
            if power <= UInt64.max / 10 { power *= 10 } else { break }
        }
        for _ in 0..<50_000 {
            let bits = random.next()
            values += [bits, bits >> (bits & 63)]
        }
        for value in values {
            var expected: [UInt8] = []
            ReferenceNumberFormatter.append(value, to: &expected)
            var buffer = ByteBuffer(capacity: 16)
            JSONNumberFormatter.append(value, to: &buffer)
            #expect(buffer.array == expected, "\(value)")
            let signed = Int64(bitPattern: value)
            expected = []
            ReferenceNumberFormatter.append(signed, to: &expected)
            buffer.truncate(to: 0)
            JSONNumberFormatter.append(signed, to: &buffer)
            #expect(buffer.array == expected, "\(signed)")
            buffer.deallocate()
        }
    }
}

/// The streaming forms of ``JSONWriter``: chunk sizes, errors of the output, file descriptors.
@Suite struct WriterStreamingTests {
    static let document: JSON = {
        var items: [JSON] = []
        for i in 0..<2_000 {
            items.append([
                "id": .number(JSON.Number(Int64(i))), "name": .string("item \(i)/x"),
                "price": .number(JSON.Number(Double(i) / 7)),
            ])
        }
        return ["items": .array(items), "total": 2_000]
    }()

    @Test(arguments: [1, 7, 100, 4096, 1 << 20])
    func chunksAreBoundedAndJoinToTheText(chunkSize: Int) throws {
        let expected = try JSONWriter().bytes(Self.document)
        var text: [UInt8] = []
        var chunks = 0
        try JSONWriter().write(Self.document, chunkSize: chunkSize) { chunk in
            // A chunk is at least the chunk size (but the last) and at most the chunk size and one scalar's text.
            #expect(chunk.count <= chunkSize + 64)
            text.append(contentsOf: chunk)
            chunks += 1
        }
        #expect(text == expected)
        #expect(chunks >= expected.count / (chunkSize + 64))
    }

    @Test func anOutputErrorStopsTheWriting() {
        struct Stop: Error {}
        var calls = 0
        #expect(throws: Stop.self) {
            try JSONWriter().write(Self.document, chunkSize: 1000) { _ in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        }
        #expect(calls == 3)
    }

    @Test func writesToAFileDescriptor() throws {
        let path = NSTemporaryDirectory() + "tether-writer-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        try JSONWriter(options: .prettyPrinted).write(Self.document, toFileDescriptor: descriptor, chunkSize: 512)
        close(descriptor)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(written) == (try JSONWriter(options: .prettyPrinted).bytes(Self.document)))
    }

    @Test func aFailingDescriptorThrowsOutputFailed() {
        #expect {
            try JSONWriter().write(Self.document, toFileDescriptor: -1)
        } throws: { error in
            (error as? JSONError)?.code == .outputFailed
        }
    }
}
