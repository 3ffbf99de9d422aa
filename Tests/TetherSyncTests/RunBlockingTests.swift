import Foundation
import Testing
import TetherSync

/// `runBlocking` from a thread of its own (never from the pool, as its contract says).
@Suite struct RunBlockingTests {
    private struct Refused: Error, Equatable {
        let code: Int
    }

    /// Runs `body` on a new thread and hands back what it returned.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    @Test func returnsWhatTheTaskReturnedAfterItSuspends() async {
        let value = await onThread {
            runBlocking { () async -> Int in
                try? await Task.sleep(for: .milliseconds(5))
                return 42
            }
        }
        #expect(value == 42)
    }

    @Test func throwsWhatTheTaskThrewWithItsType() async {
        let result = await onThread { () -> Result<Int, Refused> in
            Result { () throws(Refused) -> Int in
                try runBlocking { () async throws(Refused) -> Int in throw Refused(code: 7) }
            }
        }
        #expect(result == .failure(Refused(code: 7)))
    }
}
