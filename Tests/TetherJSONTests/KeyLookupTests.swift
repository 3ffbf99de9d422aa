import Foundation
import Testing

@testable import TetherJSON

/// Finding members: in document order from a hint, by scanning for members an object leaves out, and through a key
/// table once an object keeps missing keys (``KeyTable/missLimit``) or is read out of order.
@Suite(.timeLimit(.minutes(5)))
struct KeyLookupTests {
    /// Twenty members, the odd ones optional.
    private struct Wide: Codable, Equatable {
        var m0: Int, m1: Int?, m2: Int, m3: Int?, m4: Int, m5: Int?, m6: Int, m7: Int?, m8: Int, m9: Int?
        var m10: Int, m11: Int?, m12: Int, m13: Int?, m14: Int, m15: Int?, m16: Int, m17: Int?, m18: Int, m19: Int?
    }

    /// Objects leaving out 0 to 10 optional members, in document order and reversed: below, at and above the miss
    /// limit, decoded as Foundation decodes them.
    @Test(arguments: [false, true])
    func objectsLeavingOutMembersDecodeAsFoundationDoes(reversed: Bool) throws {
        var objects: [String] = []
        for left in 0...10 {
            var members = (0..<20).filter { $0.isMultiple(of: 2) || $0 / 2 >= left }.map { #""m\#($0)": \#($0 * 3)"# }
            if reversed { members.reverse() }
            objects.append("{" + members.joined(separator: ", ") + "}")
        }
        let text = Data("[\(objects.joined(separator: ", "))]".utf8)
        let ours = try TetherJSONDecoder().decode([Wide].self, from: text)
        let foundation = try JSONDecoder().decode([Wide].self, from: text)
        #expect(ours == foundation)
        #expect(ours[10].m1 == nil && ours[10].m19 == nil && ours[10].m18 == 54)
        #expect(ours[3].m5 == nil && ours[3].m7 == 21)
    }
}
