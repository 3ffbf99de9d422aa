import Testing

@testable import TetherJSON

/// Parsed objects with the same keys in the same order share one key array (the tree builder's shape cache); these
/// check that sharing never gives an object another object's keys, and that a shared array behaves as a value.
@Suite(.timeLimit(.minutes(5)))
struct ObjectShapeTests {
    /// `array` (the text of a JSON array) with a last element of filler, so the document is large enough for the
    /// cache (``JSONTreeBuilder/ShapeCache/minimumEntries``); the other elements keep their indices.
    private func padded(_ array: String) -> String {
        let zeros = Array(repeating: "0", count: JSONTreeBuilder.ShapeCache.minimumEntries)
        return String(array.dropLast()) + ", [\(zeros.joined(separator: ","))]]"
    }

    /// The address of an array's elements, to tell whether two arrays share storage.
    private func storage(_ keys: [String]) -> UnsafeRawPointer? {
        keys.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func objectsWithTheSameKeysShareOneKeyArray() throws {
        let json = try JSON(
            parsing: padded(#"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]"#))
        let keys = try (0..<3).map { try #require(json[$0].object?.keys) }
        #expect(keys.allSatisfy { $0 == ["id", "name"] })
        #expect(storage(keys[0]) == storage(keys[1]))
        #expect(storage(keys[0]) == storage(keys[2]))
        #expect(json[1]["name"] == "b")
    }

    @Test func aSmallDocumentIsBuiltWithoutTheCache() throws {
        let json = try JSON(parsing: #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#)
        #expect(json[0].object?.keys == ["id", "name"])
        #expect(json[1].object?.keys == ["id", "name"])
        #expect(json[1]["name"] == "b")
    }

    @Test func keysThatDifferOnlyInTheMiddleAreNotShared() throws {
        // Same count, same first key, same lengths of the second and last keys: the same cache set, different keys.
        let json = try JSON(
            parsing: padded(#"[{"ab": 1, "cd": 2, "ef": 3}, {"ab": 4, "cx": 5, "ef": 6}, {"ab": 7, "cd": 8, "ef": 9}]"#)
        )
        #expect(json[0].object?.keys == ["ab", "cd", "ef"])
        #expect(json[1].object?.keys == ["ab", "cx", "ef"])
        #expect(json[2].object?.keys == ["ab", "cd", "ef"])
        #expect(json[1]["cx"] == 5)
        #expect(json[1]["cd"] == nil)
    }

    @Test func keysThatDifferInTheirLastBytesAreNotShared() throws {
        let long = String(repeating: "k", count: 40)
        let text = #"[{"\#(long)a": 1, "z": 2}, {"\#(long)b": 3, "z": 4}, {"\#(long)a": 5, "z": 6}]"#
        let json = try JSON(parsing: padded(text))
        #expect(json[0].object?.keys == [long + "a", "z"])
        #expect(json[1].object?.keys == [long + "b", "z"])
        #expect(json[2].object?.keys == [long + "a", "z"])
    }

    @Test func escapedAndPlainSpellingsDecodeTheSame() throws {
        let json = try JSON(parsing: padded(#"[{"a": 1, "\u00e9": 2}, {"\u0061": 3, "é": 4}, {"a": 5, "é": 6}]"#))
        for element in 0..<3 {
            #expect(json[element].object?.keys == ["a", "é"], "element \(element)")
            #expect(json[element]["é"] == JSON(2 * element + 2))
        }
    }

    @Test func changingOneObjectsKeysLeavesTheOthersAlone() throws {
        let json = try JSON(parsing: padded(#"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#))
        var first = try #require(json[0].object)
        let second = try #require(json[1].object)
        first["extra"] = true
        first["id"] = nil
        #expect(first.keys == ["name", "extra"])
        #expect(second.keys == ["id", "name"])
        #expect(json[0].object?.keys == ["id", "name"])
    }

    @Test func nestedObjectsWithTheSameKeysKeepTheirOwnValues() throws {
        let json = try JSON(
            parsing: padded(#"[{"a": {"a": {"a": 1, "b": 2}, "b": 3}, "b": {"a": 4, "b": {"a": 5, "b": 6}}}]"#))[0]
        #expect(json["a"]["a"]["a"] == 1)
        #expect(json["a"]["a"]["b"] == 2)
        #expect(json["a"]["b"] == 3)
        #expect(json["b"]["a"] == 4)
        #expect(json["b"]["b"]["b"] == 6)
        #expect(json.object?.keys == ["a", "b"])
    }

    @Test func repeatedDuplicateKeysStayInOrder() throws {
        let json = try JSON(parsing: padded(#"[{"a": 1, "b": 2, "a": 3}, {"a": 4, "b": 5, "a": 6}]"#))
        #expect(json[1].object?.keys == ["a", "b", "a"])
        #expect(json[1]["a"] == 6)
    }

    @Test func largeRepeatedObjectsAreReadCorrectly() throws {
        // Above the shape cache's member limit and above JSON.Object.indexThreshold: keys are made one by one.
        let count = JSONTreeBuilder.ShapeCache.maximumCount + 5
        let object = "{" + (0..<count).map { #""k\#($0)": \#($0)"# }.joined(separator: ",") + "}"
        let json = try JSON(parsing: "[\(object), \(object)]")
        for element in 0..<2 {
            #expect(json[element].object?.count == count)
            #expect(json[element]["k\(count - 1)"] == JSON(count - 1))
            #expect(json[element].object?.keys.first == "k0")
        }
    }

    @Test func manyShapesOfOneCountPushEachOtherOutWithoutMixingUp() throws {
        // More shapes than the cache has slots, all with two members of the same lengths, in an order that brings
        // evicted shapes back.
        let shapes = (0..<600).map { i in ["k\(1000 + i)", "v\(1000 + (i * 7) % 600)"] }
        var elements: [String] = []
        var expected: [[String]] = []
        for e in 0..<2000 {
            let keys = shapes[(e * 131) % shapes.count]
            expected.append(keys)
            elements.append("{" + keys.enumerated().map { #""\#($1)": \#(e + $0)"# }.joined(separator: ",") + "}")
        }
        let json = try JSON(parsing: "[" + elements.joined(separator: ",") + "]")
        for e in 0..<2000 {
            #expect(json[e].object?.keys == expected[e], "element \(e)")
            #expect(json[e][expected[e][1]] == JSON(e + 1))
        }
    }
}
