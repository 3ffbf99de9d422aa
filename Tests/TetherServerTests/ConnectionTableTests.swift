import Testing
import TetherHTTP1

@testable import TetherServer

/// The event-loop server's table of connections: who is closed to make room at the limit.
@Suite("Server: the connection table")
struct ConnectionTableTests {
    private func admittedID<Handle>(_ admission: ConnectionTable<Handle>.Admission) -> Int? {
        if case .admitted(let id, _) = admission { return id }
        return nil
    }

    @Test func atTheLimitTheConnectionIdleLongestMakesRoom() throws {
        var table = ConnectionTable<String>()
        let a = try #require(admittedID(table.admit("a", maximum: 3)))
        let b = try #require(admittedID(table.admit("b", maximum: 3)))
        _ = try #require(admittedID(table.admit("c", maximum: 3)))
        // a is busy, then b; a becomes idle again after b went busy, so c (idle since it arrived) is the oldest idle.
        table.markBusy(a)
        table.markBusy(b)
        table.markIdle(a)
        guard case .admitted(_, let evicted) = table.admit("d", maximum: 3) else {
            Issue.record("refused")
            return
        }
        #expect(evicted == "c")
        #expect(table.count == 3)
        guard case .admitted(_, let next) = table.admit("e", maximum: 3) else {
            Issue.record("refused")
            return
        }
        #expect(next == "a")
    }

    @Test func whenEveryConnectionIsBusyTheNewOneIsRefused() throws {
        var table = ConnectionTable<String>()
        let a = try #require(admittedID(table.admit("a", maximum: 2)))
        let b = try #require(admittedID(table.admit("b", maximum: 2)))
        table.markBusy(a)
        table.markBusy(b)
        guard case .refused = table.admit("c", maximum: 2) else {
            Issue.record("admitted over the limit with every connection busy")
            return
        }
        table.remove(a)
        #expect(admittedID(table.admit("c", maximum: 2)) != nil)
    }

    @Test func aDrainingTableAdmitsNothingAndNamesEveryConnection() {
        var table = ConnectionTable<String>()
        _ = table.admit("a", maximum: 10)
        _ = table.admit("b", maximum: 10)
        #expect(Set(table.drain()) == ["a", "b"])
        guard case .refused = table.admit("c", maximum: 10) else {
            Issue.record("admitted while draining")
            return
        }
    }

    @Test func manyIdleBusyTurnsKeepTheOrderAndTheQueueSmall() throws {
        var table = ConnectionTable<Int>()
        var ids: [Int] = []
        for handle in 0..<100 { ids.append(try #require(admittedID(table.admit(handle, maximum: 100)))) }
        // Every connection goes busy and idle many times, in order; the last to go idle is the youngest.
        for _ in 0..<200 {
            for id in ids {
                table.markBusy(id)
                table.markIdle(id)
            }
        }
        #expect(table.takeOldestIdle() == 0)
        #expect(table.takeOldestIdle() == 1)
        #expect(table.count == 98)
    }
}

/// The cheap screening responders use before decoding a target.
@Suite("Server: screening a request's target")
struct TargetScreeningTests {
    @Test(arguments: [
        ("/images/item-1", "images", true), ("//images/item-1", "images", true), ("/posts/1", "images", false),
        ("/%69mages/item-1", "images", true), ("/posts?_page=1", "/api/", false),
        ("/services/api/IchibaItem/Search/20220601", "/api/", true), ("/im", "images", false), ("", "images", false),
    ])
    func aTargetIsPassedOnOnlyWhenItCannotNameTheRoute(target: String, word: String, expected: Bool) {
        let request = HTTPRequest(method: .get, target: target)
        let result =
            word == "images" ? request.targetMayContain("images") : request.targetMayContain("/api/")
        #expect(result == expected)
    }
}
