import CPNG
import Foundation
import Testing
import TetherTestSupport

@testable import TetherImages

/// JPEG through libjpeg-turbo: DCT scaling to the smallest scale that covers the target, colours, grey and
/// progressive files, and damaged files as typed errors.
@Suite struct JPEGDecodingTests {
    @Test(arguments: [
        (1000, 1000, 128, 2), (1000, 1000, 64, 1), (1000, 1000, 600, 5), (1000, 500, 128, 2), (100, 100, 100, 8),
        (100, 100, 200, 8), (1024, 1024, 128, 1),
    ])
    func theScaleIsTheSmallestCoveringTheTarget(side: Int, otherSide: Int, target: Int, numerator: Int) {
        let original = ImageSize(width: side, height: otherSide)
        let fitted = original.fitting(in: ImageSize(width: target, height: target))
        #expect(JPEGDecoder.scaleNumerator(original: original, target: fitted) == numerator)
    }

    @Test func aPhotoIsDecodedToTheFittedSize() throws {
        let data = try ImageFixtures.jpegPhoto(width: 1000, height: 1000)
        let thumbnail = try ImageDecoder.decode(data, fitting: ImageSize(width: 128, height: 128))
        #expect(thumbnail.size == ImageSize(width: 128, height: 128))
        let small = try ImageDecoder.decode(data, fitting: ImageSize(width: 64, height: 64))
        #expect(small.size == ImageSize(width: 64, height: 64))
        // The disc in the middle is red; the corner at the top left dark blue-ish (x = y = 0).
        let centre = thumbnail[x: 64, y: 64]
        #expect(centre.red > 190 && centre.green < 90 && centre.blue < 80 && centre.alpha == 255)
        let corner = thumbnail[x: 0, y: 0]
        #expect(corner.red < 30 && corner.green < 30 && corner.blue > 100)
    }

    @Test func theAspectRatioIsKeptAndNothingIsEnlarged() throws {
        let wide = try ImageFixtures.jpegPhoto(width: 400, height: 200)
        #expect(
            try ImageDecoder.decode(wide, fitting: ImageSize(width: 100, height: 100)).size
                == .init(width: 100, height: 50))
        let small = try ImageFixtures.jpegPhoto(width: 40, height: 30)
        #expect(
            try ImageDecoder.decode(small, fitting: ImageSize(width: 100, height: 100)).size
                == .init(width: 40, height: 30))
        #expect(try ImageDecoder.decode(small).size == .init(width: 40, height: 30))
    }

    @Test func solidColoursSurvive() throws {
        let data = try ImageFixtures.jpeg(
            ImageFixtures.solid(width: 64, height: 48, [20, 200, 90]), width: 64, height: 48)
        let image = try ImageDecoder.decode(data, fitting: ImageSize(width: 16, height: 16))
        #expect(image.size == ImageSize(width: 16, height: 12))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x: x, y: y]
                #expect(abs(Int(pixel.red) - 20) <= 4 && abs(Int(pixel.green) - 200) <= 4)
                #expect(abs(Int(pixel.blue) - 90) <= 4 && pixel.alpha == 255)
            }
        }
    }

    @Test func greyAndProgressiveFilesDecode() throws {
        let grey = try ImageFixtures.jpeg(
            ImageFixtures.solid(width: 32, height: 32, [150]), width: 32, height: 32, components: 1)
        let pixel = try ImageDecoder.decode(grey)[x: 5, y: 5]
        #expect(abs(Int(pixel.red) - 150) <= 2 && pixel.red == pixel.green && pixel.green == pixel.blue)
        let progressive = try ImageFixtures.jpegPhoto(width: 300, height: 200, progressive: true)
        #expect(
            try ImageDecoder.decode(progressive, fitting: ImageSize(width: 64, height: 64)).size
                == .init(width: 64, height: 43))
    }

    @Test(arguments: [0.2, 0.5, 0.9])
    func aTruncatedFileIsInvalidData(keeping fraction: Double) throws {
        let data = try ImageFixtures.jpegPhoto(width: 200, height: 200)
        let truncated = data.prefix(Int(Double(data.count) * fraction))
        #expect {
            try ImageDecoder.decode(Data(truncated), fitting: ImageSize(width: 32, height: 32))
        } throws: { error in
            guard case .invalidData(let reason) = (error as? ImageError)?.kind else { return false }
            return !reason.isEmpty
        }
    }

    @Test func corruptDataIsInvalidData() throws {
        var bytes = [UInt8](try ImageFixtures.jpegPhoto(width: 200, height: 200))
        // Scramble the entropy-coded data after the headers, keep the end marker.
        for index in stride(from: bytes.count / 2, to: bytes.count - 2, by: 7) { bytes[index] ^= 0x5A }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(Data(bytes)) }
        // Only the signature: no frame at all.
        #expect(throws: ImageError.self) { try ImageDecoder.decode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])) }
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let bomb = ImageFixtures.patchingJPEGSize(
            try ImageFixtures.jpegPhoto(width: 16, height: 16), width: 60000, height: 60000)
        #expect {
            try ImageDecoder.decode(bomb, fitting: ImageSize(width: 64, height: 64))
        } throws: { error in
            (error as? ImageError)?.kind
                == .tooManyPixels(width: 60000, height: 60000, limit: ImageDecoder.defaultMaximumPixelCount)
        }
        let photo = try ImageFixtures.jpegPhoto(width: 200, height: 200)
        #expect(throws: ImageError.self) { try ImageDecoder.decode(photo, maximumPixelCount: 10_000) }
    }

    @Test func otherBytesAreAnUnsupportedFormat() {
        for bytes in [[], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], Array("<html>".utf8)] as [[UInt8]] {
            #expect {
                try ImageDecoder.decode(Data(bytes))
            } throws: { error in
                (error as? ImageError)?.kind == .unsupportedFormat
            }
        }
    }
}
