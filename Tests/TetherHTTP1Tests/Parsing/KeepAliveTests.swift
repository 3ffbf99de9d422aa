import Testing

@testable import TetherHTTP1

@Suite struct KeepAliveTests {
    @Test(arguments: [
        (HTTPVersion.http11, [String](), true),
        (.http11, ["close"], false),
        (.http11, ["Keep-Alive, CLOSE"], false),
        (.http11, ["upgrade", " close "], false),
        (.http11, ["keep-alive"], true),
        (.http11, ["closed"], true),
        (.http10, [], false),
        (.http10, ["keep-alive"], true),
        (.http10, ["Keep-Alive"], true),
        (.http10, ["keep-alive", "close"], false),
        (HTTPVersion(major: 2, minor: 0), [], false),
    ])
    func keepAlive(version: HTTPVersion, connection: [String], expected: Bool) {
        var headers = HTTPHeaders()
        for value in connection { headers.add("Connection", value) }
        let request = HTTPRequest(method: .get, target: "/", version: version, headers: headers)
        #expect(request.keepAlive == expected)
    }
}
