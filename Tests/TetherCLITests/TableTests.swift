import Testing
import TetherTerminal

@testable import TetherCLI

/// `Table`: natural widths, fitting to a width (flexible columns first) and truncation with `…`, in terminal
/// columns.
@Suite struct TableTests {
    /// A table of Japanese item names, prices and shops.
    private func items() -> Table {
        var table = Table(columns: [
            .init("NAME", minWidth: 12, flexible: true),
            .init("PRICE", alignment: .right, minWidth: 14),
            .init("SHOP", minWidth: 8, maxWidth: 24, flexible: true),
        ])
        table.append(["【送料無料】ノートパソコン 15.6インチ 第12世代 Core i5 メモリ16GB SSD512GB", "54,800円", "PCショップ東京本店"])
        table.append(["USB-C ハブ", "1,980円", "Gadget Store"])
        table.append(["ワイヤレスマウス 静音 2.4GHz Bluetooth 両対応", "12,345,678円", "マウス専門店 楽天市場店 公式"])
        return table
    }

    @Test func theDocumentationExample() {
        var table = Table(columns: [
            .init("ID", alignment: .right),
            .init("TITLE", minWidth: 10, flexible: true),
        ])
        table.append(["1", "sunt aut facere repellat provident occaecati"])
        #expect(table.render(width: 40) == "ID  TITLE\n 1  sunt aut facere repellat provident…\n")
    }

    @Test func naturalWidthsWhenTheTableFits() {
        var table = Table(columns: [.init("ID", alignment: .right), .init("TITLE")])
        table.append(["1", "short"])
        table.append(["120", "名前"])
        #expect(table.render(width: 80) == " ID  TITLE\n  1  short\n120  名前\n")
    }

    @Test(arguments: [40, 80, 200])
    func noLineIsWiderThanTheWidth(width: Int) {
        let output = items().render(width: width)
        let rendered = lines(output)
        #expect(rendered.count == 4)
        for line in rendered {
            #expect(line.terminalColumns <= width, "\(line.terminalColumns) columns: \(line)")
            #expect(!line.hasSuffix(" "))
        }
        // Prices are right-aligned: each line's price ends at the same column.
        let priceEnds = rendered.dropFirst().map { line -> Int in
            let end = line.range(of: "円")!.upperBound
            return line[..<end].terminalColumns
        }
        #expect(Set(priceEnds).count == 1)
        // Prices are never truncated: the flexible columns give way first.
        #expect(output.contains("12,345,678円"))
    }

    @Test func wideTablesKeepWholeCells() {
        let output = items().render(width: 200)
        #expect(output.contains("【送料無料】ノートパソコン 15.6インチ 第12世代 Core i5 メモリ16GB SSD512GB"))
        // The shop column is capped at 24 columns even with room to spare.
        #expect(output.contains("マウス専門店 楽天市場店…"))
    }

    @Test func narrowTablesTruncateFlexibleColumnsWithAnEllipsis() {
        let rendered = lines(items().render(width: 40))
        #expect(rendered[1].hasPrefix("【送料無料"))
        #expect(rendered[1].contains("…"))
        #expect(rendered[2].hasPrefix("USB-C ハブ"))
    }

    @Test func aWidthBelowTheMinimumsCutsEachLine() {
        let rendered = lines(items().render(width: 10))
        #expect(rendered.allSatisfy { $0.terminalColumns <= 10 })
        #expect(rendered.allSatisfy { $0.hasSuffix("…") })
    }

    @Test func japaneseIsCutBetweenCharacters() {
        var table = Table(columns: [.init("ID", alignment: .right), .init("NAME", minWidth: 4, flexible: true)])
        table.append(["1", "ノートパソコン"])
        // 4 columns for the name: one character and the ellipsis (a character is never split).
        #expect(table.render(width: 8) == "ID  NAME\n 1  ノ…\n")
        #expect(table.render(width: 18) == "ID  NAME\n 1  ノートパソコン\n")
    }

    @Test func cellsAreOneLine() {
        var table = Table(columns: [.init("A"), .init("B")])
        table.append(["one\ntwo", "tab\there\u{7}"])
        #expect(table.render(width: 80) == "A        B\none two  tab here\n")
    }

    @Test func theWidthComesFromCOLUMNS() {
        #expect(Table.terminalWidth(variables: ["COLUMNS": "132"]) == 132)
        // Not a number, or not positive: the terminal's width or 80; never zero.
        #expect(Table.terminalWidth(variables: ["COLUMNS": "wide"]) > 0)
        #expect(Table.terminalWidth(variables: ["COLUMNS": "0"]) > 0)
    }
}
