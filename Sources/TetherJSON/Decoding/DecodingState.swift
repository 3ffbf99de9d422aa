import Foundation

/// Everything one `decode` call shares: the tape, the configuration, and the primitive conversions.
///
/// Confined to the task running `decode`; never shared across threads.
final class DecodingState {
    let tape: Tape
    let keyStrategy: TetherJSONDecoder.KeyDecodingStrategy
    /// `keyStrategy` is `.useDefaultKeys`: checked on every lookup, so kept as a plain Bool.
    let usesDefaultKeys: Bool
    let matchesKeysCaseInsensitively: Bool
    let dateStrategy: TetherJSONDecoder.DateDecodingStrategy
    let dataStrategy: TetherJSONDecoder.DataDecodingStrategy
    let floatStrategy: TetherJSONDecoder.NonConformingFloatDecodingStrategy
    let datePattern: DatePattern?
    let userInfo: [CodingUserInfoKey: Any]
    /// What changes while decoding, kept outside the object: Swift checks every access to a class's stored `var`
    /// for exclusivity at run time, but not accesses through a pointer. Only this object uses the pointer.
    private struct Mutable {
        var isActive = true
        var convertedKeys: [String: String] = [:]
        var arrayTypes: [(type: ObjectIdentifier, array: (any TapeDecodableArray.Type)?)] = []
    }

    private let mutable: UnsafeMutablePointer<Mutable> = {
        let pointer = UnsafeMutablePointer<Mutable>.allocate(capacity: 1)
        pointer.initialize(to: Mutable())
        return pointer
    }()

    /// The keyed containers kept for reuse (see `keyedContainer(keyedBy:object:node:)`).
    let keptContainers = KeptKeyedContainers<KeyedTapeCursor>()

    deinit {
        mutable.deinitialize(count: 1)
        mutable.deallocate()
        keptContainers.deallocate()
    }

    /// `false` once `decode` has returned: a `Decoder` kept past that must not read the released input, nor walk
    /// coding-path nodes whose parents may be gone.
    var isActive: Bool {
        get { mutable.pointee.isActive }
        set { mutable.pointee.isActive = newValue }
    }

    /// The coding path of `node`, or an empty path once the decode call has returned.
    func codingPath(of node: CodingPathNode) -> [any CodingKey] { isActive ? node.path : [] }
    /// `convertFromSnakeCase` results, by JSON key.
    var convertedKeys: [String: String] {
        get { mutable.pointee.convertedKeys }
        _modify { yield &mutable.pointee.convertedKeys }
    }
    private let configuration: TetherJSONDecoder

    /// A state over a lone `null`, for `superDecoder(forKey:)` with a missing key.
    lazy var nullState: DecodingState = {
        let state = DecodingState(
            tape: Tape(bytes: UnsafeBufferPointer(start: nil, count: 0), entries: DecodingState.loneNull),
            configuration: configuration)
        return state
    }()

    /// A tape's entries for a lone `null`: allocated once, never freed, never written after (safe to share).
    private nonisolated(unsafe) static let loneNull: UnsafeBufferPointer<Tape.Entry> = {
        let entries = UnsafeMutableBufferPointer<Tape.Entry>.allocate(capacity: 1)
        entries.initialize(repeating: Tape.Entry(tag: .null))
        return UnsafeBufferPointer(entries)
    }()

    init(tape: Tape, configuration: TetherJSONDecoder) {
        self.tape = tape
        self.configuration = configuration
        keyStrategy = configuration.keyDecodingStrategy
        if case .useDefaultKeys = configuration.keyDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        matchesKeysCaseInsensitively = configuration.matchesKeysCaseInsensitively
        dateStrategy = configuration.dateDecodingStrategy
        dataStrategy = configuration.dataDecodingStrategy
        floatStrategy = configuration.nonConformingFloatDecodingStrategy
        if case .formatted(let pattern, let timeZone) = configuration.dateDecodingStrategy {
            datePattern = DatePattern(pattern, timeZone: timeZone)
        } else {
            datePattern = nil
        }
        userInfo = configuration.userInfo
    }

    @inline(__always)
    func checkActive(_ node: CodingPathNode) throws {
        if !isActive { throw inactive(node) }
    }

