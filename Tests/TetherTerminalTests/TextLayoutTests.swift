import Testing
import TetherTerminal

@Suite struct TextLayoutTests {
    // MARK: truncate

    @Test func textThatFitsComesBackUnchanged() {
        #expect(TextLayout.truncate("hello", toColumns: 5) == "hello")
        #expect(TextLayout.truncate("名前", toColumns: 4) == "名前")
        #expect(TextLayout.truncate("", toColumns: 3) == "")
    }

    @Test func truncatesJapaneseByColumns() {
        #expect(TextLayout.truncate("ノートパソコン", toColumns: 7) == "ノート…")
        // 8 columns: 3 wide characters (6) + ellipsis (1) = 7; a fourth would cross the limit.
        #expect(TextLayout.truncate("ノートパソコン", toColumns: 8) == "ノート…")
        #expect(TextLayout.truncate("ノートパソコン", toColumns: 9) == "ノートパ…")
        #expect(TextLayout.truncate("ノートパソコン", toColumns: 2) == "…")
        #expect(TextLayout.truncate("ノートパソコン", toColumns: 1) == "…")
    }

    @Test(arguments: 0...16)
    func neverExceedsTheColumns(columns: Int) {
        for text in ["ノートパソコン 16GB", "👍🏽 great 👍🏽", "a名b前c", "plain ascii text here"] {
            let result = TextLayout.truncate(text, toColumns: columns)
            #expect(result.terminalColumns <= max(0, columns), "\(text) at \(columns): \(result)")
        }
    }

    @Test func dropsSpacesBeforeTheEllipsisAndHandlesEmoji() {
        #expect(TextLayout.truncate("hello world", toColumns: 7) == "hello…")
        #expect(TextLayout.truncate("👍👍👍", toColumns: 4) == "👍…")
        #expect(TextLayout.truncate("e\u{301}e\u{301}e\u{301}e\u{301}", toColumns: 3) == "e\u{301}e\u{301}…")
    }

    @Test func customEllipsisAndOneTooWide() {
        #expect(TextLayout.truncate("abcdefgh", toColumns: 6, ellipsis: "...") == "abc...")
        // The ellipsis does not fit: the text is cut without it.
        #expect(TextLayout.truncate("abcdefgh", toColumns: 2, ellipsis: "...") == "ab")
        #expect(TextLayout.truncate("abcdefgh", toColumns: 0) == "")
        #expect(TextLayout.truncate("abcdefgh", toColumns: -3) == "")
    }

    @Test func truncatesSpansKeepingStyles() {
        let bold = TextStyle(attributes: .bold)
        let spans = [Span("1,280円", style: bold), Span("  Shop name")]
        #expect(TextLayout.truncate(spans, toColumns: 30) == spans)
        let cut = TextLayout.truncate(spans, toColumns: 10)
        #expect(cut == [Span("1,280円", style: bold), Span(" …")] || cut == [Span("1,280円", style: bold), Span("…")])
        #expect(cut.reduce(0) { $0 + $1.columns } <= 10)
        let first = TextLayout.truncate(spans, toColumns: 5)
        #expect(first == [Span("1,28…", style: bold)])
        #expect(TextLayout.truncate(spans, toColumns: 0).isEmpty)
    }

    // MARK: pad

    @Test func padsToExactColumns() {
        #expect(TextLayout.pad("ab", toColumns: 4) == "ab  ")
        #expect(TextLayout.pad("名前", toColumns: 5) == "名前 ")
        #expect(TextLayout.padLeft("1,280円", toColumns: 8) == " 1,280円")
        #expect(TextLayout.padLeft("12", toColumns: 2) == "12")
        // Wider text is truncated; a wide character that cannot fit leaves a padding space.
        #expect(TextLayout.pad("ノートパソコン", toColumns: 6) == "ノー… ")
        #expect(TextLayout.padLeft("abcdef", toColumns: 4) == "abc…")
        #expect(TextLayout.pad("x", toColumns: 0) == "")
    }

    // MARK: wrap

    @Test func wrapsWordsOnSpaces() {
        #expect(TextLayout.wrap("The quick brown fox", toColumns: 9) == ["The quick", "brown fox"])
        #expect(TextLayout.wrap("The quick brown fox", toColumns: 10) == ["The quick", "brown fox"])
        #expect(TextLayout.wrap("a b c", toColumns: 1) == ["a", "b", "c"])
        #expect(TextLayout.wrap("short", toColumns: 80) == ["short"])
    }

