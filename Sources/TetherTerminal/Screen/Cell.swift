/// One character cell of the screen.
///
/// A two-column character occupies its cell and the next; the next cell is then a *continuation*
/// (``isContinuation``), drawn by the terminal as part of the first and skipped by the renderer.
public struct Cell: Sendable, Hashable {
    /// The character drawn in the cell; a space for an empty cell.
    public var character: Character
    public var style: TextStyle
    /// Whether this cell is the right half of the two-column character in the cell to its left.
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: TextStyle = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    /// An empty cell in the plain style.
    public static let blank = Cell()
}
