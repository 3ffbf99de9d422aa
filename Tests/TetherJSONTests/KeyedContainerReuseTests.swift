import Foundation
import Testing

@testable import TetherJSON

/// The decoder and the encoder hand the same keyed container out again for the next object with the same keys once
/// nothing holds it (see `KeptKeyedContainers`); these check it never reads or writes the wrong object.
@Suite(.timeLimit(.minutes(5)))
struct KeyedContainerReuseTests {
    private struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
    }

    /// A type nested in itself: the outer object's container is in use while the inner one asks for the same keys.
    private struct Tree: Codable, Equatable {
        var name: String
        var children: [Tree]
        var size: Int
    }

    /// Reads its own members after decoding a child of its own type, with the container it asked for first.
    private struct ReadsAfterChild: Decodable {
        var child: Box?
        var value: Int

        final class Box: @unchecked Sendable {
            let value: ReadsAfterChild
            init(_ value: ReadsAfterChild) { self.value = value }
        }

        enum CodingKeys: String, CodingKey { case child, value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child = try container.decodeIfPresent(ReadsAfterChild.self, forKey: .child).map(Box.init)
            value = try container.decode(Int.self, forKey: .value)
        }
    }

    /// Asks for two containers over the same object and reads from both, alternating.
    private struct TwoContainers: Decodable, Equatable {
        var a: Int
        var b: String

        enum CodingKeys: String, CodingKey { case a, b }

        init(from decoder: any Decoder) throws {
            let first = try decoder.container(keyedBy: CodingKeys.self)
            let second = try decoder.container(keyedBy: CodingKeys.self)
            a = try second.decode(Int.self, forKey: .a)
            b = try first.decode(String.self, forKey: .b)
        }
    }

    @Test func elementsOfAnArrayEachReadTheirOwnObject() throws {
        let items = (0..<50).map { #"{"id": \#($0), "name": "n\#($0)", "tags": ["t\#($0)", "u"]}"# }
        let decoded = try TetherJSONDecoder().decode([Item].self, from: Data("[\(items.joined(separator: ","))]".utf8))
        #expect(decoded == (0..<50).map { Item(id: $0, name: "n\($0)", tags: ["t\($0)", "u"]) })
    }

    @Test func aTypeNestedInItselfReadsEveryLevel() throws {
        let text = #"""
            {"name": "root", "size": 1, "children": [
                {"name": "a", "size": 2, "children": [{"name": "a1", "size": 3, "children": []}]},
                {"name": "b", "size": 4, "children": []},
                {"name": "c", "size": 5, "children": [
                    {"name": "c1", "size": 6, "children": [{"name": "c11", "size": 7, "children": []}]}]}
            ]}
            """#
        let tree = try TetherJSONDecoder().decode(Tree.self, from: Data(text.utf8))
        let foundation = try JSONDecoder().decode(Tree.self, from: Data(text.utf8))
        #expect(tree == foundation)
        #expect(tree.children[2].children[0].children[0].name == "c11")
        #expect(tree.children[1].size == 4)
    }

    @Test func aContainerStillInUseIsNotHandedOut() throws {
        let text = #"[{"child": {"value": 1}, "value": 2}, {"child": {"child": {"value": 3}, "value": 4}, "value": 5}]"#
        let decoded = try TetherJSONDecoder().decode([ReadsAfterChild].self, from: Data(text.utf8))
        #expect(decoded.map(\.value) == [2, 5])
        #expect(decoded[0].child?.value.value == 1)
        #expect(decoded[1].child?.value.value == 4)
        #expect(decoded[1].child?.value.child?.value.value == 3)
    }

    @Test func twoContainersOverOneObjectBothRead() throws {
        let text = #"[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"a": 3, "b": "z"}]"#
        let decoded = try TetherJSONDecoder().decode([TwoContainers].self, from: Data(text.utf8))
        #expect(decoded.map(\.a) == [1, 2, 3])
        #expect(decoded.map(\.b) == ["x", "y", "z"])
    }

    @Test func errorsNameThePathOfTheObjectBeingRead() throws {
        let text = #"[{"id": 1, "name": "a", "tags": []}, {"id": 2, "name": 7, "tags": []}]"#
        #expect {
            try TetherJSONDecoder().decode([Item].self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 1", "name"]
        }
    }

    // MARK: - Encoding

    /// Encodes its members with the container it asked for first, after encoding a child of its own type.
    private struct WritesAfterChild: Encodable {
        var child: [WritesAfterChild]
        var value: Int

        enum CodingKeys: String, CodingKey { case child, value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(child, forKey: .child)
            try container.encode(value, forKey: .value)
        }
    }

    @Test func encodedElementsAndNestedTypesMatchFoundation() throws {
        let items = (0..<30).map { Item(id: $0, name: "n\($0)", tags: ["t\($0)"]) }
        let tree = Tree(
            name: "root",
            children: [
                Tree(name: "a", children: [Tree(name: "a1", children: [], size: 3)], size: 2),
                Tree(name: "b", children: [], size: 4),
            ], size: 1)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        var tether = TetherJSONEncoder()
        tether.outputFormatting = [.sortedKeys]
        #expect(try tether.encode(items) == foundation.encode(items))
        #expect(try tether.encode(tree) == foundation.encode(tree))
        #expect(try TetherJSONDecoder().decode(Tree.self, from: tether.encode(tree)) == tree)
    }

    @Test func aContainerStillWritingIsNotHandedOut() throws {
        let value = WritesAfterChild(
            child: [WritesAfterChild(child: [WritesAfterChild(child: [], value: 1)], value: 2)], value: 3)
        let text = String(decoding: try TetherJSONEncoder().encode([value, value]), as: UTF8.self)
        let one = #"{"child":[{"child":[{"child":[],"value":1}],"value":2}],"value":3}"#
        #expect(text == "[\(one),\(one)]")
    }

    // MARK: - The store

    @Test func keptContainersStopAtTheirCapacity() {
        final class Box {}
        let kept = KeptKeyedContainers<KeyedTapeCursor>()
        defer { kept.deallocate() }
        let node = CodingPathNode.root(
            DecodingState(
                tape: Tape(bytes: UnsafeBufferPointer(start: nil, count: 0), entries: .init(start: nil, count: 0)),
                configuration: TetherJSONDecoder()))
        // Distinct key types: the metatypes of distinct array types.
        var types: [Any.Type] = [Int.self]
        while types.count < KeptKeyedContainers<KeyedTapeCursor>.capacity + 4 {
            types.append(makeArrayType(types.last!))
        }
        for type in types where kept.hasRoom {
            kept.keep(
                Box(), cursor: KeyedTapeCursor(node: node, object: 0, keyTexts: nil), keyTexts: KeyTexts(),
                for: ObjectIdentifier(type))
        }
        #expect(!kept.hasRoom)
        for (i, type) in types.enumerated() {
            var keyTexts: KeyTexts?
            let box = kept.reusableBox(for: ObjectIdentifier(type), keyTexts: &keyTexts) { $0.move(to: 7, node: node) }
            let isKept = keyTexts != nil
            #expect(isKept == (i < KeptKeyedContainers<KeyedTapeCursor>.capacity), "type \(i)")
            // Handed out only if kept (and, in an optimized build, unreferenced elsewhere).
            #expect(box == nil || isKept, "type \(i)")
        }
    }

    /// `[T].self` for a type only known at run time.
    private func makeArrayType(_ element: Any.Type) -> Any.Type {
        func array<T>(_: T.Type) -> Any.Type { [T].self }
        return _openExistential(element, do: array)
    }
}
