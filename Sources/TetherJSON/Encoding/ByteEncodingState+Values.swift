import Foundation

// Writing values: scalars and the types encoded specially (`JSON`, `Date`, `Data`, `URL`, `Decimal`) straight
// into the buffer, everything else through a nested ``ByteEncoder``.

extension ByteEncodingState {
    /// `null`, `true` and `false` as little-endian words.
    private static let nullWord: UInt64 = 0x6C6C_756E
    private static let trueWord: UInt64 = 0x6575_7274
    private static let falseWord: UInt64 = 0x65_736C_6166

    @inline(__always)
    func appendNull() {
        bytes.append(word: Self.nullWord, count: 4)
    }

    @inline(__always)
    func append(_ value: Bool) {
        if value { bytes.append(word: Self.trueWord, count: 4) } else { bytes.append(word: Self.falseWord, count: 5) }
    }

    @inline(__always)
    func append(_ value: String) {
        JSONWriter.appendString(value, escapingSlashes: escapesSlashes, to: &bytes)
    }

    @inline(__always)
    func append(_ value: Int64) {
        JSONNumberFormatter.append(value, to: &bytes)
    }

    @inline(__always)
    func append(_ value: UInt64) {
        JSONNumberFormatter.append(value, to: &bytes)
    }

    /// Writes a double, or applies the non-conforming float strategy to NaN and the infinities.
    @inline(__always)
    func append(_ value: Double, depth: Int, step: @autoclosure () -> CodingPathStep) throws {
        if value.isFinite {
            JSONNumberFormatter.append(value, to: &bytes)
        } else {
            try appendNonConforming(value, isNaN: value.isNaN, isNegative: value < 0, depth: depth, step: step())
        }
    }

    func append(_ value: Float, depth: Int, step: @autoclosure () -> CodingPathStep) throws {
        guard value.isFinite else {
            try appendNonConforming(value, isNaN: value.isNaN, isNegative: value < 0, depth: depth, step: step())
            return
        }
        // The double nearest the float's shortest text, so 0.1 as a Float is written 0.1.
        JSONNumberFormatter.append(Double(value.description) ?? Double(value), to: &bytes)
    }

