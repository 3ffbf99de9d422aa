import Testing
import TetherAPIs
import TetherTerminal

@testable import TetherCLI

/// The item screen's pictures: half-block thumbnails on each row and a large picture in the detail, a placeholder
/// while they load, none without colour, and loads of rows scrolled away cancelled.
@MainActor
@Suite struct ItemPicturesTests {
    /// The cells of `frame` that are half blocks in 24-bit colour.
    private func pictureCells(_ frame: ScreenBuffer) -> [Cell] {
        var cells: [Cell] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let cell = frame[x, y]
                if cell.character == "▀", case .rgb = cell.style.foreground { cells.append(cell) }
            }
        }
        return cells
    }

    @Test func rowsShowThumbnailsAndTheDetailALargePicture() async throws {
        let harness = try await AppHarness(colorMode: .trueColor)
        defer { Task { await harness.stop() } }
        harness.app.items.search("カメラ")
        // Placeholders first (drawing never waits), pictures when they arrive.
        await harness.waitFor("the results") { $0.contains("円") }
        await harness.waitFor("thumbnails") { _ in self.pictureCells(harness.frame).count >= 6 * 3 * 5 }
        let frame = harness.frame
        // A thumbnail is six columns by three rows at the start of its row.
        var thumbnailRows = 0
        for y in 0..<frame.height where (0..<6).allSatisfy({ frame[$0, y].character == "▀" }) { thumbnailRows += 1 }
        #expect(thumbnailRows >= 9)
        #expect(Set(pictureCells(frame).map(\.style)).count > 4, "the thumbnails are flat")

        harness.press(.enter)
        await harness.waitFor("the detail") { $0.contains("Shop: ") }
        await harness.waitFor("the large picture") { _ in self.pictureCells(harness.frame).count >= 20 * 10 }
        // A resize draws the picture again at the new size.
        harness.width = 120
        harness.height = 40
        await harness.waitFor("the larger picture") { _ in self.pictureCells(harness.frame).count >= 40 * 20 }
    }

    @Test func withoutColourTheRowsKeepTheirPlaceholders() async throws {
        let harness = try await AppHarness(colorMode: .monochrome)
        defer { Task { await harness.stop() } }
        harness.app.items.search("カメラ")
        let frame = await harness.waitFor("the results") { $0.contains("円") }
        #expect(frame.contains("░░░░ "))
        #expect(pictureCells(harness.frame).isEmpty)
        #expect(harness.app.context.thumbnails.loadCount == 0)
    }

    @Test func thumbnailURLsTakeTheAskedSize() {
        #expect(
            Thumbnails.url("http://127.0.0.1:3000/images/5?_ex=128x128", side: 300)
                == "http://127.0.0.1:3000/images/5?_ex=300x300")
        #expect(Thumbnails.url("https://x.test/a.jpg", side: 64) == "https://x.test/a.jpg?_ex=64x64")
    }
}
