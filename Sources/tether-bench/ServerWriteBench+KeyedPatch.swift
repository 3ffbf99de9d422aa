internal import Foundation
internal import TetherServer
internal import TetherSync

/// `server patch-keyed`: one keep-alive client sending `PATCH /notes/<random id>` with an `Idempotency-Key`, one
/// after the other, to a persisted database of 1,000 and then 100,000 notes that already remembers 100,000 keys
/// (given to it the way an earlier version saved them, inside the file, so they load at start). Prints the p50,
/// p90, p99 and largest time from sending a PATCH to its acknowledgement, then the time of one fold of the
/// journal into the file (which writes the whole file and keys file). Target: p50 ≤ 3 ms with either size.
extension ServerWriteBench {
    /// The two sizes measured, and the keys remembered.
    static func runKeyedPatches(quick: Bool) -> Bool {
        let keys = quick ? 10_000 : 100_000
        let patches = quick ? 300 : 3_000
        var passed = true
        for notes in [1_000, quick ? 10_000 : 100_000] {
            guard let p50 = keyedPatch(notes: notes, keys: keys, patches: patches) else {
                print("# patch-keyed: the server did not start or a request failed")
                return false
            }
            if p50 > 0.003 { passed = false }
        }
        return passed
    }

    /// Measures `patches` keyed PATCHes against `notes` notes and `keys` remembered keys; the p50 in seconds.
    private static func keyedPatch(notes: Int, keys: Int, patches: Int) -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-patch-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("db.json")
        guard (try? Data(databaseText(notes: notes, keys: keys).utf8).write(to: file)) != nil else { return nil }
        let opening = Bench.now()
        guard let app = blockingStart(file) else { return nil }
        let opened = Bench.now() - opening
        defer { blockingStop(app) }
        guard let connection = Connection(port: app.port) else { return nil }
        defer { close(connection.fd) }
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = []
        times.reserveCapacity(patches)
        let warmup = 100
        for index in 0..<(warmup + patches) {
            let id = Int.random(in: 1...notes, using: &generator)
            let body = #"{"title":"patched \#(index)"}"#
            let request =
                "PATCH /notes/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Idempotency-Key: bench-\(UUID().uuidString)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let start = Bench.now()
            guard connection.send(request), connection.readResponse() else { return nil }
            if index >= warmup { times.append(Bench.now() - start) }
        }
        let folding = Bench.now()
        let folded = blockingFold(app)
        let foldTime = Bench.now() - folding
        let p50 = percentile(times, 0.5)
        print(
            "server patch-keyed notes=\(notes) keys=\(keys) p50=\(Bench.format(p50 * 1000, 2))ms "
                + "p90=\(Bench.format(percentile(times, 0.9) * 1000, 2))ms "
                + "p99=\(Bench.format(percentile(times, 0.99) * 1000, 2))ms "
                + "max=\(Bench.format(times.max()! * 1000, 2))ms")
        print(
            "#   \(patches) PATCHes after \(warmup) unmeasured; start with the keys \(Bench.format(opened, 2)) s; "
                + "one fold \(folded ? Bench.format(foldTime * 1000, 1) + " ms" : "failed")")
        return p50
    }

    /// A json-server file of `notes` notes and, under the member earlier versions kept them in, `keys` keys.
    private static func databaseText(notes: Int, keys: Int) -> String {
        var text = "{\n  \"notes\": [\n"
        for id in 1...notes {
            text += "    {\n      \"id\": \(id),\n      \"title\": \"note \(id)\",\n"
            text += "      \"body\": \"the text of note number \(id), long enough to look like a note\"\n    }"
            text += id == notes ? "\n" : ",\n"
        }
        text += "  ],\n  \"_tether_idempotency\": {\n"
        let now = Date().timeIntervalSince1970
        for key in 0..<keys {
            text += "    \"old-\(key)\": {\"fingerprint\": \"\(String(key, radix: 16))\", \"at\": \(now), "
            text += "\"status\": 200, \"headers\": [[\"Content-Type\", \"application/json; charset=utf-8\"]], "
            text += "\"body\": \"e30=\"}" + (key == keys - 1 ? "\n" : ",\n")
        }
        return text + "  }\n}"
    }

    private static func blockingFold(_ app: TetherServerApp) -> Bool {
        runBlocking { (try? await app.database.fold()) != nil }
    }
}
