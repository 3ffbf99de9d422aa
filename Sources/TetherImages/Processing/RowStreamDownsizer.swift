/// ``AreaDownsizer``'s area averaging, fed one source row at a time, top to bottom: for decoders that produce rows
/// (PNG), so a large image is never held whole. Each row is reduced horizontally once and added to the output rows
/// it covers with their weights.
///
/// Rows may be RGBA or RGB (opaque, alpha 255); the output is RGBA.
///
/// - Complexity: O(source pixels + output pixels); memory: the output's size in floats, and two weight tables.
/// - Threading: a value; use one from one thread at a time.
struct RowStreamDownsizer {
    let sourceWidth: Int
    let sourceHeight: Int
    let target: ImageSize
    /// Bytes per pixel of the rows given: 3 or 4.
    let channels: Int
    private let columns: [AreaDownsizer.Span]
    private let columnWeights: [Float]
    /// For each source row, the output rows it feeds and its weight in each: `contributions[rowStart[y]..<rowStart[y + 1]]`.
    private let contributions: [(targetRow: Int, weight: Float)]
    private let rowStart: [Int]
    private var accumulator: [Float]
    private var reduced: [Float]
    private var nextRow = 0

    init(sourceWidth: Int, sourceHeight: Int, target: ImageSize, channels: Int) {
        precondition(channels == 3 || channels == 4)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.target = ImageSize(width: max(target.width, 1), height: max(target.height, 1))
        self.channels = channels
        (columns, columnWeights) = AreaDownsizer.spans(source: sourceWidth, target: self.target.width)
        let (rows, rowWeights) = AreaDownsizer.spans(source: sourceHeight, target: self.target.height)
        var bySource = [[(Int, Float)]](repeating: [], count: sourceHeight)
        for (targetRow, span) in rows.enumerated() {
            for step in 0..<span.count {
                bySource[span.first + step].append((targetRow, rowWeights[span.offset + step]))
            }
        }
        var start = [0]
        start.reserveCapacity(sourceHeight + 1)
        for list in bySource { start.append(start.last! + list.count) }
        contributions = bySource.flatMap { $0 }
        rowStart = start
        accumulator = [Float](repeating: 0, count: self.target.width * self.target.height * 4)
        reduced = [Float](repeating: 0, count: self.target.width * 4)
    }

    /// Adds the next source row (`sourceWidth` × `channels` bytes).
    mutating func add(row: UnsafePointer<UInt8>) {
        guard nextRow < sourceHeight else { return }
        let width = target.width
        let channels = channels
        reduced.withUnsafeMutableBufferPointer { reduced in
            columnWeights.withUnsafeBufferPointer { weights in
                for (targetX, column) in columns.enumerated() {
                    var red: Float = 0
                    var green: Float = 0
                    var blue: Float = 0
                    var alpha: Float = 0
                    var pixel = row + column.first * channels
                    for step in 0..<column.count {
                        let weight = weights[column.offset + step]
                        red += Float(pixel[0]) * weight
                        green += Float(pixel[1]) * weight
                        blue += Float(pixel[2]) * weight
                        alpha += (channels == 4 ? Float(pixel[3]) : 255) * weight
                        pixel += channels
                    }
                    reduced[targetX * 4] = red
                    reduced[targetX * 4 + 1] = green
                    reduced[targetX * 4 + 2] = blue
                    reduced[targetX * 4 + 3] = alpha
                }
            }
            accumulator.withUnsafeMutableBufferPointer { accumulator in
                for index in rowStart[nextRow]..<rowStart[nextRow + 1] {
                    let (targetRow, weight) = contributions[index]
                    let line = accumulator.baseAddress! + targetRow * width * 4
                    for value in 0..<width * 4 { line[value] += reduced[value] * weight }
                }
            }
        }
        nextRow += 1
    }

    /// The output, once every source row was added.
    func finish() -> RGBAImage {
        let count = target.width * target.height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            accumulator.withUnsafeBufferPointer { accumulator in
                for index in 0..<count { output[index] = UInt8(min(max(accumulator[index] + 0.5, 0), 255)) }
            }
            initialized = count
        }
        return RGBAImage(width: target.width, height: target.height, pixels: pixels)
    }
}
