import Testing

@testable import TetherStore

/// The store's one waiting primitive: set once, awaited by many, with or without a deadline, ended by cancellation.
@Suite(.timeLimit(.minutes(1))) struct LatchTests {
    @Test func aValueSetBeforeOrAfterTheWaitReachesEveryWaiterAndTheFirstSetWins() async {
        let latch = Latch<Int>()
        #expect(!latch.isSet)
        let early = Task { await latch.value() }
        let bounded = Task { await latch.value(within: .seconds(600)) }
        latch.set(1)
        latch.set(2)
        #expect(latch.isSet)
        #expect(await early.value == 1)
        #expect(await bounded.value == 1)
        #expect(await latch.value() == 1)
        #expect(await latch.value(within: .zero) == 1)
    }

    @Test func aBoundedWaitEndsWithNothingWhenItsTimeRunsOut() async {
        let latch = Latch<Void>()
        #expect(await latch.value(within: .milliseconds(1)) == nil)
        // Set afterwards, the value is there for the next waiter.
        latch.set(())
        #expect(await latch.value(within: .milliseconds(1)) != nil)
    }

    @Test func aCancelledBoundedWaitEndsWithNothing() async {
        let latch = Latch<String>()
        let waiter = Task { await latch.value(within: nil) }
        waiter.cancel()
        #expect(await waiter.value == nil)
        // A waiter cancelled before it waits ends at once too.
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await latch.value(within: nil)
        }
        #expect(await cancelledFirst.value == nil)
        latch.set("later")
        #expect(await latch.value() == "later")
    }

    @Test func anOptionalValueOfNilCountsAsSet() async {
        let latch = Latch<Int?>()
        let waiter = Task { await latch.value() }
        latch.set(nil)
        #expect(await waiter.value == nil)
        #expect(latch.isSet)
        let bounded = await latch.value(within: .seconds(1))
        #expect(bounded == .some(nil))
    }

    @Test func manyWaitersWithDeadlinesAndSetsFromOtherThreadsAllEnd() async {
        for round in 0..<50 {
            let latch = Latch<Int>()
            await withTaskGroup(of: Int?.self) { group in
                for index in 0..<20 {
                    group.addTask { await latch.value(within: index.isMultiple(of: 2) ? .microseconds(50) : nil) }
                }
                group.addTask {
                    latch.set(round)
                    return round
                }
                var ended = 0
                for await value in group {
                    ended += 1
                    if let value { #expect(value == round) }
                }
                #expect(ended == 21)
            }
        }
    }
}
