/// The one error type of TetherJSON: a parse error, a value that cannot be written, or a broken access path.
///
/// Parse errors carry a ``Location`` (byte offset, line, column and an excerpt of the input around the spot),
/// so a message can point at the mistake:
///
/// ```text
/// expected ',' or '}' after an object member, found '"' at line 3, column 5 (byte 27)
///   {"a": 1 "b": 2}
///           ^
/// ```
///
/// Decoding through ``TetherJSONDecoder`` reports standard `DecodingError`s; a parse error then sits in the
/// context's `underlyingError`.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an open set of codes that can grow without breaking exhaustive switches.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// The text is not valid JSON: an unexpected character, a missing delimiter, or a premature end.
        public static let syntax = Code(name: "syntax")
        /// The text holds bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(name: "invalidUTF8")
        /// A `\u` escape names a lone surrogate and the parser's policy rejects it.
        public static let invalidUnicodeEscape = Code(name: "invalidUnicodeEscape")
        /// Arrays and objects nest deeper than ``JSONParser/Options/maximumDepth``.
        public static let depthLimitExceeded = Code(name: "depthLimitExceeded")
        /// The input is larger than ``JSONParser/Options/maximumInputSize``.
        public static let inputTooLarge = Code(name: "inputTooLarge")
        /// A value cannot be written as JSON text (a NaN or infinite number).
        public static let invalidValue = Code(name: "invalidValue")
        /// The output of a streaming write (``JSONWriter/write(_:toFileDescriptor:chunkSize:)``) failed; the
        /// message has the system's reason.
        public static let outputFailed = Code(name: "outputFailed")
        /// An access path names a key or index that is not there.
        public static let pathNotFound = Code(name: "pathNotFound")
        /// An access path reached a value of another kind than asked for.
        public static let typeMismatch = Code(name: "typeMismatch")

        public var description: String { name }
    }

    /// Where in the input a parse error happened.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// Zero-based byte offset into the input.
        public var offset: Int
        /// One-based line number (lines end at `\n`).
        public var line: Int
        /// One-based column, counted in Unicode scalars from the start of the line.
        public var column: Int
        /// A short single-line excerpt of the input around the spot, with control characters made visible.
        public var excerpt: String
        /// The column of the spot within ``excerpt``, zero-based, for drawing a caret.
        public var excerptColumn: Int

        public var description: String { "line \(line), column \(column) (byte \(offset))" }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence saying what was expected and what was found instead.
    public var message: String
    /// For parse errors: where it happened.
    public var location: Location?
    /// For access errors: the path up to and including the element that broke.
    public var path: [JSON.PathElement]

    public init(_ code: Code, _ message: String, location: Location? = nil, path: [JSON.PathElement] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.path = path
    }

    public var description: String {
        var text = message
        if let location {
            text += " at \(location)"
            if !location.excerpt.isEmpty {
                text += "\n  " + location.excerpt + "\n  " + String(repeating: " ", count: location.excerptColumn) + "^"
            }
        } else if !path.isEmpty {
            text += " (at \(JSON.PathElement.describe(path)))"
        }
        return text
    }
}
