import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherTestSupport

@Suite struct CoalescingTests {
    @Test func concurrentIdenticalGetsShareOneTransfer() async throws {
        let stub = StubTransport { _ in StubResponse.json(#"{"id": 1, "title": "a"}"#).delayed(by: .milliseconds(100)) }
        let client = makeClient(stub)
        let results = await client.send(all: (0..<50).map { _ in Request<Note>(path: "/notes/1") })
        #expect(results.allSatisfy { (try? $0.get().value) == Note(id: 1, title: "a") })
        #expect(stub.requests.count == 1)
    }

    @Test func differentHeadersOrMethodsAreNotShared() async throws {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .milliseconds(50)) }
        let client = makeClient(stub)
        async let a = client.send(Request<Data>(path: "/x"))
        async let b = client.send(Request<Data>(path: "/x", headers: ["Accept-Language": "ja"]))
        async let c = client.send(Request<Data>(path: "/x", method: .delete))
        _ = try await (a, b, c)
        #expect(stub.requests.count == 3)
    }

    @Test func oneCallerCancellingDoesNotCancelTheOthers() async throws {
        // The answer waits for the gate, so the quitter is cancelled while the transfer is in flight however slow
        // the machine; the stayer's transfer is under way before the quitter asks.
        let gate = Gate()
        let stub = StubTransport { _ in
            await gate.wait()
            return StubResponse.json(#"{"id": 2, "title": "b"}"#)
        }
        let client = makeClient(stub)
        let stayer = Task { try await client.send(Request<Note>(path: "/notes/2")) }
        while stub.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let quitter = Task { try await client.send(Request<Note>(path: "/notes/2")) }
        try await Task.sleep(for: .milliseconds(20))
        quitter.cancel()
        let quitterResult = await quitter.result
        guard case .failure(let error as HTTPError) = quitterResult else {
            Issue.record("expected the cancelled caller to fail")
            return
        }
        #expect(error.isCancellation)
        gate.open()
        #expect(try await stayer.value.value == Note(id: 2, title: "b"))
        #expect(stub.requests.count == 1)
    }

    @Test func theLastCallerCancellingCancelsTheTransfer() async throws {
        let finished = Counter()
        let stub = StubTransport { _ in
            try await Task.sleep(for: .seconds(20))
            finished.increment()
            return .json("{}")
        }
        let client = makeClient(stub)
        let tasks = (0..<3).map { _ in Task { try await client.send(Request<Data>(path: "/slow")) } }
        while stub.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        for task in tasks { task.cancel() }
        for task in tasks {
            let result = await task.result
            guard case .failure(let error as HTTPError) = result else {
                Issue.record("expected cancellation")
                continue
            }
            #expect(error.isCancellation)
        }
        // The shared transfer saw the cancellation: a new request starts a new one.
        let stub2Requests = stub.requests.count
        let again = Task { try await client.send(Request<Data>(path: "/slow")) }
        while stub.requests.count == stub2Requests { try await Task.sleep(for: .milliseconds(5)) }
        again.cancel()
        _ = await again.result
        #expect(finished.count == 0)
        #expect(stub.requests.count == 2)
    }

    @Test func coalescingCanBeTurnedOff() async throws {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .milliseconds(50)) }
        let client = makeClient(stub) { $0.coalescesRequests = false }
        _ = await client.send(all: (0..<5).map { _ in Request<Data>(path: "/x") })
        #expect(stub.requests.count == 5)
    }
}
