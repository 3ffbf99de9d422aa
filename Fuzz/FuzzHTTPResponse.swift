// libFuzzer entry point for TetherHTTP1's client side: parse arbitrary bytes as the responses to a few requests,
// whole and split, then close the connection; and write requests built from what was parsed.
//
// Built by `Scripts/fuzz.sh http-response` together with every file in Sources/TetherHTTP1, as one module. Any broken
// invariant ends in `fatalError`, which libFuzzer reports as a crash and saves the input. Checked:
// - Fed whole, split at a point the input picks, in pieces of a size it picks, and (for small inputs) a byte at a
//   time, the parser yields the same events (body bytes joined) and then the same error, or none.
// - Events come in order: interim heads, one head, body bytes, one end; never an empty body event.
// - An error's status is 502 or 413; a failed parser keeps throwing the same error.
// - A request serialized from parsed fields parses back with the same method, target, fields and body.

/// The events of a run, with body events joined, so that any split compares equal.
enum Step: Equatable {
    case informational(Int)
    case head(HTTPResponseHead)
    case body([UInt8])
    case end(HTTPHeaders)
}

struct Outcome: Equatable {
    var steps: [Step] = []
    var error: HTTP1Error?
}

func fail(_ message: String) -> Never {
    fatalError("fuzz-http-response: \(message)")
}

let limits = HTTPResponseParser.Limits(maximumStatusLineLength: 64, maximumHeaderBytes: 160, maximumBodyBytes: 256)
/// The requests the responses answer: a HEAD among them, so bodiless framing is reached too.
let methods: [HTTPMethod] = [.get, .head, .post, .get]

func run(_ pieces: [UnsafeBufferPointer<UInt8>]) -> Outcome {
    var parser = HTTPResponseParser(limits: limits)
    for method in methods { parser.expectResponse(to: method) }
    var outcome = Outcome()
    var inResponse = false
    func take(_ event: HTTPResponseParser.Event) {
        switch event {
        case .informational(let head):
            if inResponse { fail("an interim response inside a response") }
            if !(100..<200).contains(head.status.code) { fail("an interim response that is not 1xx") }
            outcome.steps.append(.informational(head.status.code))
        case .head(let head):
            if inResponse { fail("a head inside a response") }
            inResponse = true
            outcome.steps.append(.head(head))
        case .body(let bytes):
            if !inResponse { fail("a body outside a response") }
            if bytes.isEmpty { fail("an empty body event") }
            if case .body(let earlier) = outcome.steps.last {
                outcome.steps[outcome.steps.count - 1] = .body(earlier + bytes)
            } else {
                outcome.steps.append(.body(bytes))
            }
        case .end(let trailers):
            if !inResponse { fail("an end outside a response") }
            inResponse = false
            outcome.steps.append(.end(trailers))
        }
    }
    do {
        for piece in pieces {
            parser.append(piece)
            while let event = try parser.next() { take(event) }
        }
        if let event = try parser.finish() { take(event) }
    } catch {
        outcome.error = error
        if error.status.code != 502 && error.status.code != 413 { fail("undocumented status \(error.status)") }
        do {
            _ = try parser.next()
            fail("a failed parser returned normally")
        } catch {
            if error != outcome.error { fail("a failed parser threw another error") }
        }
        if parser.isIdle || parser.isReusable { fail("a failed parser is idle or reusable") }
    }
    return outcome
}

/// Writes a request carrying the parsed fields and checks that the request parser reads it back the same.
func checkRequest(from head: HTTPResponseHead, body: [UInt8]) {
    var headers = HTTPHeaders([("Host", "fuzz")])
    for (name, value) in head.headers where !name.caseInsensitiveEquals("Host") {
        headers.add(name, value)
    }
    let request = HTTPRequest(method: .post, target: "/r", headers: headers, body: body)
    var parser = HTTPRequestParser(limits: HTTPRequestParser.Limits())
    parser.append(HTTPRequestSerializer.serialize(request))
    let parsed: HTTPRequest?
    do {
        parsed = try parser.nextRequest()
    } catch {
        fail("a serialized request fails to parse: \(error)")
    }
    guard let parsed else { fail("a serialized request is incomplete") }
    var expected = headers
    expected.remove("Content-Length")
    expected.remove("Transfer-Encoding")
    var got = parsed.headers
    got.remove("Content-Length")
    if got != expected || parsed.body != body || parsed.target != "/r" { fail("a serialized request differs") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)

    let whole = outcomeAgreeingOverSplits(bytes, run: run, fail: fail)

    var head: HTTPResponseHead?
    for step in whole.steps {
        switch step {
        case .head(let parsed): head = parsed
        case .body(let body): if let head { checkRequest(from: head, body: body) }
        default: break
        }
    }
    return 0
}
