import Testing
import TetherHTTP1

@testable import TetherServer

/// The event-loop server's per-connection machine, event by event, with no I/O; its invariants are checked after
/// every step.
@Suite("Server: the connection state machine")
struct ConnectionStateMachineTests {
    /// A machine and its history of actions, as words: `timer header`, `respond GET /a`, `fail 408`, `close`.
    struct Driver {
        var machine: ConnectionStateMachine
        var log: [String] = []
        /// Requests handed to the responders and not yet finished.
        var inFlight = 0

        init(limits: HTTPRequestParser.Limits = .init()) {
            let (machine, actions) = ConnectionStateMachine.accepted(limits: limits)
            self.machine = machine
            record(actions)
        }

        mutating func receive(_ text: String) {
            let actions = Array(text.utf8).withUnsafeBytes { machine.received($0) }
            record(actions)
        }

        mutating func finish(keepAlive: Bool = true) {
            inFlight -= 1
            record(machine.responseFinished(keepAlive: keepAlive))
        }

        mutating func fire() { record(machine.timerFired()) }

        mutating func drain() { record(machine.drain()) }

        /// The actions since the last call.
        mutating func take() -> [String] {
            defer { log = [] }
            return log
        }

        private mutating func record(_ actions: [ConnectionStateMachine.Action]) {
            for action in actions {
                switch action {
                case .sendContinue: log.append("continue")
                case .respond(let request):
                    inFlight += 1
                    log.append("respond \(request.method.rawValue) \(request.target)")
                case .fail(let status, _): log.append("fail \(status.code)")
                case .close: log.append("close")
                case .closeAfterResponse: log.append("close after response")
                case .startTimer(let timer?): log.append("timer \(timer)")
                case .startTimer(nil): log.append("no timer")
                case .pauseReading(let paused): log.append(paused ? "pause" : "resume")
                }
            }
            checkInvariants()
        }

        private func checkInvariants() {
            #expect(inFlight <= 1, "more than one request with the responders")
            #expect((machine.phase == .responding) == (inFlight == 1) || machine.phase == .closed)
            #expect(
                machine.hasRequestInProgress == (machine.phase == .receiving || machine.phase == .responding))
        }
    }

    static func get(_ path: String) -> String { "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n" }

    @Test func aFreshConnectionHasTheHeaderTimeoutAndClosesSilentlyAtIt() {
        var driver = Driver()
        #expect(driver.take() == ["timer header"])
        #expect(!driver.machine.hasRequestInProgress)
        driver.fire()
        #expect(driver.take() == ["close"])
        driver.receive(Self.get("/late"))
        #expect(driver.take().isEmpty)
    }

    @Test func aRequestGoesToTheRespondersThenTheConnectionIsIdle() {
        var driver = Driver()
        _ = driver.take()
        driver.receive(Self.get("/a"))
        #expect(driver.take() == ["timer header", "no timer", "respond GET /a"])
        #expect(driver.machine.hasRequestInProgress)
        driver.finish()
        #expect(driver.take() == ["timer idle"])
        #expect(driver.machine.phase == .idle && !driver.machine.hasRequestInProgress)
        driver.fire()
        #expect(driver.take() == ["close"])
    }

    @Test func pipelinedRequestsAreHandedOverOneAtATimeInOrder() {
        var driver = Driver()
        _ = driver.take()
        driver.receive(Self.get("/1") + Self.get("/2") + "GET /3 HTTP/1.1\r\nHo")
        #expect(driver.take() == ["timer header", "no timer", "respond GET /1"])
        driver.finish()
        #expect(driver.take() == ["no timer", "respond GET /2"])
        driver.finish()
        // The third has only begun: its header timeout runs.
        #expect(driver.take() == ["timer header"])
        driver.receive("st: x\r\n\r\n")
        #expect(driver.take() == ["no timer", "respond GET /3"])
    }

    @Test func aSlowRequestIsAnswered408AtTheHeaderTimeout() {
        var driver = Driver()
        _ = driver.take()
        driver.receive("GET /slow HTTP/1.1\r\n")
        #expect(driver.take() == ["timer header"])
        #expect(driver.machine.hasRequestInProgress)
        driver.fire()
        #expect(driver.take() == ["fail 408"])
    }

    @Test func aMalformedRequestFailsWithItsStatus() {
        var driver = Driver()
        _ = driver.take()
        driver.receive("NOT HTTP\r\n\r\n")
        #expect(driver.take() == ["timer header", "fail 400"])
        #expect(driver.machine.phase == .closed)
    }

    @Test func expectContinueSends100AndRestartsTheHeaderTimeout() {
        var driver = Driver()
        _ = driver.take()
        driver.receive("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(driver.take() == ["timer header", "continue", "timer header"])
        driver.receive("hi")
        #expect(driver.take() == ["no timer", "respond POST /e"])
    }

    @Test func aLastResponseClosesAfterItIsWritten() {
        var driver = Driver()
        driver.receive(Self.get("/a") + Self.get("/never"))
        _ = driver.take()
        driver.finish(keepAlive: false)
        #expect(driver.take() == ["close after response"])
        #expect(driver.machine.phase == .closed)
    }

    @Test func bytesPipelinedBeyondTheLimitPauseReadingUntilTheResponseIsDone() {
        var driver = Driver()
        driver.receive(Self.get("/a"))
        _ = driver.take()
        let chunk = String(repeating: Self.get("/more"), count: 1000)  // about 30 KB
        driver.receive(chunk)
        #expect(driver.take().isEmpty)
        driver.receive(chunk + chunk)
        #expect(driver.take() == ["pause"])
        driver.finish()
        #expect(driver.take() == ["resume", "no timer", "respond GET /more"])
    }

    @Test func drainingClosesAnIdleConnectionAtOnceAndABusyOneAfterItsResponse() {
        var idle = Driver()
        idle.drain()
        #expect(idle.take() == ["timer header", "close"])

        var busy = Driver()
        busy.receive(Self.get("/a") + Self.get("/b"))
        _ = busy.take()
        busy.drain()
        #expect(busy.take().isEmpty)
        busy.finish(keepAlive: true)
        #expect(busy.take() == ["close after response"])
    }

    @Test func aConnectionBeingAnsweredIsNotEvictedButClosesAfterItsResponse() {
        var driver = Driver()
        driver.receive(Self.get("/a"))
        _ = driver.take()
        driver.record(evict: ())
        #expect(driver.take().isEmpty)
        driver.finish()
        #expect(driver.take() == ["close after response"])
    }
}

extension ConnectionStateMachineTests.Driver {
    mutating func record(evict: Void) {
        let actions = machine.evict()
        #expect(actions.isEmpty || machine.phase == .closed)
    }
}
