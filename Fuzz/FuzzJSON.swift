// libFuzzer entry point for TetherJSON: parse, validate, write, re-parse and decode arbitrary bytes.
//
// Built by `Scripts/fuzz.sh json` together with every file in Sources/TetherJSON, as one module, so the library's
// internals are instrumented too. Any broken invariant ends in `fatalError`, which libFuzzer reports as a crash
// and saves the input. Parts that need code still being written are behind compilation conditions that the
// script sets when that code exists:
// - FUZZ_DECODER: `TetherJSONDecoder` decodes into `Decodable` models.
// - FUZZ_JSON_DECODABLE: `JSON` itself conforms to `Decodable`.

/// A small Decodable model shaped like an API item, recursive so nesting is exercised.
struct FuzzItem: Decodable, Equatable {
    var name: String?
    var price: Int?
    var rating: Double?
    var inStock: Bool?
    var tags: [String]?
    var children: [FuzzItem]?
}

/// A Rakuten-shaped page: `{"Items": [{"Item": {...}}], "count": n}`.
struct FuzzPage: Decodable, Equatable {
    struct Entry: Decodable, Equatable {
        var item: Product

        enum CodingKeys: String, CodingKey {
            case item = "Item"
        }
    }

    struct Product: Decodable, Equatable {
        var itemName: String
        var itemPrice: Int
        var itemUrl: String?
        var reviewAverage: Double?
        var tagIds: [Int]?
    }

    var items: [Entry]
    var count: Int?

    enum CodingKeys: String, CodingKey {
        case items = "Items"
        case count
    }
}

/// Stops the fuzzer with a message naming the broken invariant.
func fail(_ message: String) -> Never {
    fatalError("FuzzJSON invariant broken: \(message)")
}

/// Checks what every parse error must satisfy: a code, a message, and a location inside the input.
func check(_ error: JSONError, inputSize: Int, parser: String) {
    if error.message.isEmpty { fail("\(parser): empty error message") }
    guard let location = error.location else {
        if error.code != .inputTooLarge { fail("\(parser): parse error without a location: \(error)") }
        return
    }
    if location.offset < 0 || location.offset > inputSize {
        fail("\(parser): error offset \(location.offset) outside an input of \(inputSize) bytes")
    }
    if location.line < 1 || location.column < 1 { fail("\(parser): bad line or column in \(location)") }
    if location.excerptColumn < 0 || location.excerptColumn > location.excerpt.unicodeScalars.count {
        fail("\(parser): caret column \(location.excerptColumn) outside the excerpt '\(location.excerpt)'")
    }
    _ = error.description
}

/// Writes `json` with `options`, parses the text again, and returns the value read back.
func roundTrip(_ json: JSON, _ options: JSONWriter.Options, _ name: String) -> ([UInt8], JSON) {
    let text: [UInt8]
    do {
        text = try JSONWriter(options: options, indentWidth: 2).bytes(json)
    } catch {
        fail("\(name): writing a parsed value threw \(error)")
    }
    do {
        return (text, try JSONParser().parse(text))
    } catch {
        fail("\(name): the writer's output does not parse: \(error)\n\(String(decoding: text, as: UTF8.self))")
    }
}

/// Fails unless every key and string in `json` is valid UTF-8, told the truth about being ASCII: the same bytes,
/// character count and UTF-16 length as the `String` Swift makes from its bytes with a check.
func checkStrings(_ json: JSON) {
    func checkOne(_ string: String) {
        let bytes = Array(string.utf8)
        let remade = String(decoding: bytes, as: UTF8.self)
        if Array(remade.utf8) != bytes { fail("a parsed string holds invalid UTF-8: \(bytes)") }
        if remade.count != string.count || remade.utf16.count != string.utf16.count
            || remade.hashValue != string.hashValue
        {
            fail("a parsed string is not the same String as Swift's own: \(bytes)")
        }
    }
    switch json {
    case .string(let string): checkOne(string)
    case .array(let elements): elements.forEach(checkStrings)
    case .object(let object):
        object.keys.forEach(checkOne)
        object.values.forEach(checkStrings)
    default: break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)

    // 1. Default options: parse and validate must agree.
    let parsed: JSON?
    do {
        parsed = try JSONParser().parse(bytes)
    } catch {
        check(error, inputSize: size, parser: "default parse")
        parsed = nil
    }
    do {
        try JSONParser().validate(bytes)
        if parsed == nil { fail("validate accepted what parse rejected") }
    } catch {
        if parsed != nil { fail("validate rejected what parse accepted: \(error)") }
    }

    // 2. Strict options: anything they accept, the defaults accept with the same value.
    let strictOptions = JSONParser.Options(maximumDepth: 20, loneSurrogates: .reject)
    do {
        let strict = try JSONParser(options: strictOptions).parse(bytes)
        if strict != parsed { fail("strict parse accepted a different value than the default parse") }
    } catch {
        check(error, inputSize: size, parser: "strict parse")
    }

    guard let json = parsed else { return 0 }

    // Strings are made without a second UTF-8 check: each must be valid and the same as Swift's own.
    checkStrings(json)

    // 3. Writing: compact and pretty output read back as the same value; sorted output is stable.
    let (compact, compactBack) = roundTrip(json, [], "compact")
    if compactBack != json { fail("compact round trip changed the value: \(String(decoding: compact, as: UTF8.self))") }
    let (pretty, prettyBack) = roundTrip(json, [.prettyPrinted, .withoutEscapingSlashes], "pretty")
    if prettyBack != json { fail("pretty round trip changed the value: \(String(decoding: pretty, as: UTF8.self))") }
    let (sorted, sortedBack) = roundTrip(json, [.prettyPrinted, .sortedKeys], "sorted")
    let (sortedAgain, _) = roundTrip(sortedBack, [.prettyPrinted, .sortedKeys], "sorted again")
    if sorted != sortedAgain { fail("sorted output is not stable: \(String(decoding: sorted, as: UTF8.self))") }

    // 4. Decoding: from bytes and from the parsed value alike.
    #if FUZZ_DECODER
        let decoder = TetherJSONDecoder()
        let item = try? decoder.decode(FuzzItem.self, from: bytes)
        if item != (try? decoder.decode(FuzzItem.self, from: json)) { fail("FuzzItem differs from bytes and JSON") }
        let page = try? decoder.decode(FuzzPage.self, from: bytes)
        if page != (try? decoder.decode(FuzzPage.self, from: json)) { fail("FuzzPage differs from bytes and JSON") }
        _ = try? decoder.decode([FuzzItem].self, from: bytes)
        _ = try? decoder.decode([String: Double].self, from: bytes)
        #if FUZZ_JSON_DECODABLE
            do {
                let decoded = try decoder.decode(JSON.self, from: bytes)
                if decoded != json { fail("decoding JSON gave a different value than parsing") }
            } catch {
                fail("decoding valid input as JSON threw \(error)")
            }
        #endif
    #endif
    return 0
}
