// libFuzzer entry point for TetherJSONEncoder: a decoded value must encode back to an equal value.
//
// Built by `Scripts/fuzz.sh encoder` together with every file in Sources/TetherJSON, as one module. Any broken
// invariant ends in `fatalError`, which libFuzzer reports as a crash and saves the input. For every input that
// parses:
// 1. The parsed value, encoded through keyed, unkeyed and single-value containers (as a hand-written
//    `encode(to:)` would), gives exactly the text of the same value encoded through a `JSON` tree and written
//    by `JSONWriter` (the encoder's fallback path), under each output formatting; that text parses back to the
//    parsed value (up to member order, with sorted keys) when the input has no repeated keys; and
//    `JSONWriter.write(_:chunkSize:to:)` hands on the same text in chunks.
// 2. A Codable model decoded from the input encodes to text that decodes to an equal model.

/// Encodes a `JSON` value through the encoder's containers.
struct FuzzContainers: Encodable {
    var json: JSON

    func encode(to encoder: any Encoder) throws {
        switch json {
        case .object(let object):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, value) in zip(object.keys, object.values) {
                try container.encode(FuzzContainers(json: value), forKey: JSONCodingKey(stringValue: key))
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(FuzzContainers(json: element)) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let value = number.int64 {
                if number.isInteger { try container.encode(value) } else { try container.encode(json) }
            } else if let value = number.uint64, number.isInteger {
                try container.encode(value)
            } else if case .double(let value) = number.storage {
                try container.encode(value)
            } else {
                try container.encode(json)  // a number kept as text
            }
        }
    }
}

/// A Codable model shaped like an API item, recursive so nesting is exercised.
struct FuzzRecord: Codable, Equatable {
    var name: String?
    var price: Int?
    var rating: Double?
    var big: UInt64?
    var inStock: Bool?
    var tags: [String]?
    var scores: [String: Double]?
    var children: [FuzzRecord]?
}

/// Stops the fuzzer with a message naming the broken invariant.
func fail(_ message: String) -> Never {
    fatalError("FuzzEncoder invariant broken: \(message)")
}

/// Whether any object in `json` has a key twice.
func hasRepeatedKeys(_ json: JSON) -> Bool {
    switch json {
    case .object(let object):
        if Set(object.keys).count != object.keys.count { return true }
        return object.values.contains(where: hasRepeatedKeys)
    case .array(let elements):
        return elements.contains(where: hasRepeatedKeys)
    default:
        return false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEncoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    guard let json = try? JSONParser(options: JSONParser.Options(maximumDepth: 200)).parse(bytes) else { return 0 }

    // 1. Through the containers, in place, and through a tree: the same text.
    let allFormatting: [JSONWriter.Options] = [
        [], [.prettyPrinted], [.sortedKeys], [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
    ]
    for formatting in allFormatting {
        var encoder = TetherJSONEncoder()
        encoder.outputFormatting = formatting
        let value = FuzzContainers(json: json)
        let inPlace: [UInt8]
        let throughTree: [UInt8]
        do {
            inPlace = try encoder.encodeToBytes(value)
            throughTree = try JSONWriter(options: formatting).bytes(try encoder.encodeToJSON(value))
        } catch {
            fail("encoding a parsed value threw \(error)")
        }
        // The streaming writer hands on the same text, in chunks of a size that varies with the input.
        var streamed: [UInt8] = []
        do {
            try JSONWriter(options: formatting).write(try encoder.encodeToJSON(value), chunkSize: 1 + size % 37) {
                streamed.append(contentsOf: $0)
            }
        } catch {
            fail("streaming a parsed value threw \(error)")
        }
        if streamed != throughTree { fail("formatting \(formatting.rawValue): the streamed text differs") }
        if inPlace != throughTree {
            fail(
                "formatting \(formatting.rawValue): in place \(String(decoding: inPlace, as: UTF8.self)), "
                    + "through a tree \(String(decoding: throughTree, as: UTF8.self))")
        }
        if !hasRepeatedKeys(json) {
            guard let back = try? JSONParser().parse(inPlace) else { fail("the encoder's output does not parse") }
            // Sorted output reads back with its members in another order: compare the sorted texts then.
            let same =
                formatting.contains(.sortedKeys)
                ? (try? back.bytes(.sortedKeys)) == (try? json.bytes(.sortedKeys)) : back == json
            if !same { fail("formatting \(formatting.rawValue): read back a different value") }
        }
    }

    // 2. A decoded model encodes to an equal model.
    let decoder = TetherJSONDecoder()
    let records =
        [try? decoder.decode(FuzzRecord.self, from: bytes)]
        + ((try? decoder.decode([FuzzRecord].self, from: bytes)) ?? [])
    for case let record? in records {
        do {
            let text = try TetherJSONEncoder().encodeToBytes(record)
            let again = try decoder.decode(FuzzRecord.self, from: text)
            if again != record { fail("a decoded model encoded and decoded again differs") }
        } catch {
            fail("a decoded model does not encode and decode again: \(error)")
        }
    }
    return 0
}
