import Testing
import TetherTestSupport

@testable import TetherJSON

/// Reading values out of ``JSON``: subscripts, accessors, throwing paths, literals, equality and ``JSON/Object``.
@Suite(.timeLimit(.minutes(5)))
struct ValueAccessTests {
    let json: JSON

    init() throws {
        json = try JSON(
            parsing: #"""
                {"Items": [{"Item": {"itemName": "緑茶\n", "itemPrice": 3240, "r": 4.56, "tags": ["a", "b"]}}],
                 "n": null, "ok": true, "count": 2, "ratio": 3.5, "whole": 3.0, "name": "x"}
                """#)
    }

    // MARK: - Subscripts and accessors

    @Test func presentValuesAreRead() {
        let item = json["Items"][0]["Item"]
        #expect(item["itemName"].string == "緑茶\n")
        #expect(item["itemPrice"].int == 3240)
        #expect(item["itemPrice"].int64 == 3240)
        #expect(item["itemPrice"].uint64 == 3240)
        #expect(item["itemPrice"].double == 3240)
        #expect(item["r"].double == 4.56)
        #expect(item["tags"].array == ["a", "b"])
        #expect(item["tags"][1].string == "b")
        #expect(item.object?.keys == ["itemName", "itemPrice", "r", "tags"])
        #expect(json["ok"].bool == true)
        #expect(json["n"].isNull)
        #expect(json["count"].number == JSON.Number(2))
        #expect(json["whole"].int == 3)
        #expect(json["ratio"].int == nil)
        #expect(json["ratio"].double == 3.5)
    }

    @Test func missingValuesAreNil() {
        #expect(json["missing"] == nil)
        #expect(json["missing"].string == nil)
        #expect(json["missing"].isNull == false)  // missing is not null
        #expect(json["Items"][1] == nil)
        #expect(json["Items"][-1] == nil)
        #expect(json["Items"][3]["Item"].string == nil)
        #expect(json["Items"][0]["Item"]["nope"]["deeper"][0].int == nil)
        #expect(json["Items"][0]["Item"]["tags"][2] == nil)
    }

    @Test func valuesOfAnotherKindAreNil() {
        let name = json["name"]
        #expect(name.int == nil)
        #expect(name.double == nil)
        #expect(name.bool == nil)
        #expect(name.number == nil)
        #expect(name.array == nil)
        #expect(name.object == nil)
        #expect(name.isNull == false)
        #expect(name["key"] == nil)  // a key of a string
        #expect(name[0] == nil)  // an index of a string
        #expect(json[0] == nil)  // an index of an object
        #expect(json["Items"]["Item"] == nil)  // a key of an array
        #expect(json["ok"].int == nil)  // Booleans are not numbers
        #expect(json["count"].bool == nil)  // nor numbers Booleans
        #expect(json["count"].string == nil)
        #expect(json["n"].string == nil)
        #expect(json["n"].array == nil)
    }

    @Test func optionalJSONChainsLikeJSON() {
        let none: JSON? = nil
        #expect(none["a"] == nil)
        #expect(none[0] == nil)
        #expect(none.string == nil)
        #expect(none.bool == nil)
        #expect(none.number == nil)
        #expect(none.int == nil)
        #expect(none.int64 == nil)
        #expect(none.uint64 == nil)
        #expect(none.double == nil)
        #expect(none.array == nil)
        #expect(none.object == nil)
        #expect(none.isNull == false)

        let some: JSON? = ["a": [1, nil]]
        #expect(some["a"][0].int == 1)
        #expect(some["a"][1].isNull)
        #expect(some["a"].array?.count == 2)
        #expect(some.object?.count == 1)
    }

    @Test func kindNamesEveryCase() {
        let values: [(JSON, JSON.Kind)] = [
            (nil, .null), (true, .bool), (1, .number), ("s", .string), ([], .array), ([:], .object),
        ]
        for (value, kind) in values {
            #expect(value.kind == kind)
            #expect(value.kind.description == kind.rawValue)
        }
    }

    // MARK: - Throwing paths

    @Test func pathToAPresentValue() throws {
        #expect(try json.value(at: "Items", 0, "Item", "itemPrice") == 3240)
        #expect(try json.value(at: []) == json)
        #expect(try json.value(at: ["Items", 0, "Item", "tags", 1]) == "b")
    }

    @Test func missingKeyIsPathNotFound() throws {
        let error = try #require(throws: JSONError.self) { try json.value(at: "Items", 0, "Item", "nope", "x") }
        #expect(error.code == .pathNotFound)
        #expect(error.path == ["Items", 0, "Item", "nope"])
        #expect(error.message == #"no key "nope" in the object"#)
        #expect(error.location == nil)
        #expect(error.description == #"no key "nope" in the object (at Items[0].Item.nope)"#)
    }

    @Test func indexOutOfRangeIsPathNotFound() throws {
        let error = try #require(throws: JSONError.self) { try json.value(at: "Items", 0, "Item", "tags", 5) }
        #expect(error.code == .pathNotFound)
        #expect(error.path == ["Items", 0, "Item", "tags", 5])
        #expect(error.message == "index 5 is out of range for an array of 2")
        let negative = try #require(throws: JSONError.self) { try json.value(at: "Items", -1) }
        #expect(negative.code == .pathNotFound)
        #expect(negative.path == ["Items", -1])
    }

    @Test func wrongKindOnThePathIsTypeMismatch() throws {
        let keyOfArray = try #require(throws: JSONError.self) { try json.value(at: "Items", "Item") }
        #expect(keyOfArray.code == .typeMismatch)
        #expect(keyOfArray.path == ["Items", "Item"])
        #expect(keyOfArray.message == #"expected an object to look up "Item", found an array of 1"#)

        let indexOfString = try #require(throws: JSONError.self) { try json.value(at: "name", 0) }
        #expect(indexOfString.code == .typeMismatch)
        #expect(indexOfString.path == ["name", 0])
        #expect(indexOfString.message == #"expected an array to take index 0, found the string "x""#)

        let indexOfObject = try #require(throws: JSONError.self) { try json.value(at: 0) }
        #expect(indexOfObject.message == "expected an array to take index 0, found an object of 7 members")
        #expect(indexOfObject.description.hasSuffix("(at [0])"))

        let keyOfNull = try #require(throws: JSONError.self) { try json.value(at: "n", "a") }
        #expect(keyOfNull.message == #"expected an object to look up "a", found null"#)
    }

    @Test func typedPathsConvertScalars() throws {
        #expect(try json.value(at: "Items", 0, "Item", "itemName", as: String.self) == "緑茶\n")
        #expect(try json.value(at: "Items", 0, "Item", "itemPrice", as: Int.self) == 3240)
        #expect(try json.value(at: "Items", 0, "Item", "itemPrice", as: Int64.self) == 3240)
        #expect(try json.value(at: "Items", 0, "Item", "itemPrice", as: UInt64.self) == 3240)
        #expect(try json.value(at: "Items", 0, "Item", "itemPrice", as: Double.self) == 3240)
        #expect(try json.value(at: "Items", 0, "Item", "r", as: Double.self) == 4.56)
        #expect(try json.value(at: "whole", as: Int.self) == 3)
        #expect(try json.value(at: "ok", as: Bool.self) == true)
        #expect(try json.value(at: "Items", 0, "Item", "tags", as: JSON.self) == ["a", "b"])
        #expect(try json.value(at: "n", as: JSON.self) == .null)
    }

    @Test func typedPathOfTheWrongKindIsTypeMismatch() throws {
        let string = try #require(throws: JSONError.self) { try json.value(at: "name", as: Int.self) }
        #expect(string.code == .typeMismatch)
        #expect(string.path == ["name"])
        #expect(string.message == #"expected Int, found the string "x""#)

        let fraction = try #require(throws: JSONError.self) { try json.value(at: "ratio", as: Int.self) }
        #expect(fraction.message == "expected Int, found the number 3.5")

        let number = try #require(throws: JSONError.self) { try json.value(at: "count", as: String.self) }
        #expect(number.message == "expected String, found the number 2")

        let null = try #require(throws: JSONError.self) { try json.value(at: "n", as: Bool.self) }
        #expect(null.message == "expected Bool, found null")

        let array = try #require(throws: JSONError.self) { try json.value(at: "Items", as: Double.self) }
        #expect(array.message == "expected Double, found an array of 1")

        let negative = try #require(throws: JSONError.self) { try JSON(-1).value(as: UInt64.self) }
        #expect(negative.message == "expected UInt64, found the number -1")
        #expect(negative.path.isEmpty)

        // A broken path reports the path error, not a type error.
        let missing = try #require(throws: JSONError.self) { try json.value(at: "missing", as: String.self) }
        #expect(missing.code == .pathNotFound)
        #expect(missing.path == ["missing"])
    }

    @Test func longStringsAreShortenedInMessages() throws {
        let long = JSON(String(repeating: "あ", count: 50))
        let error = try #require(throws: JSONError.self) { try long.value(as: Int.self) }
        #expect(error.message == "expected Int, found a string \"" + String(repeating: "あ", count: 40) + "…\"")
    }

    // MARK: - Literals and initializers

    @Test func literalsBuildTheMatchingCases() {
        let value: JSON = ["null": nil, "bool": false, "int": -7, "double": 2.5, "string": "s", "array": [1, "two"]]
        #expect(value["null"] == .null)
        #expect(value["bool"] == .bool(false))
        #expect(value["int"] == .number(JSON.Number(-7)))
        #expect(value["double"] == .number(JSON.Number(2.5)))
        #expect(value["string"] == .string("s"))
        #expect(value["array"] == .array([.number(JSON.Number(1)), .string("two")]))
        #expect(value.object?.keys == ["null", "bool", "int", "double", "string", "array"])

        #expect(JSON(Int(5)) == 5)
        #expect(JSON(Int64.min).int64 == Int64.min)
        #expect(JSON(UInt64.max).uint64 == UInt64.max)
        #expect(JSON(0.25) == 0.25)
        #expect(JSON("t") == "t")
        #expect(JSON(true) == true)
        #expect(JSON([JSON(1)]) == [1])
        #expect(JSON(JSON.Object()) == [:])
    }

    @Test func literalsEqualParsedValues() throws {
        let parsed = try JSON(parsing: #"{"a": [1, 2.5, "x", true, null, {}], "b": -3}"#)
        #expect(parsed == ["a": [1, 2.5, "x", true, nil, [:]], "b": -3])
    }

    // MARK: - Equality and hashing

    @Test func objectEqualityIsOrdered() throws {
        let ab = try JSON(parsing: #"{"a": 1, "b": 2}"#)
        let ba = try JSON(parsing: #"{"b": 2, "a": 1}"#)
        #expect(ab != ba)
        #expect(ab == ["a": 1, "b": 2])
        #expect(ab.hashValue == JSON(["a": 1, "b": 2] as JSON.Object).hashValue)
        #expect(Set([ab, ba, try JSON(parsing: #"{"a":1,"b":2}"#)]).count == 2)
    }

    @Test func equalityDistinguishesKindsAndValues() {
        #expect(JSON(1) != JSON(1.0))  // integer and floating point stay apart
        #expect(JSON(1) != JSON("1"))
        #expect(JSON(true) != JSON(1))
        #expect(JSON.null != JSON(""))
        #expect(JSON([1, 2]) != JSON([2, 1]))
        #expect(JSON([1, 2]) == [1, 2])
        #expect(JSON(UInt64(3)) == JSON(Int64(3)))
        let values: Set<JSON> = [1, 1.0, "1", true, nil, [1], ["1": 1], 1]
        #expect(values.count == 7)
    }

    @Test func objectsWithAndWithoutAnIndexCompareByMembers() {
        // Built by appending (gets a key index past the threshold) or from arrays: the same members are equal.
        let count = JSON.Object.indexThreshold + 10
        var appended = JSON.Object()
        for i in 0..<count { appended["k\(i)"] = JSON(i) }
        let built = JSON.Object(keys: (0..<count).map { "k\($0)" }, values: (0..<count).map { JSON($0) })
        #expect(appended == built)
        #expect(appended.hashValue == built.hashValue)
    }

    // MARK: - JSON.Object

    @Test func objectMutationKeepsOrder() {
        var object: JSON.Object = ["a": 1, "b": 2]
        object["a"] = 10  // replace in place
        object["c"] = 3  // append
        #expect(object.keys == ["a", "b", "c"])
        #expect(object.values == [10, 2, 3])
        object["b"] = nil  // remove
        #expect(object.keys == ["a", "c"])
        #expect(object["b"] == nil)
        object["missing"] = nil  // removing nothing is a no-op
        #expect(object.count == 2)
        #expect(object.position(of: "c") == 1)
        #expect(object.position(of: "zz") == nil)
        #expect(object[0].key == "a")
        #expect(object[0].value == 10)
        #expect(object.map(\.key) == ["a", "c"])
        #expect(object.startIndex == 0 && object.endIndex == 2)
    }

    @Test func repeatedKeysInASequenceKeepTheFirstPositionAndLastValue() {
        let object = JSON.Object([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object.values == [3, 2])
        let literal: JSON.Object = ["x": 1, "y": 2, "x": 5]
        #expect(literal.keys == ["x", "y"])
        #expect(literal["x"] == 5)
    }

    @Test func parsedDuplicatesAreAllKeptAndTheLastWins() {
        var object = JSON.Object(keys: ["a", "b", "a"], values: [1, 2, 3])
        #expect(object["a"] == 3)
        #expect(object.position(of: "a") == 2)
        object["a"] = 4  // updates the last
        #expect(object.values == [1, 2, 4])
        object["a"] = nil  // removes the last; the earlier one shows again
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 1)
    }

    /// Random sets, removals and appends across the index threshold agree with a plain list of members.
    @Test(arguments: [1, 2, 3, 4])
    func indexedLookupAgreesWithLinearLookup(_ seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var object = JSON.Object()
        var model: [(key: String, value: JSON)] = []
        let keys = (0..<(JSON.Object.indexThreshold * 2)).map { "key\($0)" }
        for step in 0..<3000 {
            let key = keys[Int(rng.next() % UInt64(keys.count))]
            // Mostly sets in the first half (growing past the threshold), mostly removals in the second.
            if rng.next() % 4 < (step < 1500 ? 1 : 3) {
                object[key] = nil
                if let i = model.lastIndex(where: { $0.key == key }) { model.remove(at: i) }
            } else {
                let value = JSON(step)
                object[key] = value
                if let i = model.lastIndex(where: { $0.key == key }) {
                    model[i].value = value
                } else {
                    model.append((key, value))
                }
            }
            #expect(object.keys == model.map(\.key))
            for probe in keys where rng.next() % 8 == 0 {
                let expected = model.lastIndex { $0.key == probe }
                #expect(object.position(of: probe) == expected, "\(probe) at step \(step)")
                #expect(object[probe] == expected.map { model[$0].value })
            }
        }
    }

    @Test func largeParsedObjectsWithDuplicatesAgreeWithLinearLookup() throws {
        for count in [JSON.Object.indexThreshold - 1, JSON.Object.indexThreshold, JSON.Object.indexThreshold + 1, 100] {
            let keys = (0..<count).map { "k\($0 % 17)" }
            let values = (0..<count).map { JSON($0) }
            let object = JSON.Object(keys: keys, values: values)
            for k in 0..<20 {
                let expected = keys.lastIndex(of: "k\(k)")
                #expect(object.position(of: "k\(k)") == expected, "k\(k) of \(count)")
                #expect(object["k\(k)"] == expected.map { values[$0] })
            }
            // Removing the last duplicate of each key uncovers the one before it.
            var shrinking = object
            shrinking["k0"] = nil
            let remaining = Array(keys.enumerated().filter { $0.offset != keys.lastIndex(of: "k0") })
            #expect(shrinking.keys == remaining.map(\.element))
            #expect(shrinking.position(of: "k0") == remaining.lastIndex { $0.element == "k0" })
        }
    }
}
