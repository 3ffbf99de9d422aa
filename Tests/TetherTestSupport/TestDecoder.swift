package import Foundation
import TetherJSON

/// The JSON decoders a `Decodable` type is tested with, for `@Test(arguments: TestDecoder.allCases)`: Foundation's
/// `JSONDecoder` and `TetherJSONDecoder`.
///
/// TetherJSON's lossy types, and the models built on them, promise to work with any `Decoder`; running each test
/// against both holds them to it.
package enum TestDecoder: String, CaseIterable, Sendable {
    case foundation
    case tether

    /// Decodes `type` from `data` with this decoder.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch self {
        case .foundation: try JSONDecoder().decode(type, from: data)
        case .tether: try TetherJSONDecoder().decode(type, from: data)
        }
    }

    /// Decodes `type` from the UTF-8 of `text` with this decoder.
    package func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Data(text.utf8))
    }
}