    private func inactive(_ node: CodingPathNode) -> DecodingError {
        // No coding path: the nodes above this one may be gone.
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [],
                debugDescription: "A Decoder was used after the decode call that made it had returned."))
    }

    // MARK: - Values

    /// Decodes the value at `index`, the child `segment` of `parent`; `reusing` is a node to use for it (already
    /// set to `segment`) instead of allocating one.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, at index: Int, parent: CodingPathNode, segment: CodingPathNode.Segment,
        reusing: CodingPathNode? = nil
    ) throws -> T {
        // Scalars first, without creating a decoder. (After a metatype check the types are the same, so the
        // value is reinterpreted instead of cast: a cast in generic code is a runtime call.)
        if T.self == String.self { return unsafeBitCast(try string(at: index, parent, segment), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, at: index, parent, segment), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(at: index, parent, segment), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index, parent, segment), to: T.self) }
        if T.self == Int64.self {
            return unsafeBitCast(try integer(Int64.self, at: index, parent, segment), to: T.self)
        }
        if T.self == JSON.self { return unsafeBitCast(JSONTreeBuilder.build(tape, at: index), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try date(at: index, parent, segment), to: T.self) }
        if T.self == URL.self { return unsafeBitCast(try url(at: index, parent, segment), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try data(at: index, parent, segment), to: T.self) }
        if T.self == Decimal.self { return unsafeBitCast(try decimal(at: index, parent, segment), to: T.self) }
        // Arrays of numbers and plain strings: no coding-path node and no generic code per element. An element that
        // needs more (a conversion, an error) sends the whole array down the general path below.
        if T.self == [Double].self, let array = scalarArray(at: index, { double(at: $0) }) {
            return unsafeBitCast(array, to: T.self)
        }
        if T.self == [Int].self, let array = scalarArray(at: index, { Self.int(tape.entries[$0]) }) {
            return unsafeBitCast(array, to: T.self)
        }
        if T.self == [String].self, let array = scalarArray(at: index, { plainString(at: $0) }) {
            return unsafeBitCast(array, to: T.self)
        }
        if let arrayType = arrayType(of: T.self) {
            return try arrayType.decode(
                as: T.self, from: self, at: index, parent: parent, segment: segment, reusing: reusing)
        }
        let node = reusing ?? CodingPathNode(parent: parent, segment: segment)
        return try T(from: TapeDecoder(index: index, node: node))
    }

    /// The types this decode has asked about, and whether each is an array decoded by ``TapeDecodableArray``:
    /// a conformance check costs far more than a scan of the few types one document uses.
    var arrayTypes: [(type: ObjectIdentifier, array: (any TapeDecodableArray.Type)?)] {
        get { mutable.pointee.arrayTypes }
        _modify { yield &mutable.pointee.arrayTypes }
    }

    /// Whether values of `type` are read without a decoder of their own (see ``decodeValue(_:at:parent:segment:)``).
    @inline(__always)
    func isScalar<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
            || T.self == Int64.self
    }

    @inline(__always)
    func string(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> String {
        let entry = tape.entries[index]
        guard entry.tag == .string else { throw mismatch(String.self, at: index, parent, segment) }
        return tape.string(at: index)
    }

    /// The string at `index`, or `nil` if the entry is not a string (the caller then reports the mismatch).
    @inline(__always)
    func stringIfString(at index: Int) throws -> String? {
        let entry = tape.entries[index]
        guard entry.tag == .string else { return nil }
        return tape.string(at: index)
    }

    @inline(__always)
    func bool(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Bool {
        switch tape.entries[index].tag {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: index, parent, segment)
        }
    }

    @inline(__always)
    func integer<I: FixedWidthInteger>(
        _ type: I.Type, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment
    ) throws -> I {
        let entry = tape.entries[index]
        switch entry.tag {
        case .int:
            if let value = I(exactly: Int64(bitPattern: entry.payload)) { return value }
        case .uint:
            if let value = I(exactly: entry.payload) { return value }
        case .double:
            if let value = I(exactly: Double(bitPattern: entry.payload)) { return value }
        case .bigNumber:
            break
        default:
            throw mismatch(type, at: index, parent, segment)
        }
        throw tooLarge(type, at: index, parent, segment)
    }

    /// A number whose exponent is too large for a `Double` (`1e400`) does not fit: it throws, as Foundation's
    /// decoder does, instead of decoding as an infinity that no JSON text can hold.
    @inline(__always)
    func double(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Double {
        let entry = tape.entries[index]
        switch entry.tag {
        case .double:
            let value = Double(bitPattern: entry.payload)
            if value.isFinite { return value }
            throw tooLarge(Double.self, at: index, parent, segment)
        case .int: return Double(Int64(bitPattern: entry.payload))
        case .uint: return Double(entry.payload)
        case .bigNumber:
            let value = tape.number(at: index).double
            if value.isFinite { return value }
            throw tooLarge(Double.self, at: index, parent, segment)
        case .string:
            if case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = floatStrategy {
                let text = tape.string(at: index)
                if text == positiveInfinity { return .infinity }
                if text == negativeInfinity { return -.infinity }
                if text == nan { return .nan }
            }
            throw mismatch(Double.self, at: index, parent, segment)
        default:
            throw mismatch(Double.self, at: index, parent, segment)
        }
    }

    /// The error for a number that does not fit in `type`.
    func tooLarge(_ type: Any.Type, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        -> DecodingError
    {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: parent.path(appending: segment),
                debugDescription: "Parsed JSON number <\(tape.numberText(at: index))> does not fit in \(type)."))
    }

    func float(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Float {
        let value = try double(at: index, parent, segment)
        guard !value.isFinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: parent.path(appending: segment),
                    debugDescription: "Parsed JSON number <\(tape.numberText(at: index))> does not fit in Float."))
        }
        return Float(value)
    }

    func isNull(_ index: Int) -> Bool { tape.entries[index].tag == .null }

    // MARK: - Foundation types

    private func date(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Date {
        switch dateStrategy {
        case .deferredToDate:
            return try Date(
                from: TapeDecoder(index: index, node: CodingPathNode(parent: parent, segment: segment)))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try double(at: index, parent, segment))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try double(at: index, parent, segment) / 1000)
        case .iso8601:
            let text = try string(at: index, parent, segment)
            guard let date = ISO8601.parse(text) else {
                throw corrupted(parent, segment, "Expected date string to be ISO8601-formatted, found \"\(text)\".")
            }
            return date
        case .formatted(let pattern, _):
            let text = try string(at: index, parent, segment)
            guard let date = datePattern?.parse(text) else {
                throw corrupted(parent, segment, "Date string \"\(text)\" does not match format \"\(pattern)\".")
            }
            return date
        case .custom(let decode):
            return try decode(
                TapeDecoder(index: index, node: CodingPathNode(parent: parent, segment: segment)))
        }
    }

    private func data(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Data {
        switch dataStrategy {
        case .deferredToData:
            return try Data(
                from: TapeDecoder(index: index, node: CodingPathNode(parent: parent, segment: segment)))
        case .base64:
            let text = try string(at: index, parent, segment)
            guard let data = Data(base64Encoded: text) else {
                throw corrupted(parent, segment, "Encountered Data is not valid Base64.")
            }
            return data
        case .custom(let decode):
            return try decode(
                TapeDecoder(index: index, node: CodingPathNode(parent: parent, segment: segment)))
        }
    }

    private func url(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> URL {
        let text = try string(at: index, parent, segment)
        guard let url = URL(string: text) else { throw corrupted(parent, segment, "Invalid URL string \"\(text)\".") }
        return url
    }

    private func decimal(at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment) throws -> Decimal {
        switch tape.entries[index].tag {
        case .int, .uint, .double, .bigNumber:
            let text = tape.numberText(at: index)
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw corrupted(parent, segment, "Parsed JSON number <\(text)> does not fit in Decimal.")
            }
            return value
        default:
            throw mismatch(Decimal.self, at: index, parent, segment)
        }
    }

    // MARK: - Keys

    /// The key to match for the JSON key at tape `index` under a converting key strategy.
    func convertedKey(at index: Int, codingPath: @autoclosure () -> [any CodingKey]) -> String {
        let raw = tape.string(at: index)
        switch keyStrategy {
        case .useDefaultKeys:
            return raw
        case .convertFromSnakeCase:
            if let cached = convertedKeys[raw] { return cached }
            let converted = DecodingState.camelCase(fromSnakeCase: raw)
            convertedKeys[raw] = converted
            return converted
        case .custom(let convert):
            return convert(codingPath() + [AnyStringKey(raw)]).stringValue
        }
    }

    /// Foundation's `convertFromSnakeCase` rule: keep leading and trailing underscores, drop the others,
    /// keep the first word as it is and capitalise the rest (`"user_ID"` → `"userId"`).
    static func camelCase(fromSnakeCase key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        let last = key.lastIndex(where: { $0 != "_" })!
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<first]) + words[0]
        for word in words.dropFirst() {
            result += word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }
        return result + key[key.index(after: last)...]
    }

    // MARK: - Errors

    func mismatch(_ type: Any.Type, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        -> DecodingError
    {
        let path = parent.path(appending: segment)
        if isNull(index) {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path, debugDescription: "Expected to decode \(type) but found \(describe(index)) instead."))
    }

    func corrupted(_ parent: CodingPathNode, _ segment: CodingPathNode.Segment, _ message: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: parent.path(appending: segment), debugDescription: message))
    }

    /// The value at `index` for a message: `a string ("abc")`, `a number (4.5)`, `an object`.
    func describe(_ index: Int) -> String {
        switch tape.entries[index].tag {
        case .null: return "null"
        case .true: return "a Boolean (true)"
        case .false: return "a Boolean (false)"
        case .int, .uint, .double, .bigNumber: return "a number (\(tape.numberText(at: index)))"
        case .string:
            let text = tape.string(at: index)
            return "a string (\"\(text.count > 40 ? text.prefix(40) + "…" : text)\")"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}

/// A coding key made from any string, for custom key strategies and messages.
struct AnyStringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
