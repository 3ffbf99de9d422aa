import Testing

@testable import TetherJSON

@Suite struct TapeTests {
    @Test(arguments: [
        Tape.Tag.null, .true, .false, .int, .uint, .double, .bigNumber, .string, .array, .object,
    ])
    func entryTagsReadBackTheTagTheyWereMadeWith(tag: Tape.Tag) {
        // `Entry.tag` reinterprets the stored byte as a `Tag`; that holds only while raw values follow the cases.
        let entry = Tape.Entry(tag: tag, value: 0x00AB_CDEF_0123_4567, payload: .max)
        #expect(entry.tag == tag)
        #expect(entry.value == 0x00AB_CDEF_0123_4567)
    }

    @Test func containersRecordTheirCountAndEnd() throws {
        let bytes = Array(#"{"a": [1, "x", null], "b": {}}"#.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let storage = try TapeBuilder.build(buffer, options: JSONParser.Options())
            storage.withTape { tape in
                #expect(tape.entries.count == 8)
                #expect(tape.entries[0].tag == .object && tape.entries[0].payload == 2 && tape.next(after: 0) == 8)
                #expect(tape.entries[2].tag == .array && tape.entries[2].payload == 3 && tape.next(after: 2) == 6)
                #expect(tape.string(at: 1) == "a" && tape.string(at: 4) == "x" && tape.entries[5].tag == .null)
                #expect(tape.numberText(at: 3) == "1")
                #expect(tape.string(at: 6) == "b")
                #expect(tape.entries[7].tag == .object && tape.entries[7].payload == 0 && tape.next(after: 7) == 8)
            }
        }
    }
}
