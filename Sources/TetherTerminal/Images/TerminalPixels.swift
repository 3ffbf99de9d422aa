/// RGBA pixels for the terminal to draw: 8 bits a channel, rows top to bottom, alpha not premultiplied.
///
/// TetherTerminal has no dependencies, so it takes pixels as this small value; `TetherImages`' `RGBAImage` has the
/// same layout (`TerminalPixels(width: image.width, height: image.height, rgba: image.pixels)`).
public struct TerminalPixels: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes.
    public let rgba: [UInt8]

    /// Pixels over `rgba`, which must hold `width × height × 4` bytes (checked).
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width > 0 && height > 0 && rgba.count == width * height * 4, "TerminalPixels needs W×H×4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The pixel at (`x`, `y`) blended over `background` by its alpha.
    @inline(__always)
    func blended(x: Int, y: Int, over background: (UInt8, UInt8, UInt8)) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 4
        let alpha = Int(rgba[offset + 3])
        if alpha == 255 { return (rgba[offset], rgba[offset + 1], rgba[offset + 2]) }
        func mix(_ value: UInt8, _ under: UInt8) -> UInt8 {
            UInt8((Int(value) * alpha + Int(under) * (255 - alpha) + 127) / 255)
        }
        return (
            mix(rgba[offset], background.0), mix(rgba[offset + 1], background.1), mix(rgba[offset + 2], background.2)
        )
    }
}
