import Testing
import TetherSync
import TetherTerminal

@Suite struct KeyDecoderTests {
    /// Decodes `text`'s bytes in one call, then flushes.
    private func keys(_ text: String) -> [Key] {
        keys(Array(text.utf8))
    }

    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes) + decoder.flush()
    }

    /// Decodes `bytes` one byte per call, then flushes.
    private func keysByteByByte(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in bytes { keys += decoder.decode([byte]) }
        return keys + decoder.flush()
    }

    @Test func printableASCIIAndJapanese() {
        #expect(keys("aZ 9~") == [.character("a"), .character("Z"), .character(" "), .character("9"), .character("~")])
        #expect(keys("ノートパソコン").count == 7)
        #expect(keys("名前") == [.character("名"), .character("前")])
        #expect(keys("😀") == [.character("😀")])
        #expect(keys("é") == [.character("é")])
    }

    @Test func controlKeys() {
        #expect(keys([0x0D, 0x0A, 0x09, 0x7F, 0x08]) == [.enter, .enter, .tab, .backspace, .backspace])
        #expect(keys([0x01, 0x03, 0x11, 0x1A]) == [.control("a"), .control("c"), .control("q"), .control("z")])
        // Ctrl+Space and Ctrl+\ are dropped, not leaked.
        #expect(keys([0x00, 0x1C, 0x61]) == [.character("a")])
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[1;5A", .up), ("\u{1B}[1;2D", .left), ("\u{1B}[1;3C", .right),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[3;5~", .delete), ("\u{1B}[Z", .backTab), ("\u{1B}OM", .enter),
    ])
    func escapeSequences(sequence: String, key: Key) {
        #expect(keys(sequence) == [key])
        #expect(keysByteByByte(Array(sequence.utf8)) == [key])
    }

    @Test func functionKeys() {
        let sequences = [
            "\u{1B}OP", "\u{1B}OQ", "\u{1B}OR", "\u{1B}OS", "\u{1B}[15~", "\u{1B}[17~", "\u{1B}[18~", "\u{1B}[19~",
            "\u{1B}[20~", "\u{1B}[21~", "\u{1B}[23~", "\u{1B}[24~",
        ]
        #expect(keys(sequences.joined()) == (1...12).map { Key.function($0) })
        // The xterm and Linux console spellings of F1–F5, and Shift+F1.
        #expect(keys("\u{1B}[11~\u{1B}[12~\u{1B}[13~\u{1B}[14~") == (1...4).map { Key.function($0) })
        #expect(keys("\u{1B}[[A\u{1B}[[E") == [.function(1), .function(5)])
        #expect(keys("\u{1B}[1;2P") == [.function(1)])
    }

    @Test func loneEscapeWaitsForFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasIncompleteInput)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasIncompleteInput)
        #expect(decoder.flush().isEmpty)
    }

    @Test func escapeBeforeAnotherKeyIsEscapeThenTheKey() {
        #expect(keys("\u{1B}x") == [.escape, .character("x")])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(keys([0x1B, 0x0D]) == [.escape, .enter])
        // Nothing more after ESC [ or ESC O: Escape and the character.
        #expect(keys("\u{1B}[") == [.escape, .character("[")])
        #expect(keys("\u{1B}O") == [.escape, .character("O")])
    }

    @Test func sequencesSplitAcrossReadsAreKept() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B, 0x5B]).isEmpty)
        #expect(decoder.decode([0x31, 0x3B]).isEmpty)
        #expect(decoder.decode([0x35, 0x41, 0x61]) == [.up, .character("a")])
        #expect(!decoder.hasIncompleteInput)
    }

    @Test func utf8SplitAcrossReadsWaitsForItsRest() {
        let bytes = Array("名前ok😀".utf8)
        #expect(
            keysByteByByte(bytes) == [
                .character("名"), .character("前"), .character("o"), .character("k"), .character("😀"),
            ])
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes[0..<2]).isEmpty)
        // Not a reason to flush after a pause: the rest can only be the character's (a slow link may take long).
        #expect(!decoder.hasIncompleteInput)
        #expect(
            decoder.decode(bytes[2...]) == [
                .character("名"), .character("前"), .character("o"), .character("k"), .character("😀"),
            ])
    }

    @Test func mixedInputByteByByteMatchesOneRead() {
        let input = Array("a\u{1B}[Bノ\u{1B}[5~\r\u{1B}OP\u{1B}[200~pasted\u{1B}[201~\u{1B}[1;5C\u{7F}z".utf8)
        let expected: [Key] = [
            .character("a"), .down, .character("ノ"), .pageUp, .enter, .function(1), .paste("pasted"), .right,
            .backspace, .character("z"),
        ]
        #expect(keys(input) == expected)
        #expect(keysByteByByte(input) == expected)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        // A stray continuation byte, a lead byte cut short by ASCII, an overlong form, a surrogate, 0xFF.
        #expect(keys([0x80]) == [.character("\u{FFFD}")])
        #expect(keys([0xE5, 0x41]) == [.character("\u{FFFD}"), .character("A")])
        #expect(keys([0xC0, 0xAF]) == [.character("\u{FFFD}"), .character("\u{FFFD}")])
        #expect(keys([0xED, 0xA0, 0x80]).allSatisfy { $0 == .character("\u{FFFD}") })
        #expect(keys([0xFF, 0x62]) == [.character("\u{FFFD}"), .character("b")])
        // An unfinished character when no more bytes come.
        var decoder = KeyDecoder()
        #expect(decoder.decode([0xE5, 0x90]).isEmpty)
        #expect(decoder.flush() == [.character("\u{FFFD}")])
        // C1 control codes are dropped.
        #expect(keys([0xC2, 0x9B, 0x61]) == [.character("a")])
    }

    @Test func unknownSequencesAreDroppedWhole() {
        // An SGR mouse report, a focus event, a cursor position report, a kitty key, an unknown ~ code, CSI with an
        // intermediate byte, an unknown SS3 key, an unknown Linux console key.
        let garbage = "\u{1B}[<0;12;5M\u{1B}[I\u{1B}[24;80R\u{1B}[97;5u\u{1B}[99~\u{1B}[1 q\u{1B}Ox\u{1B}[[Z"
        #expect(keys(garbage + "k") == [.character("k")])
        #expect(keysByteByByte(Array((garbage + "k").utf8)) == [.character("k")])
    }

    @Test func brokenSequencesNeverLeakTheirBytes() {
        // A sequence interrupted by a control byte: dropped, the control byte decoded.
        #expect(keys("\u{1B}[12\r") == [.enter])
        // A sequence cut short when no more bytes come: dropped.
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[1;5".utf8)).isEmpty)
        #expect(decoder.flush().isEmpty)
        // Absurdly long parameters are dropped without waiting forever.
        let long = "\u{1B}[" + String(repeating: "1;", count: 100)
        var other = KeyDecoder()
        #expect(other.decode(Array(long.utf8)).isEmpty)
        #expect(other.decode(Array("1;2Aq".utf8)) == [.character("q")])
        #expect(keysByteByByte(Array((long + "Aq").utf8)) == [.character("q")])
    }

    @Test func randomGarbageNeverCrashesAndDecodingIsSplitIndependent() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<40, using: &generator) {
                // Bias towards ESC and sequence bytes so sequences are exercised.
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.append(0x1B)
                case 1: bytes.append([0x5B, 0x4F, 0x31, 0x3B, 0x7E, 0x41][Int.random(in: 0..<6, using: &generator)])
                default: bytes.append(UInt8.random(in: 0...255, using: &generator))
                }
            }
            let whole = keys(bytes)
            #expect(keysByteByByte(bytes) == whole, "bytes: \(bytes)")
            for key in whole {
                if case .character(let character) = key {
                    #expect(
                        character.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
                }
            }
        }
    }

    @Test func bracketedPasteIsOneKey() {
        #expect(keys("\u{1B}[200~hello 世界\u{1B}[201~") == [.paste("hello 世界")])
        // Line endings become \n, escape sequences inside are text, and keys after it decode.
        #expect(keys("\u{1B}[200~a\r\nb\rc\nd\u{1B}[A\u{1B}[201~x") == [.paste("a\nb\nc\nd\u{1B}[A"), .character("x")])
        #expect(keys("\u{1B}[200~\u{1B}[201~") == [.paste("")])
    }

    @Test func pasteSplitAcrossReadsAndTerminatorSplit() {
        let input = Array("\u{1B}[200~line1\r\nline2 名前\u{1B}[201~".utf8)
        #expect(keysByteByByte(input) == [.paste("line1\nline2 名前")])
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[200~abc\u{1B}[20".utf8)).isEmpty)
        // A paste in progress is not flushed: a pause in the middle of a long paste is not its end.
        #expect(!decoder.hasIncompleteInput)
        #expect(decoder.flush().isEmpty)
        #expect(decoder.decode(Array("1~".utf8)) == [.paste("abc")])
        // A partial terminator that turns out to be text stays in the paste.
        var other = KeyDecoder()
        #expect(other.decode(Array("\u{1B}[200~x\u{1B}[20".utf8)).isEmpty)
        #expect(other.decode(Array("5~y\u{1B}[201~".utf8)) == [.paste("x\u{1B}[205~y")])
    }
}
