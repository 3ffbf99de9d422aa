import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The journal's pure parts on bytes: framing with length and CRC-32, torn tails told from corruption, the
/// records' payloads, and the recovery plan a start makes of them.
@Suite("Journal records and recovery, on bytes")
struct JournalCodecTests {
    private let magic = JournalRecord.journalMagic

    private func journal(_ payloads: [String]) -> [UInt8] {
        payloads.reduce(magic) { $0 + JournalCodec.encode(kind: 2, payload: Array($1.utf8)) }
    }

    @Test func recordsReadBackInOrderWithTheirOffsets() throws {
        let bytes = journal(["a", "bb", "", "dddd"])
        let decoded = try JournalCodec.decode(bytes, magic: magic)
        #expect(decoded.frames.map { String(decoding: $0.payload, as: UTF8.self) } == ["a", "bb", "", "dddd"])
        #expect(decoded.frames.allSatisfy { $0.kind == 2 })
        #expect(decoded.frames.first?.offset == magic.count)
        #expect(decoded.frames.last?.end == bytes.count)
        #expect(decoded.validLength == bytes.count)
        #expect(decoded.tornBytes == 0)
    }

    @Test func aLastRecordCutAtAnyByteIsATornTail() throws {
        let whole = journal(["first", "second"])
        let lastStart = journal(["first"]).count
        for cut in lastStart..<whole.count {
            let decoded = try JournalCodec.decode(Array(whole[..<cut]), magic: magic)
            #expect(decoded.frames.count == 1, "cut at \(cut)")
            #expect(decoded.validLength == lastStart)
            #expect(decoded.tornBytes == cut - lastStart)
        }
        // A journal cut inside its magic (a creation cut short) reads as empty.
        #expect(try JournalCodec.decode(Array(magic.prefix(3)), magic: magic).frames.isEmpty)
    }

    @Test func aLastRecordWithZeroedOrDamagedBytesIsATornTail() throws {
        let whole = journal(["first", "second"])
        let lastStart = journal(["first"]).count
        var zeroed = whole
        for index in (lastStart + 3)..<whole.count { zeroed[index] = 0 }
        #expect(try JournalCodec.decode(zeroed, magic: magic).validLength == lastStart)
        var flipped = whole
        flipped[whole.count - 1] ^= 0x40
        #expect(try JournalCodec.decode(flipped, magic: magic).tornBytes == whole.count - lastStart)
        // Zeros after the last whole record (space allocated for an append that never happened).
        let padded = whole + [UInt8](repeating: 0, count: 100)
        #expect(try JournalCodec.decode(padded, magic: magic).frames.count == 2)
    }

    @Test func damageInTheMiddleIsCorruption() {
        var bytes = journal(["first", "second", "third"])
        let secondStart = journal(["first"]).count
        bytes[secondStart + JournalCodec.headerSize + 2] ^= 0x01
        #expect(throws: JournalCodec.Failure.corrupt(offset: secondStart, reason: "a record that fails its checksum")) {
            try JournalCodec.decode(bytes, magic: magic)
        }
        #expect(throws: JournalCodec.Failure.badMagic) {
            try JournalCodec.decode(Array("NOTAJRNL".utf8) + bytes.dropFirst(8), magic: magic)
        }
    }

    @Test func writeRecordsCarryTheirChangesAndKey() throws {
        let changes: [DatabaseChange] = [
            .put(collection: "notes", id: "7", item: ["id": 7, "title": "x/y \"q\""]),
            .remove(collection: "notes", id: "abc"),
            .collection(name: "comments", elements: [["id": 1, "noteId": 2]]),
            .singular(name: "profile", object: ["name": "me"]),
        ]
        let response = HTTPResponse(
            status: .created, headers: HTTPHeaders([("Location", "http://h/notes/7")]), body: Array("{}".utf8))
        let entry = IdempotencyStore.Entry(
            fingerprint: 0xDEAD_BEEF_0000_0001, response: response,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000.5))
        let bytes = magic + JournalRecord.write(changes: changes, key: "k-1", entry: entry).framed
        let frame = try #require(try JournalCodec.decode(bytes, magic: magic).frames.first)
        guard case .write(let read, let key, let readEntry) = try JournalRecord(frame: frame) else {
            Issue.record("not a write record")
            return
        }
        #expect(read == changes)
        #expect(key == "k-1")
        #expect(readEntry?.fingerprint == 0xDEAD_BEEF_0000_0001)
        #expect(readEntry?.createdAt == entry.createdAt)
        #expect(readEntry?.response.headers["Location"] == "http://h/notes/7")
        #expect(readEntry?.response.bodyBytes == Array("{}".utf8))
    }

    // MARK: - Recovery

    private let fileA = FileStamp(size: 10, crc: 1)
    private let fileB = FileStamp(size: 20, crc: 2)
    private let fileEdited = FileStamp(size: 30, crc: 3)

    private func write(_ id: String) -> JournalRecord {
        .write(changes: [.put(collection: "notes", id: id, item: ["id": .string(id)])], key: nil, entry: nil)
    }

    @Test func aFileAsOfTheBaseGetsEveryWrite() throws {
        let plan = try JournalRecovery.plan([.base(fileA), write("1"), write("2")], file: fileA)
        #expect(plan.writes.count == 2)
        #expect(plan.editedWrites == nil)
        #expect(plan.recordCount == 2)
    }

    @Test func aFoldThatReplacedTheFileButNotTheJournalSkipsTheWritesBeforeIt() throws {
        let records: [JournalRecord] = [.base(fileA), write("1"), .foldIntent(fileB), write("2")]
        let afterFold = try JournalRecovery.plan(records, file: fileB)
        #expect(afterFold.writes.map(\.changes) == [[.put(collection: "notes", id: "2", item: ["id": "2"])]])
        #expect(afterFold.editedWrites == nil)
        // Stopped before the file was replaced: the file is the base's, every write applies.
        let beforeFile = try JournalRecovery.plan(records, file: fileA)
        #expect(beforeFile.writes.count == 2)
        #expect(beforeFile.editedWrites == nil)
    }

    @Test func aFileEditedByHandGetsEveryWriteAndTheirNames() throws {
        let plan = try JournalRecovery.plan([.base(fileA), write("1"), write("2")], file: fileEdited)
        #expect(plan.writes.count == 2)
        #expect(plan.editedWrites == ["put notes/1", "put notes/2"])
        #expect(throws: JournalCodec.Failure.self) { try JournalRecovery.plan([write("1")], file: fileA) }
    }
}
