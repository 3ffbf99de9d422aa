import Foundation
import Testing
import TetherJSON

/// The decoders the models must work with: TetherJSON's and Foundation's (the lossy helpers they are built on
/// promise any `Decoder`).
enum FixtureDecoder: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case tether
    case foundation

    var testDescription: String { rawValue }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch self {
        case .tether: try TetherJSONDecoder().decode(type, from: data)
        case .foundation: try JSONDecoder().decode(type, from: data)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Data(text.utf8))
    }
}
