import TetherTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain-text table fitted to a terminal width: a header row, then one line per row, columns separated by two
/// spaces, measured in terminal columns (a Japanese character takes two) and truncated with `…`.
///
/// ```swift
/// @testable import TetherCLI
///
/// var table = Table(columns: [
///     .init("ID", alignment: .right),
///     .init("TITLE", minWidth: 10, flexible: true),
/// ])
/// table.append(["1", "sunt aut facere repellat provident occaecati"])
/// print(table.render(width: 40))
/// // ID  TITLE
/// //  1  sunt aut facere repellat provident…
/// ```
///
/// Fitting: each column starts at its natural width (its widest cell or title, at most ``Column/maxWidth``).
/// When the line is too wide, the flexible columns give up columns first, the widest first, down to their
/// ``Column/minWidth``; then the other columns do. A width too small even for the minimums cuts each line at the
/// width. No line is wider than the width, and none ends with spaces. Truncation and measuring are
/// TetherTerminal's (``TextLayout/truncate(_:toColumns:ellipsis:)``, `terminalColumns`).
///
/// Cells are one line: line breaks and tabs become spaces, other control characters are dropped.
///
/// - Complexity: O(cells) to render.
struct Table {
    /// How a column places text narrower than the column.
    enum Alignment: Sendable {
        case left
        case right
    }

    /// One column: its title and how it may be sized.
    struct Column: Sendable {
        var title: String
        var alignment: Alignment
        /// The narrowest the column becomes when the table must shrink (at least 1).
        var minWidth: Int
        /// The widest the column becomes, `nil` for its widest cell.
        var maxWidth: Int?
        /// Whether the column gives up width before the others.
        var flexible: Bool

        init(
            _ title: String, alignment: Alignment = .left, minWidth: Int = 1, maxWidth: Int? = nil,
            flexible: Bool = false
        ) {
            self.title = title
            self.alignment = alignment
            self.minWidth = max(1, minWidth)
            self.maxWidth = maxWidth
            self.flexible = flexible
        }
    }

    /// The columns.
    var columns: [Column]
    /// The rows, each with one cell per column (missing cells are empty, extra ones ignored).
    private(set) var rows: [[String]] = []
    /// Whether ``render(width:)`` starts with the titles.
    var showsHeader = true
    /// Between two columns.
    static let separator = "  "

    init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row.
    mutating func append(_ cells: [String]) {
        rows.append(cells.map(Self.singleLine))
    }

    /// The column widths for `width` terminal columns, by the rules in the type's description.
    ///
    /// - Complexity: O(cells) to measure, then O(columns) per column of excess width.
    func widths(fitting width: Int) -> [Int] {
        var widths = columns.indices.map { index in
            var natural = showsHeader ? columns[index].title.terminalColumns : 0
            for row in rows where index < row.count { natural = max(natural, row[index].terminalColumns) }
            return min(natural, columns[index].maxWidth ?? natural)
        }
        let floors = columns.indices.map { min(columns[$0].minWidth, widths[$0]) }
        var excess = widths.reduce(0, +) + Self.separator.count * max(0, columns.count - 1) - width
        for flexibleFirst in [true, false] {
            let candidates = columns.indices.filter { columns[$0].flexible == flexibleFirst }
            // One column at a time from the widest column that can still shrink.
            while excess > 0,
                let widest = candidates.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] })
            {
                widths[widest] -= 1
                excess -= 1
            }
        }
        return widths
    }

    /// The table as lines fitted to `width` (at least 1), each ending with a newline.
    func render(width: Int) -> String {
        let width = max(1, width)
        let widths = widths(fitting: width)
        var lines: [String] = []
        if showsHeader { lines.append(line(columns.map(\.title), widths: widths)) }
        for row in rows { lines.append(line(row, widths: widths)) }
        return lines.map { TextLayout.truncate($0, toColumns: width) + "\n" }.joined()
    }

    /// One line: each cell truncated and padded to its column, without trailing spaces.
    private func line(_ cells: [String], widths: [Int]) -> String {
        var text = ""
        for index in columns.indices {
            let cell = TextLayout.truncate(index < cells.count ? cells[index] : "", toColumns: widths[index])
            let padding = String(repeating: " ", count: max(0, widths[index] - cell.terminalColumns))
            if index > 0 { text += Self.separator }
            text += columns[index].alignment == .right ? padding + cell : cell + padding
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    // MARK: - Text helpers

    /// `text` on one line: line breaks and tabs as spaces, other control characters dropped.
    static func singleLine(_ text: String) -> String {
        guard
            text.contains(where: {
                $0.isNewline || $0 == "\t" || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false)
            })
        else { return text }
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F {
                continue
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: - The terminal's width

    /// The width to fit output to: `COLUMNS` when it is a positive number, else standard output's terminal width
    /// (`TIOCGWINSZ`), else 80.
    static func terminalWidth(variables: [String: String]) -> Int {
        if let text = variables["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
