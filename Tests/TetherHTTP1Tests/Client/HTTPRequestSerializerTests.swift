import Testing

@testable import TetherHTTP1

@Suite struct HTTPRequestSerializerTests {
    @Test func writesRequestLineFieldsAndLength() {
        let request = HTTPRequest(
            method: .post, target: "/posts?a=1", headers: ["Host": "example.com", "Accept": "*/*"],
            body: Array("{}".utf8))
        let text = String(decoding: HTTPRequestSerializer.serialize(request), as: UTF8.self)
        #expect(
            text == "POST /posts?a=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nContent-Length: 2\r\n\r\n{}")
    }

    @Test func framingIsTheSerializers() {
        let request = HTTPRequest(
            method: .put, target: "/a",
            headers: ["Host": "h", "Content-Length": "99", "Transfer-Encoding": "chunked"])
        let text = String(decoding: HTTPRequestSerializer.serialize(request), as: UTF8.self)
        #expect(text == "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        let get = HTTPRequest(method: .get, target: "/a", headers: ["Host": "h"])
        #expect(
            String(decoding: HTTPRequestSerializer.serialize(get), as: UTF8.self)
                == "GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    @Test func dropsFieldsThatWouldSplitTheRequest() {
        let request = HTTPRequest(
            method: HTTPMethod("BAD METHOD"), target: "/a b",
            headers: ["Host": "h", "X-Evil": "a\r\nInjected: 1", "Bad Name": "x", "X-Tab": "a\tb"])
        let text = String(decoding: HTTPRequestSerializer.serialize(request), as: UTF8.self)
        #expect(text == "GET / HTTP/1.1\r\nHost: h\r\nX-Tab: a\tb\r\n\r\n")
    }

    @Test func roundTripsThroughTheRequestParser() throws {
        let request = HTTPRequest(
            method: .patch, target: "/posts/1",
            headers: HTTPHeaders([("Host", "h"), ("X-Repeated", "1"), ("X-Repeated", "2")]),
            body: Array("body".utf8))
        var parser = HTTPRequestParser()
        parser.append(HTTPRequestSerializer.serialize(request))
        let parsed = try #require(try parser.nextRequest())
        #expect(parsed.method == .patch)
        #expect(parsed.headers.values(for: "X-Repeated") == ["1", "2"])
        #expect(parsed.body == request.body)
    }
}
