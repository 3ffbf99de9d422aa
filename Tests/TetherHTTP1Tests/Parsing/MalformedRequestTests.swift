import Testing

@testable import TetherHTTP1

@Suite struct MalformedRequestTests {
    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host in 1.1
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),  // two Hosts
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),  // obs-fold
        ("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\tmore\r\n\r\n", 400),  // obs-fold with HTAB
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),  // whitespace before the colon
        ("GET / HTTP/1.1\r\nHost: a\r\nBad\"Name: 1\r\n\r\n", 400),  // not a token
        ("GET / HTTP/1.1\r\nHost: a\r\n: empty\r\n\r\n", 400),  // empty name
        ("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),  // no colon
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400),  // NUL in a value
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400),  // bare CR in a value
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7F}\r\n\r\n", 400),  // DEL in a value
        ("GET /  HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // two spaces
        ("GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),  // trailing space
        ("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // space in the target
        ("GET posts/1 HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // origin-form without its "/"
        ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // asterisk-form is for OPTIONS
        ("GET\r\nHost: a\r\n\r\n", 400),  // no target
        ("GET /\r\n\r\n", 400),  // HTTP/0.9
        ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // method not a token
        ("GET /\u{1} HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // control in the target
        ("GET / http/1.1\r\nHost: a\r\n\r\n", 400),  // lowercase version
        ("GET / HTTP/1.10\r\nHost: a\r\n\r\n", 400),  // malformed version
        ("GET / HTTP/1.1\r\r\nHost: a\r\n\r\n", 400),  // CR CR LF
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ])
    func rejects(text: String, status: Int) {
        let whole = Feeding(text)
        #expect(whole.status == status, "\(whole.error.map(String.init(describing:)) ?? "no error")")
        #expect(whole.requests.isEmpty)
        #expect(Feeding(text, pieceSize: 1).error == whole.error)
    }

    @Test(arguments: ["OPTIONS * HTTP/1.1", "GET http://a/posts/1 HTTP/1.1", "CONNECT a:443 HTTP/1.1"])
    func acceptsTheOtherTargetForms(line: String) {
        let feeding = Feeding(line + "\r\nHost: a\r\n\r\n")
        #expect(feeding.error == nil)
        #expect(feeding.requests.count == 1)
    }

    @Test func anErrorAfterGoodRequestsKeepsThem() {
        let feeding = Feeding(
            "GET /ok HTTP/1.1\r\nHost: a\r\n\r\nGET /bad HTTP/1.1\r\n\r\nGET /never HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(feeding.requests.map(\.target) == ["/ok"])
        #expect(feeding.status == 400)
    }
}
