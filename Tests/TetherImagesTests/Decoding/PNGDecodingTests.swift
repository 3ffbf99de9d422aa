import CPNG
import Foundation
import Testing
import TetherTestSupport

@testable import TetherImages

/// PNG through libpng: every colour type into RGBA, exactly (PNG is lossless), and damaged files as typed errors.
@Suite struct PNGDecodingTests {
    /// Decodes `data` at full size and compares it with `expected` RGBA pixels.
    private func expectPixels(_ data: Data, _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let image = try ImageDecoder.decode(data)
        #expect(image.pixels == expected, sourceLocation: sourceLocation)
    }

    @Test func rgbAndRGBA() throws {
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
        try expectPixels(
            try ImageFixtures.png(rgb, width: 2, height: 2),
            [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255])
        let rgba: [UInt8] = [255, 0, 0, 0, 0, 255, 0, 128, 1, 2, 3, 4, 9, 9, 9, 255]
        try expectPixels(
            try ImageFixtures.png(rgba, width: 2, height: 2, colorType: PNG_COLOR_TYPE_RGB_ALPHA), rgba)
    }

    @Test func greyOfEveryDepth() throws {
        try expectPixels(
            try ImageFixtures.png([0, 200], width: 2, height: 1, colorType: PNG_COLOR_TYPE_GRAY),
            [0, 0, 0, 255, 200, 200, 200, 255])
        // 1 bit: 0b1010_0000 is white, black, white, black.
        try expectPixels(
            try ImageFixtures.png([0b1010_0000], width: 4, height: 1, bitDepth: 1, colorType: PNG_COLOR_TYPE_GRAY),
            [255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255])
        // 16-bit grey with alpha: big-endian samples, scaled to 8 bits.
        try expectPixels(
            try ImageFixtures.png(
                [0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0xFF, 0xFF], width: 2, height: 1, bitDepth: 16,
                colorType: PNG_COLOR_TYPE_GRAY_ALPHA),
            [255, 255, 255, 128, 0, 0, 0, 255])
    }

    @Test func sixteenBitRGB() throws {
        try expectPixels(
            try ImageFixtures.png([0x12, 0x34, 0xFF, 0xFF, 0x00, 0x01], width: 1, height: 1, bitDepth: 16),
            [0x12, 0xFF, 0x00, 255])
    }

