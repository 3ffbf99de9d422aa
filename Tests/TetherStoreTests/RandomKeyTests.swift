import Foundation
import Testing

@testable import TetherStore

@Suite struct RandomKeyTests {
    @Test func keysAreVersion4UUIDsInLowercase() throws {
        for _ in 0..<200 {
            let key = RandomKey.uuid()
            let parsed = try #require(UUID(uuidString: key), "\(key) is not a UUID")
            #expect(parsed.uuidString.lowercased() == key)
            let characters = Array(key)
            #expect(characters.count == 36)
            #expect(characters[14] == "4", "version nibble of \(key)")
            #expect("89ab".contains(characters[19]), "variant of \(key)")
        }
    }

    @Test func keysDoNotRepeat() {
        let keys = Set((0..<10_000).map { _ in RandomKey.uuid() })
        #expect(keys.count == 10_000)
    }

    /// Keys come from a shared pool of random bytes: callers on many threads at once, across many refills, still
    /// never get the same key, and the keys are not all alike (each hex digit position takes several values).
    @Test func keysFromManyThreadsAtOnceDoNotRepeat() async {
        let keys = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<2_000).map { _ in RandomKey.uuid() } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(keys.count == 16_000)
        #expect(Set(keys).count == 16_000)
        for position in [0, 9, 24, 35] {
            let values = Set(keys.prefix(500).map { Array($0)[position] })
            #expect(values.count >= 10, "position \(position) took only \(values.sorted())")
        }
    }

    /// The kept answer agrees with Foundation's on the main actor and off it, asked once or twice per thread. (The
    /// test runner may run the main actor off the process's first thread, so the answer there is Foundation's.)
    @Test func mainThreadAgreesWithFoundation() async {
        #expect(await MainActor.run { MainThread.isCurrent == Thread.isMainThread })
        #expect(await Task.detached { MainThread.isCurrent }.value == false)
        #expect(await Task.detached { MainThread.isCurrent == MainThread.isCurrent }.value)
        let onThread = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: (MainThread.isCurrent, MainThread.isCurrent)) }
        }
        #expect(onThread == (false, false))
    }

    @Test func typeNamesAreStableAndDistinct() {
        struct Local {}
        let first = EntityStore.typeName(Local.self)
        #expect(EntityStore.typeName(Local.self) == first)
        #expect(first == String(reflecting: Local.self))
        #expect(EntityStore.typeName(Int.self) == "Swift.Int")
    }
}
