import Testing

@testable import TetherImages

/// Area averaging: exact coverage weights, flat colours unchanged, fine detail averaged instead of aliased.
@Suite struct AreaDownsizerTests {
    private func image(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels = [UInt8]()
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func weightsCoverEachSourcePixelExactlyOnce() {
        let (spans, weights) = AreaDownsizer.spans(source: 3, target: 2)
        // 3 → 2: output 0 covers pixel 0 and half of pixel 1; output 1 the other half and pixel 2.
        #expect(spans.map(\.first) == [0, 1])
        #expect(spans.map(\.count) == [2, 2])
        #expect(weights.map { ($0 * 3).rounded() } == [2, 1, 1, 2])
        for target in [1, 7, 64, 128] {
            let (spans, weights) = AreaDownsizer.spans(source: 1000, target: target)
            for span in spans {
                let total = weights[span.offset..<(span.offset + span.count)].reduce(0, +)
                #expect(abs(total - 1) < 0.0001)
            }
        }
    }

    @Test func aCheckerboardAveragesToGrey() {
        let checker = image(width: 64, height: 64) { x, y in (x + y) % 2 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        let small = AreaDownsizer.resize(checker, to: ImageSize(width: 7, height: 5))
        #expect(small.size == ImageSize(width: 7, height: 5))
        for value in stride(from: 0, to: small.pixels.count, by: 4).map({ small.pixels[$0] }) {
            #expect(abs(Int(value) - 128) <= 12)  // no aliasing into black or white blocks
        }
    }

    @Test func aFlatImageStaysFlatAndTheSameSizeIsTheSameImage() {
        let flat = image(width: 33, height: 17) { _, _ in [10, 100, 200, 50] }
        let small = AreaDownsizer.resize(flat, to: ImageSize(width: 5, height: 3))
        #expect(small.pixels == Array([[UInt8]](repeating: [10, 100, 200, 50], count: 15).joined()))
        #expect(AreaDownsizer.resize(flat, to: flat.size) == flat)
    }

    @Test func halvingAveragesEachBlock() {
        let source = image(width: 4, height: 2) { x, _ in [UInt8(x * 60), 0, 0, 255] }
        let half = AreaDownsizer.resize(source, to: ImageSize(width: 2, height: 1))
        #expect(half.pixels == [30, 0, 0, 255, 150, 0, 0, 255])
    }

    @Test(arguments: [
        (1000, 1000, 128, 128, 128, 128), (1000, 500, 128, 128, 128, 64), (500, 1000, 128, 128, 64, 128),
        (50, 40, 128, 128, 50, 40), (1000, 1, 64, 64, 64, 1), (300, 200, 64, 0, 64, 43),
    ])
    func fittingKeepsTheAspectRatio(
        width: Int, height: Int, boxWidth: Int, boxHeight: Int, fittedWidth: Int, fittedHeight: Int
    ) {
        let fitted = ImageSize(width: width, height: height).fitting(in: ImageSize(width: boxWidth, height: boxHeight))
        #expect(fitted == ImageSize(width: fittedWidth, height: fittedHeight))
    }
}
