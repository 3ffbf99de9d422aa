// libFuzzer entry point for TetherHTTP1: parse arbitrary bytes as pipelined requests, whole and split, and write
// what was parsed back out.
//
// Built by `Scripts/fuzz.sh http` together with every file in Sources/TetherHTTP1, as one module, so the library's
// internals are instrumented too. Any broken invariant ends in `fatalError`, which libFuzzer reports as a crash
// and saves the input. Checked:
// - Fed whole, split at a point the input picks (its first byte), in pieces of a size it picks (its second), and
//   (for small inputs) a byte at a time, the parser yields the same requests and then the same error, or none.
// - An error's status is one the parser documents; a failed parser keeps throwing the same error.
// - Each parsed request, written back out as a request, parses to the same request.
// - A response built from parsed data serializes to a head with CRLF only at line ends and valid field lines.

/// What a parser made of some bytes: the requests in order, then the error it stopped with, if any.
struct Outcome: Equatable {
    var requests: [Parsed] = []
    var error: HTTP1Error?
    var idle = true
}

/// An ``HTTPRequest`` as comparable values.
struct Parsed: Equatable {
    var method: String
    var target: String
    var version: HTTPVersion
    var headers: HTTPHeaders
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        target = request.target
        version = request.version
        headers = request.headers
        body = request.body
    }
}

func fail(_ message: String) -> Never {
    fatalError("fuzz-http: \(message)")
}

/// Small limits, so that inputs of a few hundred bytes (fed a byte at a time too) reach every one.
let limits = HTTPRequestParser.Limits(maximumRequestLineLength: 64, maximumHeaderBytes: 160, maximumBodyBytes: 256)
let documentedStatuses: Set<Int> = [400, 413, 414, 431, 501, 505]

/// Feeds `pieces` in turn, taking requests out after each.
func run(_ pieces: [UnsafeBufferPointer<UInt8>]) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    feeding: for piece in pieces {
        parser.append(piece)
        do {
            while let request = try parser.nextRequest() { outcome.requests.append(Parsed(request)) }
        } catch {
            outcome.error = error
            break feeding
        }
    }
    if let error = outcome.error {
        if !documentedStatuses.contains(error.status.code) { fail("undocumented status \(error.status)") }
        do {
            _ = try parser.nextRequest()
            fail("a failed parser returned normally")
        } catch {
            if error != outcome.error { fail("a failed parser threw another error") }
        }
        if parser.failure != outcome.error { fail("failure differs from the thrown error") }
        if parser.isIdle { fail("a failed parser is idle") }
    } else {
        outcome.idle = parser.isIdle
    }
    return outcome
}

/// `request` as bytes, framed by Content-Length whatever framed it before.
func write(_ request: HTTPRequest) -> [UInt8] {
    var out = Array("\(request.method.rawValue) \(request.target) \(request.version)\r\n".utf8)
    for (name, value) in request.headers {
        if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding") {
            continue
        }
        out += Array("\(name): \(value)\r\n".utf8)
    }
    if !request.body.isEmpty { out += Array("Content-Length: \(request.body.count)\r\n".utf8) }
    out += Array("\r\n".utf8)
    return out + request.body
}

/// Re-parses a request written back out.
func checkRoundTrip(_ request: HTTPRequest) {
    var parser = HTTPRequestParser(limits: HTTPRequestParser.Limits())
    parser.append(write(request))
    let again: HTTPRequest?
    do {
        again = try parser.nextRequest()
    } catch {
        fail("a written request fails to parse: \(error)")
    }
    guard let again else { fail("a written request is incomplete") }
    if !parser.isIdle { fail("bytes left after a written request") }
    var expected = request.headers
    expected.remove("Content-Length")
    expected.remove("Transfer-Encoding")
    var got = again.headers
    got.remove("Content-Length")
    if again.method != request.method || again.target != request.target || again.version != request.version
        || got != expected || again.body != request.body
    {
        fail("a written request parses differently")
    }
    if again.keepAlive != request.keepAlive { fail("keepAlive differs") }
}

/// Serializes a response carrying parsed data and checks the head's shape.
func checkResponse(from request: HTTPRequest) {
    var headers = request.headers
    headers.add("X-Target", request.target)
    headers.add("X-Body", String(decoding: request.body, as: UTF8.self))
    let code = 100 + (request.body.count * 7 + request.headers.count) % 500
    let response = HTTPResponse(status: HTTPStatus(code: code, reason: request.method.rawValue), headers: headers)
    let bodyLength: Int? = request.body.count % 2 == 0 ? request.body.count : nil
    let head = HTTPResponseSerializer.head(
        of: response, bodyLength: bodyLength, version: request.version, keepAlive: request.keepAlive)
    guard head.count >= 4, head.suffix(4).elementsEqual("\r\n\r\n".utf8) else { fail("a head without a blank line") }
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for i in head.indices where head[i] == ASCII.lf {
        if i == 0 || head[i - 1] != ASCII.cr { fail("a bare LF in a head") }
        lines.append(head[start..<(i - 1)])
        start = i + 1
    }
    if head.contains(where: { $0 == ASCII.cr }) && head.filter({ $0 == ASCII.cr }).count != lines.count {
        fail("a bare CR in a head")
    }
    guard let status = lines.first, status.starts(with: "HTTP/1.1 \(code) ".utf8) else { fail("a bad status line") }
    if !lines.last!.isEmpty { fail("the head does not end with an empty line") }
    var framingFields = 0
    for line in lines.dropFirst().dropLast() {
        guard let colon = line.firstIndex(of: ASCII.colon), ASCII.isToken(line[line.startIndex..<colon]) else {
            fail("a field line without a token name")
        }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
        if name.caseInsensitiveEquals("Transfer-Encoding") { framingFields += 1 }
        if name.caseInsensitiveEquals("Content-Length") { framingFields += 1 }
        if !line[(colon + 1)...].allSatisfy(ASCII.isFieldValueCharacter) { fail("a control character in a value") }
    }
    if framingFields > 1 { fail("more than one framing field") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)

    let whole = outcomeAgreeingOverSplits(bytes, run: run, fail: fail)

    for parsed in whole.requests {
        let request = HTTPRequest(
            method: HTTPMethod(parsed.method), target: parsed.target, version: parsed.version,
            headers: parsed.headers, body: parsed.body)
        checkRoundTrip(request)
        checkResponse(from: request)
    }
    return 0
}
