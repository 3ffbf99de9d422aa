import Foundation

/// The settings and caches shared by every encoder of one ``TetherJSONEncoder`` call.
///
/// It also turns values into nodes ("boxing"): scalars, `JSON`, `URL`, `Decimal`, and dates and data under
/// the direct strategies become nodes at once; everything else is encoded by a nested ``JSONValueEncoder``.
///
/// Confined to the call that created it, so it needs no lock.
final class EncodingContext {
    let options: TetherJSONEncoder
    let userInfo: [CodingUserInfoKey: Any]
    let datePattern: DatePattern?
    private var snakeCaseKeys: [String: String] = [:]

    init(_ options: TetherJSONEncoder) {
        self.options = options
        self.userInfo = options.userInfo.mapValues { $0 as Any }
        if case .formatted(let pattern, let timeZone) = options.dateEncodingStrategy {
            datePattern = DatePattern(pattern, timeZone: timeZone)
        } else {
            datePattern = nil
        }
    }

    /// The object key for `key`, which is last in `codingPath`, under the key encoding strategy.
    func objectKey(for key: some CodingKey, codingPath: @autoclosure () -> [any CodingKey]) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            let original = key.stringValue
            if let converted = snakeCaseKeys[original] { return converted }
            let converted = TetherJSONEncoder.KeyEncodingStrategy.snakeCase(original)
            snakeCaseKeys[original] = converted
            return converted
        case .custom(let convert):
            return convert(codingPath()).stringValue
        }
    }

    /// The node for `value`, which sits at `step` from `path`.
    func box<T: Encodable>(_ value: T, at step: CodingPathStep, in path: [any CodingKey]) throws -> EncodedNode {
        if let json = try boxDirectly(value, at: step, in: path) { return .value(json) }
        if T.self == Date.self {
            return try box(date: value as! Date, at: step, in: path)
        }
        if T.self == Data.self {
            return try box(data: value as! Data, at: step, in: path)
        }
        return try boxNested(at: step, in: path) { try value.encode(to: $0) }
    }

    /// The JSON for values encoded without a nested encoder, or `nil` for other types.
    private func boxDirectly<T: Encodable>(_ value: T, at step: CodingPathStep, in path: [any CodingKey]) throws
        -> JSON?
    {
        // Metatype comparisons are pointer compares; the casts after them cannot fail.
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .number(JSON.Number(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Double.self { return try box(value as! Double, at: step, in: path) }
        if T.self == JSON.self { return (value as! JSON) }
        if T.self == Int64.self { return .number(JSON.Number(value as! Int64)) }
        if T.self == Int32.self { return .number(JSON.Number(Int64(value as! Int32))) }
        if T.self == Int16.self { return .number(JSON.Number(Int64(value as! Int16))) }
        if T.self == Int8.self { return .number(JSON.Number(Int64(value as! Int8))) }
        if T.self == UInt.self { return .number(JSON.Number(UInt64(value as! UInt))) }
        if T.self == UInt64.self { return .number(JSON.Number(value as! UInt64)) }
        if T.self == UInt32.self { return .number(JSON.Number(UInt64(value as! UInt32))) }
        if T.self == UInt16.self { return .number(JSON.Number(UInt64(value as! UInt16))) }
        if T.self == UInt8.self { return .number(JSON.Number(UInt64(value as! UInt8))) }
        if T.self == Float.self { return try box(value as! Float, at: step, in: path) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self { return try box(value as! Decimal, at: step, in: path) }
        return nil
    }

    /// A nested encoder at `step`, given to `encode`; the node is whatever it encoded, or `{}`.
    private func boxNested(
        at step: CodingPathStep, in path: [any CodingKey], _ encode: (JSONValueEncoder) throws -> Void
    ) throws
        -> EncodedNode
    {
        let nested = JSONValueEncoder(context: self, codingPath: step.appended(to: path))
        try encode(nested)
        return nested.node ?? .object(EncodedObject())
    }

    func box(_ value: Double, at step: CodingPathStep, in path: [any CodingKey]) throws -> JSON {
        if value.isFinite { return .number(JSON.Number(value)) }
        return try nonConforming(value, isNaN: value.isNaN, isNegative: value < 0, at: step, in: path)
    }

    func box(_ value: Float, at step: CodingPathStep, in path: [any CodingKey]) throws -> JSON {
        guard value.isFinite else {
            return try nonConforming(value, isNaN: value.isNaN, isNegative: value < 0, at: step, in: path)
        }
        // The double nearest the float's shortest text, so 0.1 as a Float is written 0.1.
        return .number(JSON.Number(Double(value.description) ?? Double(value)))
    }

    private func nonConforming(
        _ value: some Encodable, isNaN: Bool, isNegative: Bool, at step: CodingPathStep, in path: [any CodingKey]
    )
        throws -> JSON
    {
        switch options.nonConformingFloatEncodingStrategy {
        case .throw:
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: step.appended(to: path),
                    debugDescription:
                        "Unable to encode \(type(of: value)).\(isNaN ? "nan" : isNegative ? "-infinity" : "infinity") "
                        + "directly in JSON. Use TetherJSONEncoder.NonConformingFloatEncodingStrategy.convertToString "
                        + "to specify how the value should be encoded."))
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
            return .string(isNaN ? nan : isNegative ? negativeInfinity : positiveInfinity)
        }
    }

    private func box(_ value: Decimal, at step: CodingPathStep, in path: [any CodingKey]) throws -> JSON {
        guard value.isFinite, let number = JSON.Number(text: value.description) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: step.appended(to: path),
                    debugDescription: "Unable to encode Decimal \(value) directly in JSON."))
        }
        return .number(number)
    }

    private func box(date: Date, at step: CodingPathStep, in path: [any CodingKey]) throws -> EncodedNode {
        switch options.dateEncodingStrategy {
        case .deferredToDate:
            return try boxNested(at: step, in: path) { try date.encode(to: $0) }
        case .iso8601:
            return .value(.string(ISO8601.format(date, fractionalSeconds: false)))
        case .iso8601WithFractionalSeconds:
            return .value(.string(ISO8601.format(date, fractionalSeconds: true)))
        case .secondsSince1970:
            return .value(try boxWhole(date.timeIntervalSince1970, at: step, in: path))
        case .millisecondsSince1970:
            return .value(try boxWhole(date.timeIntervalSince1970 * 1000, at: step, in: path))
        case .formatted:
            return .value(.string(datePattern!.format(date)))
        case .custom(let encode):
            return try boxNested(at: step, in: path) { try encode(date, $0) }
        }
    }

    /// A number written as an integer when it is whole, else as a double.
    private func boxWhole(_ value: Double, at step: CodingPathStep, in path: [any CodingKey]) throws -> JSON {
        if value.rounded() == value, abs(value) < 9e15 { return .number(JSON.Number(Int64(value))) }
        return try box(value, at: step, in: path)
    }

    private func box(data: Data, at step: CodingPathStep, in path: [any CodingKey]) throws -> EncodedNode {
        switch options.dataEncodingStrategy {
        case .base64:
            return .value(.string(data.base64EncodedString()))
        case .deferredToData:
            return try boxNested(at: step, in: path) { try data.encode(to: $0) }
        case .custom(let encode):
            return try boxNested(at: step, in: path) { try encode(data, $0) }
        }
    }
}
