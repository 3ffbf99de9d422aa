import TetherSync

/// Draws a product picture for a catalog item: a few simple shapes that say what its genre sells (a laptop, a
/// mug, a camera, a sneaker…) in a colour of the item's own, on a pale background with a soft shadow, so a list
/// of results looks like a shop's and each item is recognisable. Everything comes from the item id: the same id
/// gives the same picture on every run.
///
/// The item's genre is the catalog's rule (``RakutenItemGenerator``: item `n` is in genre `(n - 1) mod count`).
/// Edges are anti-aliased by 2 × 2 supersampling up to 300 pixels a side.
enum ProductPictureRenderer {
    /// `width × height × 3` RGB bytes for image `id` (`"<n>"`, or `"<n>-2"`, `"<n>-3"` for an item's other
    /// pictures: another angle of colour and framing).
    static func render(id: String, width: Int, height: Int) -> [UInt8] {
        let parts = id.split(separator: "-")
        let item = parts.first.flatMap { Int($0) } ?? 1
        let variant = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        let genres = RakutenVocabulary.genres
        let slug = genres[(max(item, 1) - 1) % genres.count].slug
        var random = SplitMix64(seed: FNV1a.hash(id.utf8))
        let accent = hsv(Double(random.int(in: 0...359)), 0.65, 0.85)
        let backgroundHue = Double(random.int(in: 0...359))
        let background = hsv(backgroundHue, 0.08 + 0.04 * Double(variant - 1), 0.97)
        let zoom = variant == 1 ? 1.0 : variant == 2 ? 0.8 : 1.15
        let shadow = ProductShape(
            kind: .ellipse(cx: 0.5, cy: 0.86, rx: 0.34, ry: 0.045),
            colour: (background.0 * 0.82, background.1 * 0.82, background.2 * 0.82), shaded: false)
        let shapes = [shadow] + self.shapes(for: slug, accent: accent, random: &random)
        return rasterize(shapes, width: width, height: height, background: background, zoom: zoom)
    }

