import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTestSupport

/// Identical GETs in flight at once share one transfer to a real server; cancelling callers detach from it.
///
/// The server holds its answer until the test opens a gate, so the transfer stays in flight while the callers
/// join it. Joining happens without any network work, so a pause of a second after every caller has started is ample.
///
/// The limit is five minutes, not one: with the native transport the callers left behind by a first caller cancelled
/// while backing off keep waiting on the shared transfer, which honours the server's `Retry-After: 29` before it
/// asks again (``theFirstCallerCancelledWhileBackingOffHandsTheRequestOver()``: 29 s here alone, and over 60 s under
/// ThreadSanitizer with other tests beside it).
@Suite("Coalescing over sockets", .timeLimit(.minutes(5)))
struct CoalescingOverSocketsTests {
    /// A route that answers `{"n": <hit>}` once `gate` opens (only the first hit waits).
    static func held(by gate: Gate) -> Routes {
        { _, hit in
            if hit == 1 { await gate.wait() }
            return .json(text: #"{"n": \#(hit)}"#)
        }
    }

    /// Starts `count` identical sends in tasks and returns them once all have started and the server has the
    /// first request.
    func startSends(
        _ count: Int, of request: Request<JSON>, on client: HTTPClient, server: SocketTestServer
    ) async throws -> [Task<Result<Response<JSON>, HTTPError>, Never>] {
        let started = SocketCounter()
        let tasks = (0..<count).map { _ in
            Task { () -> Result<Response<JSON>, HTTPError> in
                started.increment()
                do throws(HTTPError) {
                    return .success(try await client.send(request))
                } catch {
                    return .failure(error)
                }
            }
        }
        #expect(await poll { started.value == count })
        #expect(await server.log.wait(for: 1, on: request.path))
        try await Task.sleep(for: .seconds(1))
        return tasks
    }

    /// Expects every task to end with a cancellation.
    func expectCancelled(_ tasks: [Task<Result<Response<JSON>, HTTPError>, Never>]) async {
        for task in tasks {
            guard case .failure(let error) = await task.value else {
                Issue.record("a cancelled caller got a response")
                continue
            }
            #expect(error.isCancellation, "\(error)")
        }
    }

    /// Expects a new GET of `/shared` to be the server's second request, not one joining an old transfer.
    func expectANewTransfer(on client: HTTPClient, server: SocketTestServer) async throws {
        let next = try await client.send(Request<JSON>(path: "/shared"))
        #expect(next.value["n"].int == 2)
        #expect(server.log.count("/shared") == 2)
    }

    @Test func aHundredIdenticalGETsMakeOneServerHit() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let tasks = try await startSends(100, of: Request<JSON>(path: "/shared"), on: client, server: server)
            gate.open()
            var values: [Int?] = []
            for task in tasks { values.append(try await task.value.get().value["n"].int) }
            #expect(values == Array(repeating: 1, count: 100))
            #expect(server.log.count("/shared") == 1)
        }
    }

    @Test func oneCallerCancellingDoesNotCancelTheOthers() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let tasks = try await startSends(3, of: Request<JSON>(path: "/shared"), on: client, server: server)
            tasks[0].cancel()
            await expectCancelled([tasks[0]])
            gate.open()
            for task in tasks.dropFirst() {
                #expect(try await task.value.get().value["n"].int == 1)
            }
            #expect(server.log.count("/shared") == 1)
        }
    }

    /// Starts one send in a task, which runs the transfer itself, and returns once the server has its request.
    func startFirst(
        _ request: Request<JSON>, on client: HTTPClient, server: SocketTestServer
    ) async -> Task<Result<Response<JSON>, HTTPError>, Never> {
        let task = Task { () -> Result<Response<JSON>, HTTPError> in
            do throws(HTTPError) {
                return .success(try await client.send(request))
            } catch {
                return .failure(error)
            }
        }
        #expect(await server.log.wait(for: 1, on: request.path))
        return task
    }

    @Test func theFirstCallerCancelledLeavesItsTransferToTheOthers() async throws {
        // The first caller runs the transfer in its own task; the others join it. Cancelling the first must not
        // cancel the transfer: the others get its answer, and the server sees one request.
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let first = await startFirst(Request<JSON>(path: "/shared"), on: client, server: server)
            let others = try await startSends(2, of: Request<JSON>(path: "/shared"), on: client, server: server)
            first.cancel()
            await expectCancelled([first])
            gate.open()
            for task in others {
                #expect(try await task.value.get().value["n"].int == 1)
            }
            #expect(server.log.count("/shared") == 1)
        }
    }

    @Test func aWaiterLeavingKeepsTheFirstCallersTransferOpenToOthers() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let first = await startFirst(Request<JSON>(path: "/shared"), on: client, server: server)
            let quitter = try await startSends(1, of: Request<JSON>(path: "/shared"), on: client, server: server)[0]
            quitter.cancel()
            await expectCancelled([quitter])
            // The first caller still runs the transfer, so a newcomer joins it rather than sending again.
            let late = try await startSends(1, of: Request<JSON>(path: "/shared"), on: client, server: server)[0]
            gate.open()
            #expect(try await first.value.get().value["n"].int == 1)
            #expect(try await late.value.get().value["n"].int == 1)
            #expect(server.log.count("/shared") == 1)
        }
    }

    @Test func theOthersLeavingAfterTheFirstCancelTheTransfer() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let first = await startFirst(Request<JSON>(path: "/shared"), on: client, server: server)
            let others = try await startSends(2, of: Request<JSON>(path: "/shared"), on: client, server: server)
            first.cancel()
            _ = await first.value
            for task in others { task.cancel() }
            await expectCancelled(others)
            // Nobody took the transfer over: the next caller starts its own.
            try await expectANewTransfer(on: client, server: server)
            gate.open()
        }
    }

    @Test func theFirstCallerCancelledWhileBackingOffHandsTheRequestOver() async throws {
        // Cancelled while it waits to retry, the first caller has no transfer to leave behind: the others get the
        // next answer. Over URLSession the first caller runs the work in its own task, and the request starts again
        // for the others at once; over the native transport the work runs in a task of its own, which waits out
        // the server's `Retry-After` for them before it asks again.
        let routes: Routes = { _, hit in
            hit == 1
                ? .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "29"])
                : .json(text: #"{"n": \#(hit)}"#)
        }
        try await withSocketServer(routes) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) { $0.monitors = [events] }
            let first = await startFirst(Request<JSON>(path: "/shared"), on: client, server: server)
            #expect(
                await events.wait { event in
                    if case .retrying = event { return true }
                    return false
                })
            let others = try await startSends(2, of: Request<JSON>(path: "/shared"), on: client, server: server)
            first.cancel()
            await expectCancelled([first])
            for task in others {
                #expect(try await task.value.get().value["n"].int == 2)
            }
            #expect(server.log.count("/shared") == 2)
        }
    }

    @Test func allCallersCancellingAbandonsTheTransfer() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let tasks = try await startSends(3, of: Request<JSON>(path: "/shared"), on: client, server: server)
            for task in tasks { task.cancel() }
            await expectCancelled(tasks)
            // The abandoned transfer is not joined: the next caller starts its own, which the server answers.
            try await expectANewTransfer(on: client, server: server)
            gate.open()
        }
    }

    @Test func requestsWithDifferentHeadersAreNotShared() async throws {
        let gate = Gate()
        let routes: Routes = { _, hit in
            if hit == 1 { await gate.wait() }
            return .json(text: #"{"n": \#(hit)}"#)
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let english = Task {
                try await client.send(Request<JSON>(path: "/page", headers: ["Accept-Language": "en"]))
            }
            #expect(await server.log.wait(for: 1, on: "/page"))
            let japanese = try await client.send(Request<JSON>(path: "/page", headers: ["Accept-Language": "ja"]))
            #expect(japanese.value["n"].int == 2)
            gate.open()
            #expect(try await english.value.value["n"].int == 1)
        }
    }

    @Test func postsAreNeverShared() async throws {
        let gate = Gate()
        let routes: Routes = { _, hit in
            if hit == 1 { await gate.wait() }
            return .json(text: #"{"n": \#(hit)}"#)
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let request = Request<JSON>(path: "/orders", method: .post)
            let first = Task { try await client.send(request) }
            #expect(await server.log.wait(for: 1, on: "/orders"))
            let second = try await client.send(request)
            #expect(second.value["n"].int == 2)
            gate.open()
            #expect(try await first.value.value["n"].int == 1)
        }
    }

    @Test func withCoalescingOffEveryGETGoesOut() async throws {
        let gate = Gate()
        try await withSocketServer(Self.held(by: gate)) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.coalescesRequests = false }
            let first = Task { try await client.send(Request<JSON>(path: "/shared")) }
            #expect(await server.log.wait(for: 1, on: "/shared"))
            let second = try await client.send(Request<JSON>(path: "/shared"))
            #expect(second.value["n"].int == 2)
            gate.open()
            #expect(try await first.value.value["n"].int == 1)
        }
    }
}
