import Testing

@testable import TetherHTTP1

@Suite struct ContinueTests {
    static let head = "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n"

    @Test func awaitsContinueUntilSent() throws {
        var parser = HTTPRequestParser()
        #expect(!parser.isAwaitingContinue)
        parser.append(Array(Self.head.utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.isAwaitingContinue)
        parser.continueSent()
        #expect(!parser.isAwaitingContinue)
        parser.append(Array("abc".utf8))
        #expect(try parser.nextRequest()?.body == Array("abc".utf8))
        #expect(!parser.isAwaitingContinue)
    }

    @Test func bodyBytesEndTheWait() throws {
        var parser = HTTPRequestParser()
        parser.append(Array(Self.head.utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.isAwaitingContinue)
        parser.append(Array("a".utf8))
        #expect(!parser.isAwaitingContinue)
        #expect(try parser.nextRequest() == nil)
        #expect(!parser.isAwaitingContinue)
        parser.append(Array("bc".utf8))
        #expect(try parser.nextRequest()?.body == Array("abc".utf8))
    }

    @Test func bodySentWithTheHeadNeedsNoContinue() throws {
        var parser = HTTPRequestParser()
        parser.append(Array((Self.head + "ab").utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(!parser.isAwaitingContinue)
    }

    @Test func chunkedBodiesAwaitContinueToo() throws {
        var parser = HTTPRequestParser()
        parser.append(
            Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.isAwaitingContinue)
        parser.append(Array("0\r\n\r\n".utf8))
        #expect(!parser.isAwaitingContinue)
        #expect(try parser.nextRequest() != nil)
    }

    @Test(arguments: [
        "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",  // no body
        "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
        "PUT /x HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n",  // HTTP/1.0 ignores it
        "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: something\r\nContent-Length: 3\r\n\r\n",
    ])
    func noContinueExpected(text: String) throws {
        var parser = HTTPRequestParser()
        parser.append(Array(text.utf8))
        _ = try parser.nextRequest()
        #expect(!parser.isAwaitingContinue)
    }

    @Test func anErrorEndsTheWait() throws {
        var parser = HTTPRequestParser(limits: .init(maximumBodyBytes: 2))
        parser.append(Array(Self.head.utf8))
        #expect(throws: HTTP1Error(.payloadTooLarge, "The body is larger than 2 bytes.")) { try parser.nextRequest() }
        #expect(!parser.isAwaitingContinue)
    }
}
