import Testing
import TetherTerminal

@Suite struct CharacterWidthTests {
    @Test(arguments: [
        ("abc", 3), ("名前", 4), ("ノートパソコン", 14), ("ｱｲｳ", 3), ("Ｔｅｔｈｅｒ", 12), ("한국어", 6),
        ("e\u{301}", 1), ("👍", 2), ("☺\u{FE0F}", 2), ("a\u{200B}b", 2), ("", 0), ("1,234円", 7), ("\t", 0),
        ("Ελλάδα", 6), ("𠮷野家", 6),
    ])
    func columns(text: String, expected: Int) {
        #expect(text.terminalColumns == expected)
    }

    @Test func controlCharactersTakeNoColumns() {
        #expect(Character("\u{1B}").terminalColumns == 0)
        #expect(Character("\u{7F}").terminalColumns == 0)
        #expect(Character("\u{85}").terminalColumns == 0)
    }
}
