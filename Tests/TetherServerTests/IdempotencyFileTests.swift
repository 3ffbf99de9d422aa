import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The `Idempotency-Key` records as the database file holds them: each entry's text is kept from when it was
/// stored and copied into the file, which must read exactly as writing the whole tree would.
@Suite("Idempotency keys in the database file")
struct IdempotencyFileTests {
    /// The file as the server wrote it before keeping each entry's text: the root with the keys' object as its
    /// last member, written whole.
    private func writtenWhole(_ root: JSON.Object, _ store: IdempotencyStore, now: Date) -> [UInt8] {
        var root = root
        if case .object(let keys) = store.json(now: now), !keys.isEmpty {
            root[IdempotencyStore.fileKey] = .object(keys)
        }
        return JSONServerBody.bytes(.object(root))
    }

    private func spliced(_ root: JSON.Object, _ store: IdempotencyStore, now: Date) -> [UInt8] {
        var file = JSONServerBody.bytes(.object(root))
        store.appendMember(to: &file, now: now)
        return file
    }

    private func response(_ body: String, status: Int = 201) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=utf-8")
        headers.add("Location", "http://127.0.0.1:3000/notes/7")
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: [
        #"{"notes": [{"id": 1, "title": "a\nb \"quoted\" 日本語"}], "profile": {"name": "me"}}"#,
        #"{"notes": []}"#,
        #"{}"#,
    ])
    func theFileReadsAsTheWholeTreeWrittenAtOnce(rootText: String) throws {
        guard case .object(let root) = try JSON(parsing: rootText) else {
            Issue.record("not an object")
            return
        }
        let now = Date()
        var store = IdempotencyStore(capacity: 3)
        // Nothing remembered: the file is the root alone.
        #expect(spliced(root, store, now: now) == JSONServerBody.bytes(.object(root)))
        store.store("old", fingerprint: 1, response: response("{}"), at: now.addingTimeInterval(-25 * 3600))
        store.store("k\"1\" /ключ", fingerprint: 0xfeed, response: response(#"{"id": 7, "title": "x\ny"}"#), at: now)
        store.store("k2", fingerprint: 2, response: response("", status: 204), at: now)
        let file = spliced(root, store, now: now)
        let whole = writtenWhole(root, store, now: now)
        #expect(String(decoding: file, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        // The expired key is left out; the others read back.
        let keys = try #require(try JSON(parsing: file)[IdempotencyStore.fileKey]?.object)
        #expect(keys.keys.sorted() == ["k\"1\" /ключ", "k2"])
        var reloaded = IdempotencyStore(capacity: 3)
        reloaded.load(.object(keys), now: now)
        #expect(reloaded["k\"1\" /ключ"]?.fingerprint == 0xfeed)
        guard case .bytes(let body)? = reloaded["k\"1\" /ключ"]?.response.body else {
            Issue.record("the reloaded response has no body")
            return
        }
        #expect(body == Array(#"{"id": 7, "title": "x\ny"}"#.utf8))
        #expect(reloaded["old"] == nil)
    }

    @Test func aFullStoreKeepsOnlyItsNewestKeysInTheFile() throws {
        let now = Date()
        var store = IdempotencyStore(capacity: 2)
        for index in 1...5 { store.store("k\(index)", fingerprint: UInt64(index), response: response("{}"), at: now) }
        let file = spliced(["notes": .array([])], store, now: now)
        #expect(file == writtenWhole(["notes": .array([])], store, now: now))
        #expect(try JSON(parsing: file)[IdempotencyStore.fileKey]?.object?.keys.sorted() == ["k4", "k5"])
    }
}