    @Test func trimsSpacesAtBreaksAndKeepsIndentation() {
        #expect(TextLayout.wrap("one    two   ", toColumns: 5) == ["one", "two"])
        #expect(TextLayout.wrap("  indented text", toColumns: 10) == ["  indented", "text"])
        #expect(TextLayout.wrap("   ", toColumns: 5) == [""])
    }

    @Test func keepsHardNewlinesAndEmptyParagraphs() {
        #expect(TextLayout.wrap("a\n\nb", toColumns: 5) == ["a", "", "b"])
        #expect(TextLayout.wrap("", toColumns: 5) == [""])
        #expect(TextLayout.wrap("line\r\nnext\n", toColumns: 10) == ["line", "next", ""])
    }

    @Test func breaksLongWordsByColumns() {
        #expect(TextLayout.wrap("abcdefghij", toColumns: 4) == ["abcd", "efgh", "ij"])
        #expect(
            TextLayout.wrap("go https://example.com/x ok", toColumns: 8) == ["go", "https://", "example.", "com/x ok"])
    }

    @Test func breaksJapaneseBetweenAnyCharacters() {
        let lines = TextLayout.wrap("高性能ノートパソコン、軽量で持ち運びに便利です。", toColumns: 10)
        // No line starts with 、 or ー: they stay with the character before them.
        #expect(lines == ["高性能ノー", "トパソコ", "ン、軽量で", "持ち運びに", "便利です。"])
        // Opening brackets stay with the character after them, closing ones with the one before.
        #expect(TextLayout.wrap("「ノートパソコン」（税込）", toColumns: 6) == ["「ノー", "トパソ", "コン」", "（税", "込）"])
        // Odd widths: a wide character never splits, so lines can be a column short.
        let odd = TextLayout.wrap("ノートパソコン", toColumns: 5)
        #expect(odd == ["ノー", "トパ", "ソコ", "ン"])
        // Mixed text breaks at spaces and around wide characters.
        #expect(TextLayout.wrap("iPhone用ケース black", toColumns: 10) == ["iPhone用", "ケース", "black"])
        #expect(TextLayout.wrap("iPhone用ケース black", toColumns: 12) == ["iPhone用ケー", "ス black"])
    }

    @Test func wideCharactersAtWidthOneGetALineEach() {
        #expect(TextLayout.wrap("名前", toColumns: 1) == ["名", "前"])
        #expect(TextLayout.wrap("👍🏽👍🏽", toColumns: 3) == ["👍🏽", "👍🏽"])
    }

    @Test(arguments: 2...20)
    func wrappedLinesNeverExceedTheWidth(columns: Int) {
        let text = "Rakuten ノートパソコン 16GB SSD512GB 👍🏽👍🏽 Windows11 高性能で軽量なモデル\n\nsupercalifragilisticexpialidocious"
        let lines = TextLayout.wrap(text, toColumns: columns)
        for line in lines {
            #expect(line.terminalColumns <= columns, "\(line)")
            #expect(line.last != " ")
        }
        // Nothing but spaces and newlines is lost.
        let kept = lines.joined().filter { $0 != " " }
        #expect(kept == text.filter { $0 != " " && !$0.isNewline })
    }

    @Test func nothingFitsInZeroColumns() {
        #expect(TextLayout.wrap("abc", toColumns: 0).isEmpty)
    }

    @Test func controlCharactersCountAsTheSpacesTheyAreDrawnAs() {
        #expect(TextLayout.truncate("a\tb", toColumns: 3) == "a\tb")
        #expect(TextLayout.truncate("a\tbc", toColumns: 3) == "a\t…")
        #expect(TextLayout.wrap("a\tb c", toColumns: 3) == ["a b", "c"])
        #expect(TextLayout.pad("a\u{7}", toColumns: 3) == "a\u{7} ")
    }

    @Test func spansCutInsideAWideCharacter() {
        let spans = [Span("ab"), Span("名前", style: TextStyle(attributes: .bold))]
        // 4 columns: "ab" (2) + ellipsis (1) leaves 1, not enough for 名: the ellipsis takes the bold style.
        #expect(
            TextLayout.truncate(spans, toColumns: 4) == [Span("ab"), Span("…", style: TextStyle(attributes: .bold))])
        #expect(TextLayout.truncate(spans, toColumns: 6) == spans)
        #expect(TextLayout.truncate(spans, toColumns: 1, ellipsis: "...") == [Span("a")])
    }
}
