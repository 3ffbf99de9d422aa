import Foundation
import Testing

@testable import TetherJSON

/// Arrays of scalars take a path of their own in the decoder; it must give what the general path gives, values
/// and errors alike.
@Suite struct DecoderArrayTests {
    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try TetherJSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test func scalarArraysMatchFoundation() throws {
        let doubles = "[1, -2.5, 1e300, 18446744073709551615, -0, 0.1, 12345678901234567890123]"
        #expect(try decode([Double].self, doubles) == JSONDecoder().decode([Double].self, from: Data(doubles.utf8)))
        let ints = "[1, -2, 3.0, 1e2, 9223372036854775807]"
        #expect(try decode([Int].self, ints) == JSONDecoder().decode([Int].self, from: Data(ints.utf8)))
        let strings = #"["a", "é\n", "\u00e9", "", "緑茶/\/"]"#
        #expect(try decode([String].self, strings) == JSONDecoder().decode([String].self, from: Data(strings.utf8)))
        #expect(try decode([[Double]].self, "[[1,2],[],[3.5]]") == [[1, 2], [], [3.5]])
    }

    /// Empty arrays decoded on many threads at once: each is its own empty value (the shared empty storage is
    /// never written; a `--sanitize=thread` run reports it if it is).
    @Test func emptyAndFullScalarArraysDecodeOnManyThreadsAtOnce() async throws {
        struct Lists: Decodable, Equatable {
            var doubles: [Double]
            var ints: [Int]
            var strings: [String]
        }
        let text = #"{"doubles": [], "ints": [], "strings": ["a"]}"#
        let results = try await withThrowingTaskGroup(of: [Lists].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try (0..<200).map { _ in try TetherJSONDecoder().decode(Lists.self, from: Data(text.utf8)) }
                }
            }
            return try await group.reduce(into: [Lists]()) { $0 += $1 }
        }
        #expect(results.count == 1_600)
        #expect(results.allSatisfy { $0 == Lists(doubles: [], ints: [], strings: ["a"]) })
    }

    @Test func elementErrorsKeepTheirPath() throws {
        struct Holder: Decodable { var values: [Int] }
        for (text, index) in [
            (#"{"values": [1, "2"]}"#, 1), (#"{"values": [1, 2, 3.5]}"#, 2), (#"{"values": [null]}"#, 0),
        ] {
            #expect {
                try decode(Holder.self, text)
            } throws: { error in
                guard let error = error as? DecodingError else { return false }
                let path: [any CodingKey]
                switch error {
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                    path = context.codingPath
                default: return false
                }
                return path.map(\.stringValue) == ["values", "Index \(index)"]
            }
        }
        #expect(throws: DecodingError.self) { try decode([Double].self, #"[1, "x"]"#) }
        #expect(throws: DecodingError.self) { try decode([String].self, "[1]") }
        #expect(throws: DecodingError.self) { try decode([Int].self, "{}") }
    }
}
