internal import Foundation
internal import TetherJSON

/// The one place the bench calls `TetherJSONDecoder`.
///
/// Turn the contender off (while the decoder is a stub, say) by setting ``isEnabled`` to `false`: its lines then
/// read `n/a` and the summary FAILs. Even when enabled, the json area first decodes small inputs with it in a
/// child process (`tether-bench _probe`), so a decoder that crashes or decodes wrongly is reported as
/// unavailable instead of taking the whole run down.
enum TetherDecoderContender {
    static let isEnabled = true

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard isEnabled else { throw Unavailable(description: "the TetherJSONDecoder contender is switched off") }
        return try TetherJSONDecoder().decode(type, from: data)
    }
}