    private func appendNonConforming(
        _ value: some Encodable, isNaN: Bool, isNegative: Bool, depth: Int, step: CodingPathStep
    ) throws {
        switch context.options.nonConformingFloatEncodingStrategy {
        case .throw:
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(depth: depth, step: step),
                    debugDescription:
                        "Unable to encode \(type(of: value)).\(isNaN ? "nan" : isNegative ? "-infinity" : "infinity") "
                        + "directly in JSON. Use TetherJSONEncoder.NonConformingFloatEncodingStrategy.convertToString "
                        + "to specify how the value should be encoded."))
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
            append(isNaN ? nan : isNegative ? negativeInfinity : positiveInfinity)
        }
    }

    /// Writes any value at `depth`, `step` from its container.
    @inline(__always)
    func encode<T: Encodable>(_ value: T, depth: Int, step: @autoclosure () -> CodingPathStep) throws {
        // Metatype comparisons are pointer compares; the casts after them cannot fail.
        if T.self == String.self {
            append(value as! String)
        } else if T.self == Int.self {
            append(Int64(value as! Int))
        } else if T.self == Double.self {
            try append(value as! Double, depth: depth, step: step())
        } else if T.self == Bool.self {
            append(value as! Bool)
        } else if T.self == Int64.self {
            append(value as! Int64)
        } else {
            try encodeOther(value, depth: depth, step: step())
        }
    }

    private func encodeOther<T: Encodable>(_ value: T, depth: Int, step: CodingPathStep) throws {
        if T.self == Int32.self {
            append(Int64(value as! Int32))
        } else if T.self == Int16.self {
            append(Int64(value as! Int16))
        } else if T.self == Int8.self {
            append(Int64(value as! Int8))
        } else if T.self == UInt.self {
            append(UInt64(value as! UInt))
        } else if T.self == UInt64.self {
            append(value as! UInt64)
        } else if T.self == UInt32.self {
            append(UInt64(value as! UInt32))
        } else if T.self == UInt16.self {
            append(UInt64(value as! UInt16))
        } else if T.self == UInt8.self {
            append(UInt64(value as! UInt8))
        } else if T.self == Float.self {
            try append(value as! Float, depth: depth, step: step)
        } else if T.self == JSON.self {
            try append(json: value as! JSON, depth: depth, step: step)
        } else if T.self == URL.self {
            append((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            try append(decimal: value as! Decimal, depth: depth, step: step)
        } else if T.self == Date.self {
            try append(date: value as! Date, depth: depth, step: step)
        } else if T.self == Data.self {
            try append(data: value as! Data, depth: depth, step: step)
        } else {
            try encodeNested(depth: depth, step: step) { try value.encode(to: $0) }
        }
    }

    /// Runs `encode` with an encoder for the value at `depth`; a value that writes nothing becomes `{}`.
    func encodeNested(depth: Int, step: CodingPathStep, _ encode: (ByteEncoder) throws -> Void) throws {
        if case .none = step {} else { setStep(step, at: depth) }
        let start = bytes.count
        let parent = depth - 1
        let parentSerial = parent >= 0 && parent < frames.count ? frames[parent].serial : -1
        var wasBusy = false
        if parentSerial >= 0 {
            wasBusy = frames[parent].isBusy
            frames[parent].isBusy = true
        }
        defer {
            if parentSerial >= 0, parent < frames.count, frames[parent].serial == parentSerial {
                frames[parent].isBusy = wasBusy
            }
        }
        try encode(ByteEncoder(state: self, depth: depth, start: start))
        if bytes.count == start, !fellBack {
            bytes.append(word: 0x7D7B, count: 2)  // {}
        }
    }

    private func append(json: JSON, depth: Int, step: CodingPathStep) throws {
        let start = bytes.count
        do throws(JSONError) {
            try writer.write(json, into: &bytes, depth: depth)
        } catch {
            bytes.truncate(to: start)
            let inner = error.path.map { element -> any CodingKey in
                switch element {
                case .key(let key): JSONCodingKey(stringValue: key)
                case .index(let index): JSONCodingKey(index)
                }
            }
            throw EncodingError.invalidValue(
                json,
                EncodingError.Context(
                    codingPath: codingPath(depth: depth, step: step) + inner, debugDescription: error.message,
                    underlyingError: error))
        }
    }

    private func append(decimal value: Decimal, depth: Int, step: CodingPathStep) throws {
        guard value.isFinite, let number = JSON.Number(text: value.description) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(depth: depth, step: step),
                    debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        switch number.storage {
        case .int(let v): append(v)
        case .uint(let v): append(v)
        case .double(let d): JSONNumberFormatter.append(d, to: &bytes)
        case .text(var text): text.withUTF8 { bytes.append($0) }
        }
    }

    private func append(date: Date, depth: Int, step: CodingPathStep) throws {
        switch context.options.dateEncodingStrategy {
        case .deferredToDate:
            try encodeNested(depth: depth, step: step) { try date.encode(to: $0) }
        case .iso8601:
            append(ISO8601.format(date, fractionalSeconds: false))
        case .iso8601WithFractionalSeconds:
            append(ISO8601.format(date, fractionalSeconds: true))
        case .secondsSince1970:
            try appendWhole(date.timeIntervalSince1970, depth: depth, step: step)
        case .millisecondsSince1970:
            try appendWhole(date.timeIntervalSince1970 * 1000, depth: depth, step: step)
        case .formatted:
            append(context.datePattern!.format(date))
        case .custom(let encode):
            try encodeNested(depth: depth, step: step) { try encode(date, $0) }
        }
    }

    /// A number written as an integer when it is whole, else as a double.
    private func appendWhole(_ value: Double, depth: Int, step: CodingPathStep) throws {
        if value.rounded() == value, abs(value) < 9e15 {
            append(Int64(value))
        } else {
            try append(value, depth: depth, step: step)
        }
    }

    private func append(data: Data, depth: Int, step: CodingPathStep) throws {
        switch context.options.dataEncodingStrategy {
        case .base64:
            append(data.base64EncodedString())
        case .deferredToData:
            try encodeNested(depth: depth, step: step) { try data.encode(to: $0) }
        case .custom(let encode):
            try encodeNested(depth: depth, step: step) { try encode(data, $0) }
        }
    }
}