    /// Fills each pixel with the colour of the topmost shape covering it, averaged over the samples.
    private static func rasterize(
        _ shapes: [ProductShape], width: Int, height: Int, background: (Double, Double, Double), zoom: Double
    ) -> [UInt8] {
        let side = Double(min(width, height))
        let originX = (Double(width) - side) / 2
        let originY = (Double(height) - side) / 2
        let samples = max(width, height) <= 300 ? 2 : 1
        let bounds = shapes.map(\.bounds)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for py in 0..<height {
            for px in 0..<width {
                var red = 0.0
                var green = 0.0
                var blue = 0.0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        // Picture coordinates, zoomed about the centre.
                        let u =
                            ((Double(px) + (Double(sx) + 0.5) / Double(samples) - originX) / side - 0.5) / zoom + 0.5
                        let v =
                            ((Double(py) + (Double(sy) + 0.5) / Double(samples) - originY) / side - 0.5) / zoom + 0.5
                        var colour = background
                        // A light from above on the background too.
                        let light = 1.02 - 0.06 * v
                        colour = (colour.0 * light, colour.1 * light, colour.2 * light)
                        for index in shapes.indices.reversed() {
                            let box = bounds[index]
                            guard u >= box.0, u <= box.2, v >= box.1, v <= box.3, shapes[index].contains(u, v) else {
                                continue
                            }
                            let shape = shapes[index]
                            var factor = 1.0
                            if shape.shaded {
                                let local = (v - box.1) / max(box.3 - box.1, 0.001)
                                factor = 1.12 - 0.3 * local
                            }
                            colour = (shape.colour.0 * factor, shape.colour.1 * factor, shape.colour.2 * factor)
                            break
                        }
                        red += colour.0
                        green += colour.1
                        blue += colour.2
                    }
                }
                let count = Double(samples * samples)
                let offset = (py * width + px) * 3
                pixels[offset] = UInt8(clamping: Int(red / count * 255 + 0.5))
                pixels[offset + 1] = UInt8(clamping: Int(green / count * 255 + 0.5))
                pixels[offset + 2] = UInt8(clamping: Int(blue / count * 255 + 0.5))
            }
        }
        return pixels
    }

    /// The shapes of a genre's product, bottom first.
    private static func shapes(
        for slug: String, accent: (Double, Double, Double), random: inout SplitMix64
    ) -> [ProductShape] {
        let dark = (0.16, 0.17, 0.19)
        let silver = (0.78, 0.79, 0.81)
        let white = (0.95, 0.95, 0.94)
        let deep = (accent.0 * 0.55, accent.1 * 0.55, accent.2 * 0.55)
        func rect(
            _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ radius: Double = 0.02,
            _ colour: (Double, Double, Double), shaded: Bool = true
        ) -> ProductShape {
            ProductShape(kind: .rect(x0: x0, y0: y0, x1: x1, y1: y1, radius: radius), colour: colour, shaded: shaded)
        }
        func ellipse(
            _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, _ colour: (Double, Double, Double),
            shaded: Bool = true
        ) -> ProductShape {
            ProductShape(kind: .ellipse(cx: cx, cy: cy, rx: rx, ry: ry), colour: colour, shaded: shaded)
        }
        func triangle(
            _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double),
            _ colour: (Double, Double, Double)
        ) -> ProductShape {
            ProductShape(kind: .triangle(ax: a.0, ay: a.1, bx: b.0, by: b.1, cx: c.0, cy: c.1), colour: colour)
        }
        func ring(
            _ cx: Double, _ cy: Double, _ outer: Double, _ inner: Double, maxY: Double = 2,
            _ colour: (Double, Double, Double)
        ) -> ProductShape {
            ProductShape(kind: .ring(cx: cx, cy: cy, outer: outer, inner: inner, maxY: maxY), colour: colour)
        }
        switch slug {
        case "note-pc":
            return [
                rect(0.1, 0.62, 0.9, 0.7, 0.02, silver), rect(0.19, 0.16, 0.81, 0.62, 0.025, dark),
                rect(0.22, 0.19, 0.78, 0.59, 0.005, accent),
                ProductShape(kind: .grid(x0: 0.2, y0: 0.635, x1: 0.8, y1: 0.665, columns: 12, rows: 1), colour: dark),
            ]
        case "input":
            return [
                rect(0.08, 0.42, 0.72, 0.72, 0.03, deep),
                ProductShape(kind: .grid(x0: 0.11, y0: 0.45, x1: 0.69, y1: 0.69, columns: 10, rows: 4), colour: white),
                ellipse(0.83, 0.55, 0.08, 0.13, accent), rect(0.825, 0.43, 0.835, 0.52, 0.0, dark, shaded: false),
            ]
        case "coffee":
            return [
                ring(0.7, 0.52, 0.13, 0.075, accent), rect(0.26, 0.3, 0.68, 0.8, 0.05, accent),
                ellipse(0.47, 0.32, 0.19, 0.035, (0.33, 0.19, 0.09), shaded: false),
            ]
        case "tea":
            return [
                rect(0.3, 0.36, 0.7, 0.8, 0.06, deep),
                ellipse(0.5, 0.38, 0.18, 0.035, (0.55, 0.72, 0.28), shaded: false),
                ellipse(0.5, 0.6, 0.08, 0.05, (0.45, 0.68, 0.3)),
            ]
        case "camera":
            return [
                rect(0.36, 0.22, 0.6, 0.34, 0.02, dark), rect(0.14, 0.3, 0.86, 0.74, 0.05, dark),
                rect(0.14, 0.42, 0.86, 0.46, 0.0, accent, shaded: false), ellipse(0.5, 0.52, 0.18, 0.18, silver),
                ellipse(0.5, 0.52, 0.12, 0.12, (0.08, 0.12, 0.25)), ellipse(0.46, 0.48, 0.03, 0.03, white),
                ellipse(0.76, 0.36, 0.04, 0.025, accent),
            ]
        case "audio":
            return [
                ring(0.5, 0.52, 0.33, 0.28, maxY: 0.56, deep), rect(0.14, 0.46, 0.3, 0.78, 0.06, accent),
                rect(0.7, 0.46, 0.86, 0.78, 0.06, accent),
            ]
        case "rice-cooker":
            return [
                rect(0.2, 0.36, 0.8, 0.8, 0.1, white), ellipse(0.5, 0.38, 0.3, 0.08, silver),
                rect(0.4, 0.56, 0.6, 0.66, 0.02, accent), ellipse(0.5, 0.34, 0.05, 0.02, dark),
            ]
        case "sneaker":
            return [
                rect(0.08, 0.66, 0.92, 0.75, 0.035, white), rect(0.12, 0.38, 0.5, 0.71, 0.09, accent),
                ellipse(0.6, 0.64, 0.32, 0.12, accent), ellipse(0.28, 0.4, 0.13, 0.035, deep, shaded: false),
                rect(0.44, 0.47, 0.54, 0.49, 0.0, white, shaded: false),
                rect(0.48, 0.52, 0.58, 0.54, 0.0, white, shaded: false),
                rect(0.52, 0.57, 0.62, 0.59, 0.0, white, shaded: false),
            ]
        case "rice":
            return [
                rect(0.25, 0.18, 0.75, 0.82, 0.06, (0.93, 0.88, 0.74)), ellipse(0.5, 0.5, 0.15, 0.15, accent),
                rect(0.25, 0.24, 0.75, 0.28, 0.0, (0.75, 0.2, 0.15), shaded: false),
            ]
        case "beer":
            return [
                rect(0.45, 0.12, 0.55, 0.36, 0.02, (0.45, 0.25, 0.05)),
                rect(0.36, 0.32, 0.64, 0.84, 0.06, (0.55, 0.3, 0.05)),
                rect(0.36, 0.5, 0.64, 0.66, 0.0, accent), rect(0.44, 0.1, 0.56, 0.13, 0.01, (0.85, 0.7, 0.2)),
            ]
        case "phone-case":
            return [
                rect(0.3, 0.1, 0.7, 0.88, 0.07, accent), rect(0.35, 0.15, 0.49, 0.31, 0.03, dark),
                ellipse(0.39, 0.19, 0.025, 0.025, (0.3, 0.3, 0.35)),
                ellipse(0.45, 0.27, 0.025, 0.025, (0.3, 0.3, 0.35)),
            ]
        case "watch":
            return [
                rect(0.42, 0.08, 0.58, 0.92, 0.03, deep), ellipse(0.5, 0.5, 0.21, 0.21, silver),
                ellipse(0.5, 0.5, 0.17, 0.17, white, shaded: false),
                rect(0.495, 0.38, 0.505, 0.5, 0.0, dark, shaded: false),
                rect(0.5, 0.495, 0.6, 0.505, 0.0, dark, shaded: false), ellipse(0.72, 0.5, 0.025, 0.03, silver),
            ]
        case "bag":
            return [
                ring(0.5, 0.4, 0.2, 0.16, maxY: 0.4, deep), rect(0.18, 0.38, 0.82, 0.82, 0.06, accent),
                rect(0.18, 0.38, 0.82, 0.52, 0.06, deep), ellipse(0.5, 0.52, 0.03, 0.03, (0.85, 0.75, 0.3)),
            ]
        case "tops":
            return [
                triangle((0.3, 0.24), (0.12, 0.42), (0.3, 0.48), accent),
                triangle((0.7, 0.24), (0.88, 0.42), (0.7, 0.48), accent), rect(0.29, 0.24, 0.71, 0.84, 0.02, accent),
                ellipse(0.5, 0.25, 0.08, 0.05, deep, shaded: false),
            ]
        case "skincare":
            return [
                rect(0.37, 0.3, 0.63, 0.84, 0.07, white), rect(0.42, 0.16, 0.58, 0.32, 0.02, accent),
                rect(0.4, 0.5, 0.6, 0.66, 0.01, accent, shaded: false),
            ]
        case "bedding":
            return [
                rect(0.1, 0.58, 0.9, 0.82, 0.05, deep), rect(0.16, 0.3, 0.84, 0.6, 0.12, accent),
                rect(0.2, 0.44, 0.8, 0.455, 0.0, white, shaded: false),
            ]
        case "kitchen":
            return [
                rect(0.6, 0.47, 0.94, 0.53, 0.02, dark), ellipse(0.38, 0.5, 0.27, 0.27, dark),
                ellipse(0.38, 0.5, 0.22, 0.22, (0.4, 0.41, 0.43)), ellipse(0.38, 0.5, 0.1, 0.07, accent),
            ]
        case "pet":
            let paw = deep
            return [
                ellipse(0.5, 0.6, 0.17, 0.14, paw), ellipse(0.3, 0.42, 0.06, 0.08, paw),
                ellipse(0.42, 0.32, 0.06, 0.08, paw), ellipse(0.58, 0.32, 0.06, 0.08, paw),
                ellipse(0.7, 0.42, 0.06, 0.08, paw),
            ]
        case "outdoor":
            return [
                triangle((0.5, 0.18), (0.1, 0.8), (0.9, 0.8), accent),
                triangle((0.5, 0.42), (0.38, 0.8), (0.62, 0.8), deep),
                rect(0.495, 0.12, 0.505, 0.2, 0.0, dark, shaded: false),
            ]
        default:  // toy: stacked blocks in three colours
            let second = hsv(Double(random.int(in: 0...359)), 0.7, 0.9)
            let third = hsv(Double(random.int(in: 0...359)), 0.7, 0.9)
            return [
                rect(0.18, 0.56, 0.46, 0.82, 0.02, accent), rect(0.52, 0.56, 0.8, 0.82, 0.02, second),
                rect(0.34, 0.3, 0.62, 0.56, 0.02, third), ellipse(0.48, 0.43, 0.05, 0.05, white),
            ]
        }
    }

    /// HSV (hue in degrees, the rest 0…1) to RGB components 0…1.
    static func hsv(_ hue: Double, _ saturation: Double, _ value: Double) -> (Double, Double, Double) {
        let c = value * saturation
        let h = hue.truncatingRemainder(dividingBy: 360) / 60
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
