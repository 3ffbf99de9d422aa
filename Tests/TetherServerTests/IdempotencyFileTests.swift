import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The `Idempotency-Key` records as the server keeps them: in its keys file beside the database file (no longer
/// inside it, under `_tether_idempotency`, which is still read to move old keys out), each key for 24 hours,
/// with a large guard on their number that is counted when hit.
@Suite("Idempotency keys in the server's keys file")
struct IdempotencyFileTests {
    private func response(_ body: String, status: Int = 201) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=utf-8")
        headers.add("Location", "http://127.0.0.1:3000/notes/7")
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array(body.utf8))
    }

    @Test func theKeysFileReadsBackEveryLiveKeyAndLeavesExpiredOnesOut() throws {
        let now = Date()
        var store = IdempotencyStore(capacity: 3)
        store.store("old", fingerprint: 1, response: response("{}"), at: now.addingTimeInterval(-25 * 3600))
        store.store(
            "k\"1\" /ключ", fingerprint: 0xfeed, response: response(#"{"id": 7, "title": "x\ny"}"#), at: now, now: now)
        store.store("k2", fingerprint: 2, response: response("", status: 204), at: now, now: now)
        let file = KeysFile.bytes(store.records(now: now))
        #expect(file.starts(with: JournalRecord.keysMagic))
        let keys = try KeysFile.keys(in: file)
        #expect(keys.map(\.key) == ["k\"1\" /ключ", "k2"])
        var reloaded = IdempotencyStore(capacity: 3)
        for (key, entry) in keys {
            reloaded.store(key, fingerprint: entry.fingerprint, response: entry.response, at: entry.createdAt)
        }
        #expect(reloaded["k\"1\" /ключ"]?.fingerprint == 0xfeed)
        #expect(reloaded["k\"1\" /ключ"]?.response.bodyBytes == Array(#"{"id": 7, "title": "x\ny"}"#.utf8))
        #expect(reloaded["k\"1\" /ключ"]?.response.headers["Location"] == "http://127.0.0.1:3000/notes/7")
        #expect(reloaded["k2"]?.response.status.code == 204)
        #expect(reloaded["old"] == nil)
    }

    @Test func aKeysFileDamagedInTheMiddleIsRefused() throws {
        var store = IdempotencyStore()
        for index in 1...3 { store.store("k\(index)", fingerprint: UInt64(index), response: response("{}")) }
        var file = KeysFile.bytes(store.records())
        file[JournalRecord.keysMagic.count + 12] ^= 0xFF
        #expect(throws: JournalCodec.Failure.self) { try KeysFile.keys(in: file) }
    }

    @Test func aFullStoreForgetsItsOldestKeysAndCountsThem() throws {
        let now = Date()
        var store = IdempotencyStore(capacity: 2)
        var forgotten = 0
        for index in 1...5 {
            forgotten += store.store(
                "k\(index)", fingerprint: UInt64(index), response: response("{}"), at: now, now: now)
        }
        #expect(forgotten == 3)
        #expect(store.forgottenCount == 3)
        #expect(try KeysFile.keys(in: KeysFile.bytes(store.records(now: now))).map(\.key) == ["k4", "k5"])
    }

    @Test func keysAreRememberedForADayHoweverManyCome() {
        let start = Date()
        var store = IdempotencyStore()
        for index in 0..<5000 {
            store.store("k\(index)", fingerprint: 1, response: response("{}"), at: start, now: start)
        }
        #expect(store["k0"] != nil)
        #expect(store.count == 5000)
        #expect(store.forgottenCount == 0)
        // A day later they expire, and storing a new key forgets them (they are the oldest) without counting.
        let later = start.addingTimeInterval(IdempotencyStore.lifetime + 1)
        store.store("new", fingerprint: 1, response: response("{}"), at: later, now: later)
        #expect(store.count == 1)
        #expect(store.forgottenCount == 0)
    }

    @Test func keysSavedInsideTheDatabaseFileByEarlierVersionsStillLoad() throws {
        let now = Date()
        var old = IdempotencyStore()
        old.store("legacy", fingerprint: 0xabc, response: response(#"{"id": 1}"#), at: now, now: now)
        var loaded = IdempotencyStore()
        loaded.load(old.json(now: now), now: now)
        #expect(loaded["legacy"]?.fingerprint == 0xabc)
        #expect(loaded["legacy"]?.response.bodyBytes == Array(#"{"id": 1}"#.utf8))
    }
}
