import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer

/// Request bodies and query items arrive at a real server byte for byte, with their content types.
@Suite("Bodies over sockets", .timeLimit(.minutes(1)))
struct BodiesOverSocketsTests {
    struct Order: Codable, Sendable, Equatable {
        var item: String
        var count: Int
    }

    /// Sends `body` with POST to a recording server and returns what it received.
    func received(_ body: RequestBody, method: HTTPMethod = .post) async throws -> ReceivedRequest {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            _ = try await HTTPClient(baseURL: server.baseURL).send(
                Request<Void>(path: "/in", method: method, body: body))
            return try #require(server.log.requests.first)
        }
    }

    @Test func anEncodableIsSentAsJSON() async throws {
        let request = try await received(.json(Order(item: "緑茶", count: 2)))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(try TetherJSONDecoder().decode(Order.self, from: Data(request.body)) == Order(item: "緑茶", count: 2))
    }

    @Test func aFormIsPercentEncoded() async throws {
        let request = try await received(.form([("q", "a b&c=d"), ("kana", "ノート")]))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let text = String(decoding: request.body, as: UTF8.self)
        let fields = text.split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1).map {
                HTTPTarget.percentDecode($0, plusIsSpace: true) ?? String($0)
            }
        }
        #expect(fields == [["q", "a b&c=d"], ["kana", "ノート"]])
    }

    @Test func aMultipartFormKeepsItsParts() async throws {
        var form = MultipartForm(boundary: "tether-boundary")
        form.append(name: "title", value: "Photo")
        form.append(
            name: "file", filename: "a.bin", contentType: "application/octet-stream", data: Data([0, 1, 2, 255]))
        let request = try await received(.multipart(form))
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=tether-boundary")
        let expected =
            Array(
                ("--tether-boundary\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nPhoto\r\n"
                    + "--tether-boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n").utf8) + [0, 1, 2, 255]
            + Array("\r\n--tether-boundary--\r\n".utf8)
        #expect(request.body == expected)
    }

    @Test func textAndDataArriveAsGiven() async throws {
        let text = try await received(.text("héllo"), method: .put)
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(String(decoding: text.body, as: UTF8.self) == "héllo")
        let bytes = try await received(.data(Data([0xDE, 0xAD, 0xBE, 0xEF]), contentType: "application/x-test"))
        #expect(bytes.headers["Content-Type"] == "application/x-test")
        #expect(bytes.body == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(bytes.method == "POST")
    }

    @Test func queryItemsArriveDecodedAsSent() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let query: [(name: String, value: String?)] = [
                ("keyword", "ノートパソコン"), ("q", "a+b&c=d"), ("tag", "x"), ("tag", "y"),
            ]
            _ = try await HTTPClient(baseURL: server.baseURL).send(Request<Data>(path: "/search", query: query))
            let request = try #require(server.log.requests.first)
            let items = HTTPTarget(request.target).queryItems
            #expect(items.map(\.name) == ["keyword", "q", "tag", "tag"])
            #expect(items.map(\.value) == ["ノートパソコン", "a+b&c=d", "x", "y"])
        }
    }

    @Test func aJapaneseKeywordFindsRakutenItems() async throws {
        try await withSocketApp { baseURL, _ in
            let request = Request<JSON>(
                path: "/services/api/IchibaItem/Search/20220601",
                query: [("applicationId", "1"), ("keyword", "緑茶"), ("hits", "3")])
            let response = try await HTTPClient(baseURL: baseURL).send(request)
            #expect(response.status.code == 200)
            #expect(response.value["hits"].int == response.value["Items"].array?.count)
        }
    }
}
