/// How many colours the terminal can show, which decides how ``ScreenRenderer`` writes a ``TextStyle``.
///
/// ```swift
/// import Foundation
/// import TetherTerminal
///
/// let mode = ColorMode.detect(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(1) == 1)
/// ```
///
/// Under ``monochrome`` colours are dropped and the attributes (bold, dim, italic, underline, reverse) kept; under
/// ``basic16`` a ``TerminalColor/palette(_:)`` colour is shown as the nearest of the sixteen named colours.
public enum ColorMode: Sendable, Hashable, CaseIterable {
    /// No colours: attributes only (`NO_COLOR`, `TERM=dumb`, output that is not a terminal).
    case monochrome
    /// The sixteen named colours, which every colour terminal has.
    case basic16
    /// The 256-colour palette (`TERM=xterm-256color`).
    case palette256
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`): ``TerminalColor/rgb(_:_:_:)`` exactly, everything else as
    /// under ``palette256``.
    case trueColor

    /// The mode for a terminal described by `environment`, following <https://no-color.org>.
    ///
    /// - `NO_COLOR` set to any non-empty value, output that is not a terminal, or `TERM=dumb`: ``monochrome``;
    /// - `COLORTERM` set to `truecolor` or `24bit`: ``trueColor``;
    /// - `COLORTERM` containing `256`, or `TERM` containing `256color`: ``palette256``;
    /// - anything else: ``basic16``.
    public static func detect(environment: [String: String], isTerminal: Bool) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        guard isTerminal else { return .monochrome }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .monochrome }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if colorTerm.contains("256") { return .palette256 }
        if term.contains("256color") { return .palette256 }
        return .basic16
    }
}

extension ColorMode {
    /// Appends the SGR sequence that sets `style` from scratch (`ESC [0;…m`: a reset, then the style) to `bytes`.
    ///
    /// Complexity: O(1), no allocation beyond `bytes` growing.
    func appendSGR(for style: TextStyle, to bytes: inout [UInt8]) {
        bytes.append(0x1B)
        bytes.append(0x5B)
        bytes.append(0x30)  // reset
        let attributes = style.attributes
        if attributes.contains(.bold) { Self.appendParameter(1, to: &bytes) }
        if attributes.contains(.dim) { Self.appendParameter(2, to: &bytes) }
        if attributes.contains(.italic) { Self.appendParameter(3, to: &bytes) }
        if attributes.contains(.underline) { Self.appendParameter(4, to: &bytes) }
        if attributes.contains(.reverse) { Self.appendParameter(7, to: &bytes) }
        if self != .monochrome {
            appendColor(style.foreground, base: 30, to: &bytes)
            appendColor(style.background, base: 40, to: &bytes)
        }
        bytes.append(0x6D)  // m
    }

    /// Appends `;` and the parameters for `color` as a foreground (`base` 30) or background (`base` 40).
    private func appendColor(_ color: TerminalColor, base: Int, to bytes: inout [UInt8]) {
        var color = color
        if self != .trueColor, case .rgb(let red, let green, let blue) = color {
            color = .palette(Self.nearestPaletteIndex(red: red, green: green, blue: blue))
        }
        if self == .basic16, case .palette(let index) = color { color = Self.nearestNamed(toPaletteIndex: index) }
        switch color {
        case .default:
            return
        case .rgb(let red, let green, let blue):
            Self.appendParameter(base + 8, to: &bytes)
            Self.appendParameter(2, to: &bytes)
            Self.appendParameter(Int(red), to: &bytes)
            Self.appendParameter(Int(green), to: &bytes)
            Self.appendParameter(Int(blue), to: &bytes)
        case .palette(let index):
            Self.appendParameter(base + 8, to: &bytes)
            Self.appendParameter(5, to: &bytes)
            Self.appendParameter(Int(index), to: &bytes)
        default:
            let number = Self.namedIndex(color)
            Self.appendParameter(number < 8 ? base + number : base + 60 + number - 8, to: &bytes)
        }
    }

    /// Appends `;` and `value` in decimal.
    private static func appendParameter(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(0x3B)
        if value >= 100 { bytes.append(UInt8(0x30 + value / 100)) }
        if value >= 10 { bytes.append(UInt8(0x30 + value / 10 % 10)) }
        bytes.append(UInt8(0x30 + value % 10))
    }

    /// The palette index (0–15) of a named colour.
    static func namedIndex(_ color: TerminalColor) -> Int {
        switch color {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        case .default, .rgb: -1
        case .palette(let index): Int(index)
        }
    }

    private static let named: [TerminalColor] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    /// The 256-palette entry closest to a 24-bit colour: the nearest of the 6×6×6 cube (16–231) or the grey ramp
    /// (232–255), whichever is closer.
    public static func nearestPaletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        // The cube's levels are 0, 95, 135, 175, 215, 255.
        func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let levels = [0, 95, 135, 175, 215, 255]
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyIndex = average > 238 ? 23 : max(average - 3, 0) / 10
        let grey = 8 + greyIndex * 10
        func distance(_ other: (Int, Int, Int)) -> Int {
            let dr = Int(red) - other.0
            let dg = Int(green) - other.1
            let db = Int(blue) - other.2
            return dr * dr + dg * dg + db * db
        }
        if distance((grey, grey, grey)) < distance(cube) { return UInt8(232 + greyIndex) }
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    /// The named colour closest to a 256-palette entry: itself for 0–15, by hue and brightness for the 6×6×6 cube
    /// (16–231), black, bright black, white or bright white for the grey ramp (232–255).
    static func nearestNamed(toPaletteIndex index: UInt8) -> TerminalColor {
        let index = Int(index)
        if index < 16 { return named[index] }
        if index >= 232 {
            let level = index - 232  // 0 (near black) … 23 (near white)
            return [.black, .brightBlack, .white, .brightWhite][min(3, level / 6)]
        }
        let cube = index - 16
        let levels = [cube / 36, cube / 6 % 6, cube % 6]  // red, green, blue, each 0…5
        let maximum = levels.max()!
        let minimum = levels.min()!
        if maximum - minimum <= 1 {
            // Greyish: pick by brightness.
            return [.black, .brightBlack, .brightBlack, .white, .white, .brightWhite][maximum]
        }
        // Each channel on when it is near the strongest one; bright when the strongest is high.
        let threshold = (maximum + minimum + 1) / 2
        let bits =
            (levels[0] >= threshold ? 1 : 0) | (levels[1] >= threshold ? 2 : 0) | (levels[2] >= threshold ? 4 : 0)
        return named[(maximum >= 4 ? 8 : 0) + bits]
    }
}
