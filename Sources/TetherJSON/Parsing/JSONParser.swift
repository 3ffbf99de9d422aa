public import Foundation

/// A strict, fast RFC 8259 JSON parser.
///
/// ```swift
/// import Foundation
/// import TetherJSON
///
/// let data = Data(#"{"id": 1, "title": "緑茶"}"#.utf8)
/// let json = try JSONParser().parse(data)
/// let tolerant = JSONParser(options: .init(allowsByteOrderMark: true))
/// ```
///
/// The parser reads UTF-8 bytes from any contiguous buffer (`[UInt8]`, `Data`, a `String`'s UTF-8 view,
/// `UnsafeRawBufferPointer`); other sequences are copied into one first. It validates the whole input in one
/// pass without recursion, then builds the value.
///
/// What it accepts, besides the grammar, is set by ``Options``: nesting depth, input size, a leading byte order
/// mark, and what to do with escapes of lone UTF-16 surrogates. Numbers too large for `Double` are accepted and
/// kept as written (see ``JSON/Number``). Invalid UTF-8 is always rejected.
///
/// - Complexity: O(n) time in the input length; memory for the result plus a working tape of 16 bytes per value.
/// - Thread safety: a `JSONParser` is an immutable value; use one from any number of threads at once.
public struct JSONParser: Sendable {
    /// Limits and policies for parsing.
    public struct Options: Sendable, Hashable {
        /// What to do with a `\u` escape naming a UTF-16 surrogate that is not half of a valid pair.
        public enum LoneSurrogatePolicy: Sendable, Hashable {
            /// Decode it as U+FFFD REPLACEMENT CHARACTER, as JavaScript's `TextEncoder` would.
            case replace
            /// Reject the input with ``JSONError/Code/invalidUnicodeEscape``.
            case reject
        }

        /// The largest allowed nesting of arrays and objects; deeper input is a
        /// ``JSONError/Code/depthLimitExceeded`` error. At most ``maximumAllowedDepth``.
        public var maximumDepth: Int {
            didSet { maximumDepth = min(max(maximumDepth, 0), Options.maximumAllowedDepth) }
        }
        /// The largest input in bytes; larger input is a ``JSONError/Code/inputTooLarge`` error.
        public var maximumInputSize: Int
        /// Whether a leading UTF-8 byte order mark (EF BB BF) is skipped; when `false` it is a syntax error.
        public var allowsByteOrderMark: Bool
        /// What to do with lone surrogate escapes.
        public var loneSurrogates: LoneSurrogatePolicy

        /// The ceiling for ``maximumDepth``: values nested deeper could exhaust a thread's stack when
        /// compared, written or destroyed.
        public static let maximumAllowedDepth = 10_000

        /// Creates options; the defaults are strict RFC 8259 with a depth of 512 and an input limit of 1 GiB.
        public init(
            maximumDepth: Int = 512, maximumInputSize: Int = 1 << 30, allowsByteOrderMark: Bool = false,
            loneSurrogates: LoneSurrogatePolicy = .replace
        ) {
            self.maximumDepth = min(max(maximumDepth, 0), Options.maximumAllowedDepth)
            self.maximumInputSize = maximumInputSize
            self.allowsByteOrderMark = allowsByteOrderMark
            self.loneSurrogates = loneSurrogates
        }
    }

    /// The limits and policies this parser applies.
    public var options: Options

    /// Creates a parser with the given options.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses UTF-8 bytes into a ``JSON`` value.
    ///
    /// - Throws: ``JSONError`` with the offset, line, column and an excerpt of the input.
    public func parse(_ bytes: some Sequence<UInt8>) throws(JSONError) -> JSON {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(JSONError) in try parse(contiguous: buffer) }
        }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) in try parse(contiguous: buffer) }
        }.get()
    }

    /// Parses UTF-8 bytes held in `Data` into a ``JSON`` value, as the generic `parse(_:)` does but without its
    /// generic dispatch, which costs more than the scan of a small document when called from another module.
    ///
    /// - Throws: ``JSONError`` with the offset, line, column and an excerpt of the input.
    public func parse(_ data: Data) throws(JSONError) -> JSON {
        try data.withUnsafeBytes { raw in
            Result { () throws(JSONError) in try parse(contiguous: raw.assumingMemoryBound(to: UInt8.self)) }
        }.get()
    }

    /// The one parse that the public forms call, on contiguous bytes.
    private func parse(contiguous buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSON {
        try withTape(buffer) { tape in JSONTreeBuilder.build(tape) }
    }

    /// Parses the UTF-8 text of a string into a ``JSON`` value.
    public func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(text.utf8)
    }

    /// Validates UTF-8 bytes as JSON without building a value.
    public func validate(_ bytes: some Sequence<UInt8>) throws(JSONError) {
        try withTape(bytes) { _ throws(JSONError) in () }
    }

    /// Scans `bytes` and hands the tape to `body`; the tape is valid only inside `body`.
    func withTape<R>(
        _ bytes: some Sequence<UInt8>, _ body: (Tape) throws(JSONError) -> R
    ) throws(JSONError) -> R {
        let options = self.options
        let run = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<R, JSONError> in
            let storage: TapeStorage
            do throws(JSONError) {
                storage = try TapeBuilder.build(buffer, options: options)
            } catch {
                return .failure(error)
            }
            return storage.withTape { tape in
                do throws(JSONError) {
                    return .success(try body(tape))
                } catch {
                    return .failure(error)
                }
            }
        }
        if let result = bytes.withContiguousStorageIfAvailable(run) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer(run).get()
    }
}

extension JSON {
    /// Parses JSON text with a default ``JSONParser``.
    public init(parsing text: String, options: JSONParser.Options = JSONParser.Options()) throws(JSONError) {
        self = try JSONParser(options: options).parse(text)
    }

    /// Parses UTF-8 JSON bytes (`[UInt8]`, `Data`, …) with a default ``JSONParser``.
    public init(parsing bytes: some Sequence<UInt8>, options: JSONParser.Options = JSONParser.Options())
        throws(JSONError)
    {
        self = try JSONParser(options: options).parse(bytes)
    }

    /// Parses UTF-8 JSON bytes held in `Data` with a default ``JSONParser`` (no generic dispatch).
    public init(parsing data: Data, options: JSONParser.Options = JSONParser.Options()) throws(JSONError) {
        self = try JSONParser(options: options).parse(data)
    }
}
