import TetherJSON

/// A collection's elements in chunks of ``chunkSize``, so that a version made by changing one element shares all
/// other chunks with the version before it.
///
/// Readers keep the version they took while a write builds the next one, so a write copies what it changes.
/// With one flat array a PATCH of one item in 100,000 copied (and later released) 100,000 elements; here it
/// copies the list of chunks and one chunk.
///
/// Invariant: every chunk but the last holds exactly ``chunkSize`` elements, so a position finds its chunk by
/// division.
struct ChunkedArray: Sendable, RandomAccessCollection {
    static let chunkSize = 512

    private var chunks: [[JSON]]
    /// The number of elements.
    private(set) var count: Int

    init(_ elements: [JSON]) {
        count = elements.count
        chunks = stride(from: 0, to: elements.count, by: Self.chunkSize).map {
            Array(elements[$0..<Swift.min($0 + Self.chunkSize, elements.count)])
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The element at `position` (0 ≤ position < count).
    ///
    /// - Complexity: reading O(1); writing copies the list of chunks and one chunk when they are shared.
    subscript(position: Int) -> JSON {
        get { chunks[position / Self.chunkSize][position % Self.chunkSize] }
        set { chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue }
    }

    /// Adds `element` at the end.
    mutating func append(_ element: JSON) {
        if let last = chunks.indices.last, chunks[last].count < Self.chunkSize {
            chunks[last].append(element)
        } else {
            chunks.append([element])
        }
        count += 1
    }

    /// The elements as one array.
    ///
    /// - Complexity: O(n).
    var elements: [JSON] {
        var elements: [JSON] = []
        elements.reserveCapacity(count)
        for chunk in chunks { elements.append(contentsOf: chunk) }
        return elements
    }
}
