import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

private struct Post: Codable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

private struct Shop: Codable, Equatable {
    struct Image: Codable, Equatable { var imageUrl: URL }
    var name: String
    var rating: Double?
    var tags: [Int]
    var images: [Image]
    var extra: JSON?
}

private func decode<T: Decodable>(
    _ type: T.Type, _ text: String, configure: (inout TetherJSONDecoder) -> Void = { _ in }
) throws -> T {
    var decoder = TetherJSONDecoder()
    configure(&decoder)
    return try decoder.decode(type, from: Data(text.utf8))
}

private func path(_ error: any Error) -> String {
    let context: DecodingError.Context? =
        switch error as? DecodingError {
        case .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): c
        default: nil
        }
    return context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") ?? "-"
}

@Suite struct DecoderTests {
    @Test func decodesFlatStructsInAnyKeyOrder() throws {
        let posts = try decode(
            [Post].self,
            #"[{"userId": 1, "id": 1, "title": "a", "body": "b\nc"}, {"body": "", "title": "t", "id": 2, "userId": 9}]"#
        )
        #expect(
            posts == [Post(userId: 1, id: 1, title: "a", body: "b\nc"), Post(userId: 9, id: 2, title: "t", body: "")])
    }

    @Test func decodesNestedValuesOptionalsAndJSON() throws {
        let shop = try decode(
            Shop.self,
            #"{"name": "お茶の見本園", "tags": [1, 2], "images": [{"imageUrl": "https://e.x/a.jpg?_ex=64x64"}], "#
                + #""extra": {"k": [true, null]}}"#)
        #expect(shop.name == "お茶の見本園")
        #expect(shop.rating == nil)
        #expect(shop.tags == [1, 2])
        #expect(shop.images.first?.imageUrl.absoluteString == "https://e.x/a.jpg?_ex=64x64")
        #expect(shop.extra == ["k": [true, nil]])
        let rated = try decode(Shop.self, #"{"name": "", "rating": null, "tags": [], "images": []}"#)
        #expect(rated.rating == nil && rated.extra == nil)
    }

    @Test func missingKeyReportsTheFullPath() {
        #expect {
            try decode([Shop].self, #"[{"name": "a", "tags": [], "images": [{}]}]"#)
        } throws: { error in
            guard case .keyNotFound(let key, _) = error as? DecodingError else { return false }
            return key.stringValue == "imageUrl" && path(error) == "[0].images.[0]"
        }
    }

    @Test func errorPathsNameTheFailingElementAfterGoodOnes() {
        // Coding-path nodes are reused from element to element; the path must still name the one that failed.
        let text =
            #"[{"name": "a", "tags": [], "images": [{"imageUrl": "https://a"}]}, "#
            + #"{"name": "b", "tags": [1], "images": [{"imageUrl": "https://b"}, {"imageUrl": 7}]}]"#
        #expect {
            try decode([Shop].self, text)
        } throws: { error in
            guard case .typeMismatch = error as? DecodingError else { return false }
            return path(error) == "[1].images.[1].imageUrl"
        }
    }

    @Test func membersReadOutOfDocumentOrder() throws {
        // Sixteen members sent in reverse order: lookups switch from scanning to the object's key table.
        struct Wide: Decodable, Equatable {
            var a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p: Int
        }
        let names = Array("abcdefghijklmnop").map(String.init)
        let members = names.enumerated().reversed().map { "\"\($0.element)\": \($0.offset)" }
        let text = "[{" + members.joined(separator: ", ") + "}, {" + members.joined(separator: ", ") + "}]"
        let values = try decode([Wide].self, text)
        let expected = Wide(
            a: 0, b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8, j: 9, k: 10, l: 11, m: 12, n: 13, o: 14, p: 15)
        #expect(values == [expected, expected])
        #expect(throws: DecodingError.self) {
            try decode(Wide.self, "{" + members.dropLast().joined(separator: ", ") + "}")
        }
    }

    @Test func repeatedKeysDecodeTheSameFromBytesAndFromAValue() throws {
        // Which repeated member is read is unspecified, but it must not depend on whether the object's keys
        // could be hashed (an escaped key prevents the key table) or on the input form. Found by the fuzzer.
        struct Wide: Decodable, Equatable {
            var p, a, r: Int
            var z: Int?
        }
        let members = (0..<12).map { #""k\#($0)": \#($0)"# } + [#""\u0070": 3"#, #""a": 2"#, #""r": 1"#, #""r": 4"#]
        for order in [members, members.reversed()] {
            let text = "{" + order.joined(separator: ", ") + "}"
            let fromBytes = try decode(Wide.self, text)
            let fromValue = try TetherJSONDecoder().decode(Wide.self, from: try JSON(parsing: text))
            #expect(fromBytes == fromValue)
            #expect(fromBytes.p == 3 && fromBytes.a == 2 && [1, 4].contains(fromBytes.r))
        }
    }

    @Test func typeMismatchSaysWhatWasFound() {
        #expect {
            try decode([Post].self, #"[{"userId": "1", "id": 1, "title": "a", "body": "b"}]"#)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return path(error) == "[0].userId" && context.debugDescription.contains("a string (\"1\")")
        }
    }

    @Test func nullForANonOptionalIsValueNotFound() {
        #expect {
            try decode(Post.self, #"{"userId": 1, "id": 1, "title": null, "body": "b"}"#)
        } throws: { error in
            guard case .valueNotFound = error as? DecodingError else { return false }
            return path(error) == "title"
        }
    }

    @Test(arguments: [
        ("3", 3 as Int?), ("3.0", 3), ("3e2", 300), ("-0", 0), ("3.5", nil), ("1e30", nil),
        ("9223372036854775807", Int.max), ("9223372036854775808", nil), ("true", nil), ("\"3\"", nil),
    ])
    func integersTakeWholeNumbersThatFit(text: String, expected: Int?) throws {
        let result = try? decode(Int.self, text)
        #expect(result == expected)
    }

    @Test func arraysOfEveryShape() throws {
        #expect(try decode([Int?].self, "[1, null, 3]") == [1, nil, 3])
        #expect(try decode([[String]].self, #"[[], ["a"], ["b", "c"]]"#) == [[], ["a"], ["b", "c"]])
        #expect(try decode([Post].self, "[]").isEmpty)
        #expect(try decode([String: [Int]].self, #"{"a": [1, 2]}"#) == ["a": [1, 2]])
        #expect {
            try decode([[Int]].self, "[[1], 2]")
        } throws: { error in
            guard case .typeMismatch(let type, let context) = error as? DecodingError else { return false }
            return type == [Int].self && path(error) == "[1]" && context.debugDescription.contains("a number (2)")
        }
        #expect {
            try decode([Int].self, #"{"a": 1}"#)
        } throws: { error in
            guard case .typeMismatch = error as? DecodingError else { return false }
            return path(error) == ""
        }
    }

    @Test func narrowIntegersAreRangeChecked() throws {
        #expect(try decode([UInt8].self, "[0, 255]") == [0, 255])
        #expect(throws: DecodingError.self) { try decode([UInt8].self, "[256]") }
        #expect(throws: DecodingError.self) { try decode(UInt.self, "-1") }
        #expect(try decode(UInt64.self, "18446744073709551615") == UInt64.max)
        #expect(try decode(Int8.self, "-128") == Int8.min)
    }

    @Test func floatingPointAndDecimal() throws {
        #expect(try decode(Double.self, "0") == 0)
        #expect(try decode(Double.self, "4.63") == 4.63)
        #expect(try decode(Float.self, "2.5") == 2.5)
        #expect(throws: DecodingError.self) { try decode(Float.self, "1e300") }
        #expect(try decode(Decimal.self, "12345678901234567890.123") == Decimal(string: "12345678901234567890.123"))
        #expect(try decode(Decimal.self, "0.1") == Decimal(string: "0.1"))
    }

    @Test func nonConformingFloats() throws {
        #expect(throws: DecodingError.self) { try decode(Double.self, #""NaN""#) }
        let values = try decode([Double].self, #"["+inf", "-inf", "nan", 1]"#) {
            $0.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        #expect(values[0] == .infinity && values[1] == -.infinity && values[2].isNaN && values[3] == 1)
    }

    @Test func snakeCaseKeys() throws {
        struct User: Decodable, Equatable {
            var userId: Int
            var displayName: String
            var _private: Bool
        }
        let user = try decode(User.self, #"{"user_id": 4, "display_name": "x", "_private": true}"#) {
            $0.keyDecodingStrategy = .convertFromSnakeCase
        }
        #expect(user == User(userId: 4, displayName: "x", _private: true))
        #expect(DecodingState.camelCase(fromSnakeCase: "user_ID") == "userId")
        #expect(DecodingState.camelCase(fromSnakeCase: "__a_b__") == "__aB__")
        #expect(DecodingState.camelCase(fromSnakeCase: "___") == "___")
    }

    @Test func customKeysAndCaseInsensitiveMatching() throws {
        struct Page: Decodable { var items: [Int] }
        let custom = try decode(Page.self, #"{"ITEMS": [1]}"#) {
            $0.keyDecodingStrategy = .custom { path in AnyStringKey(path.last!.stringValue.lowercased()) }
        }
        #expect(custom.items == [1])
        #expect(throws: DecodingError.self) { try decode(Page.self, #"{"Items": [1]}"#) }
        let relaxed = try decode(Page.self, #"{"Items": [2]}"#) { $0.matchesKeysCaseInsensitively = true }
        #expect(relaxed.items == [2])
        let exactWins = try decode(Page.self, #"{"Items": [2], "items": [3]}"#) {
            $0.matchesKeysCaseInsensitively = true
        }
        #expect(exactWins.items == [3])
    }

    @Test func dateStrategies() throws {
        let epoch = Date(timeIntervalSince1970: 1_714_566_896)
        #expect(try decode(Date.self, "1714566896") { $0.dateDecodingStrategy = .secondsSince1970 } == epoch)
        #expect(try decode(Date.self, "1714566896000") { $0.dateDecodingStrategy = .millisecondsSince1970 } == epoch)
        #expect(try decode(Date.self, #""2024-05-01T12:34:56Z""#) { $0.dateDecodingStrategy = .iso8601 } == epoch)
        let fractional = try decode(Date.self, #""2024-05-01T21:34:56.250+09:00""#) {
            $0.dateDecodingStrategy = .iso8601
        }
        #expect(abs(fractional.timeIntervalSince1970 - 1_714_566_896.25) < 0.0001)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let rakuten = try decode(Date.self, #""2024-05-01 21:34""#) {
            $0.dateDecodingStrategy = .formatted(pattern: "yyyy-MM-dd HH:mm", timeZone: tokyo)
        }
        #expect(rakuten == Date(timeIntervalSince1970: 1_714_566_840))
        #expect(throws: DecodingError.self) {
            try decode(Date.self, #""2024-05-01""#) { $0.dateDecodingStrategy = .iso8601 }
        }
        let deferred = try decode(Date.self, "0")
        #expect(deferred == Date(timeIntervalSinceReferenceDate: 0))
        let custom = try decode(Date.self, #""now""#) {
            $0.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return text == "now" ? epoch : .distantPast
            }
        }
        #expect(custom == epoch)
    }

    @Test func dataStrategies() throws {
        #expect(try decode(Data.self, #""AAEC/w==""#) == Data([0, 1, 2, 255]))
        #expect(throws: DecodingError.self) { try decode(Data.self, #""not base64!""#) }
        #expect(try decode(Data.self, "[0, 1, 2]") { $0.dataDecodingStrategy = .deferredToData } == Data([0, 1, 2]))
    }

    @Test func invalidJSONIsDataCorruptedWithTheParseError() {
        #expect {
            try decode(Post.self, "{\"userId\": 1,\n \"id\": }")
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError,
                let parse = context.underlyingError as? JSONError
            else { return false }
            return parse.code == .syntax && parse.location?.line == 2 && parse.location?.column == 8
        }
    }

    /// Inputs with one invalid UTF-8 byte (0xFF) in a string value: read, skipped, escaped, inside a `JSON`
    /// field, and next to a type error. The scan checks every string before decoding starts.
    @Test(arguments: [
        #"{"userId": 1, "id": 1, "title": "緑茶BAD", "body": "b"}"#,
        #"{"userId": 1, "id": 1, "title": "t", "body": "b", "skipped": "茶BAD"}"#,
        #"{"userId": 1, "id": 1, "title": "a\nBAD", "body": "b"}"#,
        #"{"userId": "wrong type", "id": 1, "title": "t", "body": "茶BAD"}"#,
    ])
    func invalidUTF8InStringValuesIsAParseError(template: String) throws {
        var bytes = Array(template.utf8)
        let marker = Array("BAD".utf8)
        let at = try #require((0...(bytes.count - 3)).first { Array(bytes[$0..<$0 + 3]) == marker })
        bytes.replaceSubrange(at..<at + 3, with: [0xFF])
        #expect {
            try TetherJSONDecoder().decode(Post.self, from: bytes)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError,
                let parse = context.underlyingError as? JSONError
            else { return false }
            return parse.code == .invalidUTF8 && parse.location?.offset == at
        }
        // The parser agrees on the error.
        #expect(throws: JSONError.self) { try JSONParser().parse(bytes) }
    }

    /// Decoded strings are made without a second UTF-8 check (the scan made one), told whether they are ASCII:
    /// each must be the same `String` as Swift's own, alone, in arrays, as dictionary keys and through `JSON`,
    /// decoded from bytes and from a parsed value.
    @Test func decodedStringsAreTheSameStringsAsSwifts() throws {
        struct Texts: Codable, Equatable {
            var one: String
            var list: [String]
            var map: [String: String]
            var json: JSON
        }
        let texts = [
            "", "a", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ASCII text ", count: 8), "é",
            "緑茶", "a😀b", "é at the start of a string long enough to be stored on the heap",
            "ASCII first, then one é at the end of a long string", String(repeating: "緑茶と抹茶", count: 20),
        ]
        for text in texts {
            let original = Texts(
                one: text, list: [text, "x", text], map: [text: text],
                json: ["k": .string(text), text: [.string(text)]])
            let bytes = try TetherJSONEncoder().encode(original)
            // From bytes (the scanner's tape) and from a parsed value (the tape laid out from a `JSON`).
            let fromBytes = try TetherJSONDecoder().decode(Texts.self, from: bytes)
            let fromValue = try TetherJSONDecoder().decode(Texts.self, from: try JSONParser().parse(bytes))
            for decoded in [fromBytes, fromValue] {
                #expect(decoded == original)
                let made: [String?] = [
                    decoded.one, decoded.list[0], decoded.list[2], decoded.map.keys.first, decoded.map[text],
                ]
                for string in made {
                    let string = try #require(string)
                    #expect(string.count == text.count)
                    #expect(string.utf16.count == text.utf16.count)
                    #expect(string.hashValue == text.hashValue)
                    #expect(string.reversed().elementsEqual(text.reversed()))
                }
                #expect(decoded.json[text]?[0]?.string?.count == text.count)
            }
        }
    }

    @Test func invalidUTF8InsideAJSONField() throws {
        struct Holder: Decodable { var extra: JSON }
        var bytes = Array(#"{"extra": {"k": ["ok", "xBAD"]}}"#.utf8)
        bytes.replaceSubrange(bytes.count - 7..<bytes.count - 4, with: [0xC3])
        #expect(throws: DecodingError.self) { try TetherJSONDecoder().decode(Holder.self, from: bytes) }
        let valid = try TetherJSONDecoder().decode(Holder.self, from: Array(#"{"extra": ["é", "茶\n"]}"#.utf8))
        #expect(valid.extra == ["é", "茶\n"])
    }

    @Test func parserOptionsApply() throws {
        var decoder = TetherJSONDecoder()
        decoder.parserOptions.maximumDepth = 2
        #expect(throws: DecodingError.self) { try decoder.decode([[[Int]]].self, from: "[[[1]]]") }
        #expect(try decoder.decode([[Int]].self, from: "[[1]]") == [[1]])
    }

    @Test func decodesFromAParsedValue() throws {
        let json: JSON = ["userId": 1, "id": 2, "title": "t", "body": "é\"\\"]
        let post = try TetherJSONDecoder().decode(Post.self, from: json)
        #expect(post == Post(userId: 1, id: 2, title: "t", body: "é\"\\"))
        let big = try TetherJSONDecoder().decode(
            Decimal.self, from: JSON.number(JSON.Number(text: "123456789012345678901")!))
        #expect(big == Decimal(string: "123456789012345678901"))
    }

    @Test func nestedContainersAndSuperDecoders() throws {
        struct Wrapped: Decodable {
            var city: String
            var first: Int
            var inherited: String?
            enum Keys: String, CodingKey { case address, list, city, `super` }
            init(from decoder: any Decoder) throws {
                let root = try decoder.container(keyedBy: Keys.self)
                let address = try root.nestedContainer(keyedBy: Keys.self, forKey: .address)
                city = try address.decode(String.self, forKey: .city)
                var list = try root.nestedUnkeyedContainer(forKey: .list)
                #expect(list.count == 2)
                first = try list.decode(Int.self)
                #expect(try list.decodeNil())
                #expect(list.isAtEnd)
                #expect(throws: DecodingError.self) { try list.decode(Int.self) }
                inherited = try String?(from: root.superDecoder())
                #expect(address.codingPath.map(\.stringValue) == ["address"])
            }
        }
        let value = try decode(Wrapped.self, #"{"address": {"city": "京都"}, "list": [7, null], "super": "s"}"#)
        #expect(value.city == "京都" && value.first == 7 && value.inherited == "s")
    }

    @Test func decoderKeptPastTheCallFailsCleanly() throws {
        final class Escape: Decodable, @unchecked Sendable {
            var decoder: (any Decoder)?
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        let escaped = try decode(Escape.self, #"{"a": 1}"#)
        #expect(throws: DecodingError.self) { _ = try escaped.decoder?.container(keyedBy: AnyStringKey.self) }
        #expect(throws: DecodingError.self) { _ = try escaped.decoder?.singleValueContainer().decode(Int.self) }
        #expect(escaped.decoder?.codingPath.isEmpty == true)

        // A container kept past the call answers without touching the released input.
        final class EscapeContainer: Decodable, @unchecked Sendable {
            var container: KeyedDecodingContainer<AnyStringKey>?
            var nested: KeyedDecodingContainer<AnyStringKey>?
            init(from decoder: any Decoder) throws {
                let root = try decoder.container(keyedBy: AnyStringKey.self)
                container = root
                nested = try root.nestedContainer(keyedBy: AnyStringKey.self, forKey: AnyStringKey("b"))
            }
        }
        let kept = try decode(EscapeContainer.self, #"{"a": 1, "b": {"c": 2}}"#)
        #expect(kept.container?.allKeys.isEmpty == true)
        #expect(kept.container?.contains(AnyStringKey("a")) == false)
        #expect(throws: DecodingError.self) { _ = try kept.nested?.decode(Int.self, forKey: AnyStringKey("c")) }
        #expect(kept.nested?.codingPath.isEmpty == true)
    }

    @Test func userInfoIsPassedThrough() throws {
        struct Probe: Decodable {
            var seen: String?
            init(from decoder: any Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] as? String
            }
        }
        var decoder = TetherJSONDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] = "v"
        #expect(try decoder.decode(Probe.self, from: "{}").seen == "v")
    }

    @Test(.enabled(if: SharedFixtures.isAvailable))
    func agreesWithFoundationOnJSONPlaceholder() throws {
        struct Database: Codable, Equatable {
            struct Comment: Codable, Equatable {
                var postId: Int
                var id: Int
                var name: String
                var email: String
                var body: String
            }
            struct Photo: Codable, Equatable {
                var albumId: Int
                var id: Int
                var title: String
                var url: URL
                var thumbnailUrl: URL
            }
            var posts: [Post]
            var comments: [Comment]
            var photos: [Photo]
            struct User: Codable, Equatable {
                struct Address: Codable, Equatable {
                    struct Geo: Codable, Equatable {
                        var lat: String
                        var lng: String
                    }
                    var city: String
                    var geo: Geo
                }
                var id: Int
                var username: String
                var address: Address
            }
            var users: [User]
        }
        let data = try SharedFixtures.data("jsonplaceholder/db.json")
        let ours = try TetherJSONDecoder().decode(Database.self, from: data)
        let foundation = try JSONDecoder().decode(Database.self, from: data)
        #expect(ours.posts.count == 100 && ours.comments.count == 500 && ours.photos.count == 5000)
        // Compared as a Bool: a failure must not print five thousand photos.
        let same = ours == foundation
        #expect(same)
        #expect(ours.users.first?.address.geo.lat == "-37.3159")
    }
}
