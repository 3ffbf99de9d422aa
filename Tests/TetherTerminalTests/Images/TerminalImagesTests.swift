import CPNG
import Foundation
import Testing

@testable import TetherTerminal

/// Pictures in the terminal: half blocks in 24-bit, 256 and 16 colours, none without colour, the graphics
/// protocols' sequences, and how the terminal's way is chosen.
@Suite struct TerminalImagesTests {
    /// Two columns, three pixel rows: red over green, blue over transparent; white alone in the last row.
    private let pixels = TerminalPixels(
        width: 2, height: 3,
        rgba: [255, 0, 0, 255, 0, 0, 255, 255, 0, 255, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255])

    @Test func halfBlocksPutTheUpperPixelInFrontAndTheLowerBehind() {
        let rows = HalfBlockImage.cells(pixels, background: (10, 20, 30))
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 2 })
        #expect(rows[0][0] == Cell("▀", style: TextStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 255, 0))))
        // A transparent pixel shows the background.
        #expect(rows[0][1].style == TextStyle(foreground: .rgb(0, 0, 255), background: .rgb(10, 20, 30)))
        // An odd last row: the lower half is the background.
        #expect(rows[1][0].style == TextStyle(foreground: .rgb(255, 255, 255), background: .rgb(10, 20, 30)))
    }

    @Test func ansiWritesTheColoursTheTerminalHas() {
        let trueColor = String(decoding: HalfBlockImage.ansi(pixels, colorMode: .trueColor), as: UTF8.self)
        #expect(trueColor.hasPrefix("\u{1B}[0;38;2;255;0;0;48;2;0;255;0m▀"))
        #expect(trueColor.components(separatedBy: "\n").count == 3)
        #expect(trueColor.hasSuffix("\u{1B}[0m\n"))
        let palette = String(decoding: HalfBlockImage.ansi(pixels, colorMode: .palette256), as: UTF8.self)
        #expect(palette.hasPrefix("\u{1B}[0;38;5;196;48;5;46m▀"))
        let named = String(decoding: HalfBlockImage.ansi(pixels, colorMode: .basic16), as: UTF8.self)
        #expect(named.hasPrefix("\u{1B}[0;91;102m▀"))
        #expect(HalfBlockImage.ansi(pixels, colorMode: .monochrome).isEmpty)
    }

    @Test func rgbColoursMapToTheNearestPaletteEntry() {
        #expect(ColorMode.nearestPaletteIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(ColorMode.nearestPaletteIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(ColorMode.nearestPaletteIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(ColorMode.nearestPaletteIndex(red: 128, green: 128, blue: 128) == 244)
        #expect(ColorMode.nearestPaletteIndex(red: 95, green: 135, blue: 175) == 67)
    }

    @Test func theScreenBufferTakesImageCells() {
        var buffer = ScreenBuffer(width: 4, height: 2)
        buffer.drawImage(HalfBlockImage.cells(pixels), x: 3, y: 1)  // clipped at the right and the bottom
        #expect(buffer[3, 1].character == "▀")
        #expect(buffer[3, 1].style.foreground == .rgb(255, 0, 0))
        #expect(buffer[2, 1] == .blank && buffer[3, 0] == .blank)
        var renderer = ScreenRenderer(colorMode: .trueColor)
        let bytes = String(decoding: renderer.render(buffer), as: UTF8.self)
        #expect(bytes.contains("38;2;255;0;0;48;2;0;255;0m▀"))
    }

    @Test func detectionFollowsTheEnvironmentThenTheReply() {
        func detect(_ environment: [String: String], _ mode: ColorMode = .trueColor, reply: String? = nil)
            -> TerminalGraphics
        {
            TerminalGraphics.detect(environment: environment, colorMode: mode, queryReply: reply.map { Array($0.utf8) })
        }
        #expect(detect(["TERM": "xterm-kitty"], .monochrome) == .none)
        #expect(detect(["TERM": "xterm-kitty"]) == .kitty)
        #expect(detect(["KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(detect(["TERM_PROGRAM": "iTerm.app"]) == .iTerm2)
        #expect(detect(["TERM_PROGRAM": "WezTerm"]) == .iTerm2)
        #expect(detect(["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1/default,1,0"]) == .halfBlocks(.trueColor))
        #expect(detect(["TERM": "xterm-256color"], .palette256) == .halfBlocks(.palette256))
        #expect(detect(["TETHER_IMAGES": "sixel"]) == .sixel)
        #expect(detect(["TETHER_IMAGES": "none", "TERM": "xterm-kitty"]) == .none)
        #expect(detect(["TERM": "xterm"], reply: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c") == .kitty)
        #expect(detect(["TERM": "xterm"], reply: "\u{1B}[?63;1;2;4;6;9;15;22c") == .sixel)
        #expect(detect(["TERM": "xterm"], reply: "\u{1B}[?62;22c") == .halfBlocks(.trueColor))
        #expect(detect(["TERM": "xterm"], reply: "") == .halfBlocks(.trueColor))
    }

    @Test func theQueryEndsWithTheDeviceAttributesReply() {
        #expect(String(decoding: TerminalGraphics.query, as: UTF8.self).hasSuffix("\u{1B}[c"))
        #expect(TerminalGraphics.isComplete(Array("\u{1B}[?62;4c".utf8)))
        #expect(!TerminalGraphics.isComplete(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;".utf8)))
    }

    @Test func kittySendsBase64RGBAInChunks() throws {
        let big = TerminalPixels(width: 40, height: 40, rgba: [UInt8](repeating: 200, count: 40 * 40 * 4))
        let text = String(decoding: KittyGraphics.sequence(big, columns: 10, rows: 0), as: UTF8.self)
        let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        #expect(chunks.count == 3)  // 6400 bytes are 8536 base64 characters: 4096 + 4096 + 344
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=32,s=40,v=40,q=2,c=10,m=1;"))
        #expect(chunks[1].hasPrefix("\u{1B}_Gm=1;") && chunks[2].hasPrefix("\u{1B}_Gm=0;"))
        let payload = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }.joined()
        #expect(Data(base64Encoded: payload) == Data(big.rgba))
    }

    @Test func iTermSendsAPNGFile() throws {
        let text = String(decoding: ITermGraphics.sequence(pixels, columns: 5), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(text.contains(";width=5;preserveAspectRatio=1:") && text.hasSuffix("\u{07}"))
        let base64 = String(text.dropLast().split(separator: ":").last!)
        let png = try #require(Data(base64Encoded: base64))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // libpng reads back the same pixels, RGBA.
        let decoder = try #require(tether_png_decoder_create())
        defer { tether_png_decoder_destroy(decoder) }
        let bytes = [UInt8](png)
        try bytes.withUnsafeBufferPointer { buffer in
            try #require(tether_png_decoder_begin(decoder, buffer.baseAddress, buffer.count, 1_000, 0) == 0)
            #expect(Int(decoder.pointee.width) == pixels.width && Int(decoder.pointee.height) == pixels.height)
            #expect(decoder.pointee.color_type == PNG_COLOR_TYPE_RGB_ALPHA)
            var rgba = [UInt8](repeating: 0, count: pixels.width * pixels.height * 4)
            try #require(tether_png_decoder_read(decoder, &rgba, pixels.width * 4) == 0)
            #expect(rgba == pixels.rgba)
        }
    }

    @Test func sixelsAreOneBandPerSixRows() {
        let text = String(decoding: SixelEncoder.sequence(pixels), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}Pq\"1;1;2;3"))
        #expect(text.hasSuffix("-\u{1B}\\"))
        #expect(text.contains("#180;2;100;0;0"))  // pure red is cube entry 5 × 36
        let wide = TerminalPixels(width: 10, height: 7, rgba: [UInt8](repeating: 255, count: 10 * 7 * 4))
        let runs = String(decoding: SixelEncoder.sequence(wide), as: UTF8.self)
        #expect(runs.contains("!10~") && runs.contains("!10@"))  // two bands: six rows, then one
    }
}
