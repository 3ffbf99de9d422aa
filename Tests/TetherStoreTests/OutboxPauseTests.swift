import Testing
import TetherSync

@testable import TetherStore

/// The background sender's pause policy, driven by seeded random sequences of passes and checked against what it
/// promises (``OutboxPause``).
@Suite struct OutboxPauseTests {
    @Test func backsOffOnlyWhileTheServerCannotBeReached() {
        var pause = OutboxPause(first: .seconds(1), longest: .seconds(60))
        let away = (1...8).map { _ in pause.wait(waiting: true, unreachable: true) }
        #expect(away == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        // Held by another sender: the first pause again, however long the pause had grown.
        #expect(pause.wait(waiting: true, unreachable: false) == .seconds(1))
        #expect(pause.wait(waiting: true, unreachable: true) == .seconds(1))
        #expect(pause.wait(waiting: false, unreachable: false) == nil)
        #expect(pause.wait(waiting: true, unreachable: true) == .seconds(1))
    }

    @Test(arguments: 1...50 as ClosedRange<UInt64>)
    func randomPassesKeepThePromises(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let first = Duration.milliseconds(Int.random(in: 1...2_000, using: &random))
        let longest = Duration.milliseconds(Int.random(in: 1...120_000, using: &random))
        var pause = OutboxPause(first: first, longest: longest)
        var unreachableRun = 0
        for step in 0..<500 {
            let waiting = Int.random(in: 0..<4, using: &random) > 0
            let unreachable = waiting && Bool.random(using: &random)
            let wait = pause.wait(waiting: waiting, unreachable: unreachable)
            unreachableRun = unreachable ? unreachableRun + 1 : 0
            let context: Comment = "seed \(seed), step \(step)"
            if !waiting {
                #expect(wait == nil, context)
            } else if !unreachable {
                // A write held elsewhere is looked at again after the first pause, whatever came before.
                #expect(wait == first, context)
            } else {
                // Consecutive passes with the server away: first, doubled each time, capped at the longest.
                var expected = first
                for _ in 1..<unreachableRun { expected = min(expected * 2, max(first, longest)) }
                #expect(wait == expected, context)
            }
            if let wait { #expect(wait <= max(first, longest), context) }
        }
    }
}
