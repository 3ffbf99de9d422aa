import TetherSync

/// Draws a thumbnail for an image id: a diagonal gradient between two colours and a pattern in a third,
/// all derived from the id, so the same id always looks the same and neighbouring ids look different.
enum ThumbnailRenderer {
    private enum Pattern: CaseIterable {
        case stripes, checks, rings, dots
    }

    /// `width × height × 3` RGB bytes.
    static func render(id: String, width: Int, height: Int) -> [UInt8] {
        let hash = FNV1a.hash(id.utf8)
        var random = SplitMix64(seed: hash)
        let hue = Double(hash % 360)
        let start = rgb(hue: hue, saturation: 0.55, value: 0.95)
        let end = rgb(
            hue: (hue + 40 + Double(random.int(in: 0...80))).truncatingRemainder(dividingBy: 360),
            saturation: 0.7, value: 0.6)
        let ink = rgb(hue: (hue + 180).truncatingRemainder(dividingBy: 360), saturation: 0.35, value: 1.0)
        let pattern = Pattern.allCases[Int((hash >> 16) % UInt64(Pattern.allCases.count))]
        let cell = max(4, min(width, height) / random.int(in: 4...8))

        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let span = Double(max(width + height - 2, 1))
        let centreX = Double(width) / 2
        let centreY = Double(height) / 2
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(x + y) / span
                var colour = (
                    start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t, start.2 + (end.2 - start.2) * t
                )
                let onPattern: Bool
                switch pattern {
                case .stripes: onPattern = ((x + y) / cell) % 2 == 0 && (x + y) % cell < cell / 3
                case .checks: onPattern = (x / cell + y / cell) % 2 == 0
                case .rings:
                    let dx = Double(x) - centreX
                    let dy = Double(y) - centreY
                    onPattern = Int((dx * dx + dy * dy).squareRoot()) / cell % 2 == 0
                case .dots:
                    let dx = x % cell - cell / 2
                    let dy = y % cell - cell / 2
                    onPattern = dx * dx + dy * dy <= (cell / 4) * (cell / 4)
                }
                if onPattern {
                    colour = (
                        (colour.0 + ink.0) / 2, (colour.1 + ink.1) / 2, (colour.2 + ink.2) / 2
                    )
                }
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: Int(colour.0 * 255))
                pixels[offset + 1] = UInt8(clamping: Int(colour.1 * 255))
                pixels[offset + 2] = UInt8(clamping: Int(colour.2 * 255))
            }
        }
        return pixels
    }

    /// HSV (hue in degrees, the rest 0…1) to RGB components 0…1.
    private static func rgb(hue: Double, saturation: Double, value: Double) -> (Double, Double, Double) {
        let c = value * saturation
        let h = hue / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = value - c
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        return (r + m, g + m, b + m)
    }
}
