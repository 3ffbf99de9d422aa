import Foundation
import Testing

@testable import TetherStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Outbox leases name their process so that another one can tell whether it still runs, even after its id was
/// reused.
@Suite struct LeaseOwnerTests {
    @Test func thisProcessIsRunning() throws {
        let me = LeaseOwner.current()
        #expect(me.hasPrefix("\(getpid())-"))
        #expect(!LeaseOwner.hasEnded(me))
        #expect(LeaseOwner.current() != me, "two connections of one process have different tags")
    }

    @Test func anEndedProcessHasEnded() async throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exit 0"]
        try child.run()
        child.waitUntilExit()
        let pid = child.processIdentifier
        #expect(LeaseOwner.hasEnded("\(pid)-deadbeef"))
        #expect(LeaseOwner.hasEnded("\(pid)-12345-deadbeef"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func aReusedProcessIDIsNotTheHolder() throws {
        let pid = getpid()
        let start = try #require(LeaseOwner.startTime(of: pid))
        // The same id with another start time: a process that ended and whose id this process now has.
        #expect(LeaseOwner.hasEnded("\(pid)-\(start + 1)-deadbeef"))
        #expect(!LeaseOwner.hasEnded("\(pid)-\(start)-deadbeef"))
        // The older form, without a start time, can only ask whether the id is in use.
        #expect(!LeaseOwner.hasEnded("\(pid)-deadbeef"))
    }

    @Test func unreadableOwnersCountAsRunning() {
        #expect(!LeaseOwner.hasEnded(""))
        #expect(!LeaseOwner.hasEnded("not-a-pid"))
        #expect(!LeaseOwner.hasEnded("0-1-2"))
    }
}