    @Test func paletteWithTransparency() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 0, 255, 7, 8, 9]
        // 4-bit indices 0, 1, 2, 1.
        let data = try ImageFixtures.png(
            [0x01, 0x21], width: 4, height: 1, bitDepth: 4, colorType: PNG_COLOR_TYPE_PALETTE, palette: palette,
            transparency: [255, 0])
        try expectPixels(data, [255, 0, 0, 255, 0, 0, 255, 0, 7, 8, 9, 255, 0, 0, 255, 0])
    }

    @Test func interlacedMatchesPlain() throws {
        let pixels = ImageFixtures.photoRGB(width: 37, height: 23)
        let plain = try ImageDecoder.decode(try ImageFixtures.png(pixels, width: 37, height: 23))
        let interlaced = try ImageDecoder.decode(try ImageFixtures.png(pixels, width: 37, height: 23, interlaced: true))
        #expect(plain == interlaced)
        #expect(plain[x: 3, y: 4].red == pixels[(4 * 37 + 3) * 3])
    }

    @Test func aPhotoIsDownsizedToTheFittedSize() throws {
        let data = try ImageFixtures.pngPhoto(width: 1000, height: 800)
        let image = try ImageDecoder.decode(data, fitting: ImageSize(width: 128, height: 128))
        #expect(image.size == ImageSize(width: 128, height: 102))
        let centre = image[x: 64, y: 51]
        #expect(centre.red > 200 && centre.green < 80)
    }

    @Test(arguments: [8, 40, 200, 0.5, 0.97] as [Double])
    func aTruncatedFileIsInvalidData(keeping amount: Double) throws {
        let data = try ImageFixtures.pngPhoto(width: 120, height: 80)
        let count = amount < 1 ? Int(Double(data.count) * amount) : Int(amount)
        #expect {
            try ImageDecoder.decode(Data(data.prefix(count)))
        } throws: { error in
            guard case .invalidData = (error as? ImageError)?.kind else { return false }
            return true
        }
    }

    /// Every colour type, decoded and downsized row by row, gives what a full decode and then ``AreaDownsizer``
    /// give.
    @Test(arguments: ["rgb", "rgba", "grey", "palette", "rgb16", "interlaced"])
    func downsizingWhileReadingMatchesResizingTheWholeImage(kind: String) throws {
        let (width, height) = (301, 203)
        let photo = ImageFixtures.photoRGB(width: width, height: height)
        let data: Data
        switch kind {
        case "rgba":
            var rgba: [UInt8] = []
            for (index, value) in photo.enumerated() {
                rgba.append(value)
                if index % 3 == 2 { rgba.append(UInt8(truncatingIfNeeded: index / 3 * 7)) }
            }
            data = try ImageFixtures.png(rgba, width: width, height: height, colorType: PNG_COLOR_TYPE_RGB_ALPHA)
        case "grey":
            let grey = stride(from: 0, to: photo.count, by: 3).map { photo[$0] }
            data = try ImageFixtures.png(grey, width: width, height: height, colorType: PNG_COLOR_TYPE_GRAY)
        case "palette":
            let indices = stride(from: 0, to: photo.count, by: 3).map { photo[$0] / 64 }
            data = try ImageFixtures.png(
                indices, width: width, height: height, colorType: PNG_COLOR_TYPE_PALETTE,
                palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9], transparency: [255, 128])
        case "rgb16":
            data = try ImageFixtures.png(photo.flatMap { [$0, 0x7F] }, width: width, height: height, bitDepth: 16)
        case "interlaced":
            data = try ImageFixtures.png(photo, width: width, height: height, interlaced: true)
        default:
            data = try ImageFixtures.png(photo, width: width, height: height)
        }
        for box in [
            ImageSize(width: 64, height: 64), ImageSize(width: 128, height: 100), ImageSize(width: 300, height: 300),
        ] {
            let streamed = try ImageDecoder.decode(data, fitting: box)
            let whole = try ImageDecoder.decode(data)
            let expected = AreaDownsizer.resize(whole, to: whole.size.fitting(in: box))
            #expect(streamed.size == expected.size, "\(kind) \(box)")
            #expect(streamed.pixels == expected.pixels, "\(kind) \(box)")
        }
        // A box larger than the image: the image itself.
        #expect(try ImageDecoder.decode(data, fitting: ImageSize(width: 999, height: 999)) == ImageDecoder.decode(data))
    }

    @Test(arguments: [40, 0.3, 0.9, 0.995] as [Double])
    func aTruncatedFileIsInvalidDataWhenDownsizedToo(keeping amount: Double) throws {
        let data = try ImageFixtures.pngPhoto(width: 300, height: 200)
        let count = amount < 1 ? Int(Double(data.count) * amount) : Int(amount)
        #expect {
            try ImageDecoder.decode(Data(data.prefix(count)), fitting: ImageSize(width: 64, height: 64))
        } throws: { error in
            guard case .invalidData = (error as? ImageError)?.kind else { return false }
            return true
        }
    }

    @Test func aBadChecksumIsInvalidDataWhenDownsizedToo() throws {
        var bytes = [UInt8](try ImageFixtures.pngPhoto(width: 200, height: 200))
        bytes[bytes.count / 2] ^= 0xFF
        #expect(throws: ImageError.self) {
            try ImageDecoder.decode(Data(bytes), fitting: ImageSize(width: 64, height: 64))
        }
    }

    @Test func aBadChecksumIsInvalidData() throws {
        var bytes = [UInt8](try ImageFixtures.pngPhoto(width: 40, height: 40))
        bytes[bytes.count / 2] ^= 0xFF
        #expect(throws: ImageError.self) { try ImageDecoder.decode(Data(bytes)) }
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let bomb = ImageFixtures.patchingPNGSize(
            try ImageFixtures.pngPhoto(width: 16, height: 16), width: 100_000, height: 100_000)
        #expect {
            try ImageDecoder.decode(bomb, fitting: ImageSize(width: 64, height: 64))
        } throws: { error in
            (error as? ImageError)?.kind
                == .tooManyPixels(width: 100_000, height: 100_000, limit: ImageDecoder.defaultMaximumPixelCount)
        }
    }
}
