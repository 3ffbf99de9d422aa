/// Area averaging ("box filter with exact coverage"): each output pixel is the mean of the source area it covers,
/// fractional pixels at its edges weighted by how much of them it covers. It is what photos need when made much
/// smaller: every source pixel counts, so fine detail averages out instead of aliasing into moiré.
///
/// Separable: each source row is reduced horizontally once (cached, since a row on a boundary feeds two output
/// rows), then the reduced rows are summed into output rows with their vertical weights.
///
/// - Complexity: O(source pixels + output pixels), two small weight tables, one output buffer.
/// - Threading: a pure function, safe from any thread; CPU work, keep it off the main actor.
enum AreaDownsizer {
    /// How one output coordinate gathers its source coordinates: `count` of them from `first`, their weights
    /// (summing to 1) at `offset` in ``weights``.
    struct Span {
        var first: Int
        var count: Int
        var offset: Int
    }

    /// The spans and weights mapping `source` coordinates onto `target` ones.
    static func spans(source: Int, target: Int) -> (spans: [Span], weights: [Float]) {
        let scale = Double(source) / Double(target)
        var spans = [Span]()
        spans.reserveCapacity(target)
        var weights = [Float]()
        weights.reserveCapacity(target * (Int(scale) + 2))
        for index in 0..<target {
            let low = Double(index) * scale
            let high = min(Double(index + 1) * scale, Double(source))
            let first = min(Int(low), source - 1)
            let last = max(min(Int(high.rounded(.up)) - 1, source - 1), first)
            let span = Span(first: first, count: last - first + 1, offset: weights.count)
            let total = high - low
            for position in first...last {
                let covered = min(high, Double(position + 1)) - max(low, Double(position))
                weights.append(Float(max(covered, 0) / total))
            }
            spans.append(span)
        }
        return (spans, weights)
    }

    /// `image` resized to `size` (each side at least 1). The same image when the size is unchanged.
    static func resize(_ image: RGBAImage, to size: ImageSize) -> RGBAImage {
        let targetWidth = max(size.width, 1)
        let targetHeight = max(size.height, 1)
        if targetWidth == image.width && targetHeight == image.height { return image }
        let (columns, columnWeights) = spans(source: image.width, target: targetWidth)
        let (rows, rowWeights) = spans(source: image.height, target: targetHeight)
        let sourceWidth = image.width

        var reduced = [Float](repeating: 0, count: targetWidth * 4)
        var accumulator = [Float](repeating: 0, count: targetWidth * 4)
        var reducedRow = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: targetWidth * targetHeight * 4) { output, count in
            image.pixels.withUnsafeBufferPointer { source in
                columnWeights.withUnsafeBufferPointer { columnWeights in
                    reduced.withUnsafeMutableBufferPointer { reduced in
                        accumulator.withUnsafeMutableBufferPointer { accumulator in
                            for (targetY, row) in rows.enumerated() {
                                for index in 0..<targetWidth * 4 { accumulator[index] = 0 }
                                for step in 0..<row.count {
                                    let sourceY = row.first + step
                                    if sourceY != reducedRow {
                                        reduceRow(
                                            source.baseAddress! + sourceY * sourceWidth * 4, columns: columns,
                                            weights: columnWeights, into: reduced)
                                        reducedRow = sourceY
                                    }
                                    let weight = rowWeights[row.offset + step]
                                    for index in 0..<targetWidth * 4 { accumulator[index] += reduced[index] * weight }
                                }
                                let line = output.baseAddress! + targetY * targetWidth * 4
                                for index in 0..<targetWidth * 4 {
                                    line[index] = UInt8(min(max(accumulator[index] + 0.5, 0), 255))
                                }
                            }
                        }
                    }
                }
            }
            count = targetWidth * targetHeight * 4
        }
        return RGBAImage(width: targetWidth, height: targetHeight, pixels: pixels)
    }

    /// One source row reduced to the output width, as floats.
    @inline(__always)
    private static func reduceRow(
        _ row: UnsafePointer<UInt8>, columns: [Span], weights: UnsafeBufferPointer<Float>,
        into reduced: UnsafeMutableBufferPointer<Float>
    ) {
        for (targetX, column) in columns.enumerated() {
            var red: Float = 0
            var green: Float = 0
            var blue: Float = 0
            var alpha: Float = 0
            var pixel = row + column.first * 4
            for step in 0..<column.count {
                let weight = weights[column.offset + step]
                red += Float(pixel[0]) * weight
                green += Float(pixel[1]) * weight
                blue += Float(pixel[2]) * weight
                alpha += Float(pixel[3]) * weight
                pixel += 4
            }
            reduced[targetX * 4] = red
            reduced[targetX * 4 + 1] = green
            reduced[targetX * 4 + 2] = blue
            reduced[targetX * 4 + 3] = alpha
        }
    }
}
