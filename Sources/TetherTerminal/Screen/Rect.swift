/// A rectangle of cells on the screen, in columns and rows from the top-left corner (0, 0).
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// This rectangle shrunk by `insets` on every side (never below zero size).
    public func inset(by insets: Int) -> Rect {
        Rect(x: x + insets, y: y + insets, width: width - 2 * insets, height: height - 2 * insets)
    }

    /// The top `rows` rows, and the rest below them.
    public func split(top rows: Int) -> (top: Rect, rest: Rect) {
        let rows = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: rows),
            Rect(x: x, y: y + rows, width: width, height: height - rows)
        )
    }

    /// The bottom `rows` rows, and the rest above them.
    public func split(bottom rows: Int) -> (rest: Rect, bottom: Rect) {
        let rows = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: height - rows),
            Rect(x: x, y: maxY - rows, width: width, height: rows)
        )
    }
}
