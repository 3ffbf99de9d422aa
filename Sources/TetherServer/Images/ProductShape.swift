/// One filled shape of a generated product picture, in coordinates where the picture's square is 0…1 on both axes
/// (x to the right, y down).
struct ProductShape: Sendable {
    enum Kind: Sendable {
        /// A rectangle with rounded corners of `radius`.
        case rect(x0: Double, y0: Double, x1: Double, y1: Double, radius: Double)
        case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
        /// The band between two circles, only where y ≤ `maxY` (a handle, a headband).
        case ring(cx: Double, cy: Double, outer: Double, inner: Double, maxY: Double)
        case triangle(ax: Double, ay: Double, bx: Double, by: Double, cx: Double, cy: Double)
        /// A rectangle of `columns` × `rows` keys with gaps between them.
        case grid(x0: Double, y0: Double, x1: Double, y1: Double, columns: Int, rows: Int)
    }

    var kind: Kind
    /// RGB, 0…1.
    var colour: (Double, Double, Double)
    /// Whether the shape is lit from above (lighter at its top, darker at its bottom).
    var shaded = true

    /// The bounding box: x0, y0, x1, y1.
    var bounds: (Double, Double, Double, Double) {
        switch kind {
        case .rect(let x0, let y0, let x1, let y1, _), .grid(let x0, let y0, let x1, let y1, _, _): (x0, y0, x1, y1)
        case .ellipse(let cx, let cy, let rx, let ry): (cx - rx, cy - ry, cx + rx, cy + ry)
        case .ring(let cx, let cy, let outer, _, let maxY): (cx - outer, cy - outer, cx + outer, min(cy + outer, maxY))
        case .triangle(let ax, let ay, let bx, let by, let cx, let cy):
            (min(ax, bx, cx), min(ay, by, cy), max(ax, bx, cx), max(ay, by, cy))
        }
    }

    /// Whether (`x`, `y`) is inside the shape.
    func contains(_ x: Double, _ y: Double) -> Bool {
        switch kind {
        case .rect(let x0, let y0, let x1, let y1, let radius):
            guard x >= x0, x <= x1, y >= y0, y <= y1 else { return false }
            let dx = max(x0 + radius - x, 0, x - (x1 - radius))
            let dy = max(y0 + radius - y, 0, y - (y1 - radius))
            return dx * dx + dy * dy <= radius * radius
        case .ellipse(let cx, let cy, let rx, let ry):
            let dx = (x - cx) / rx
            let dy = (y - cy) / ry
            return dx * dx + dy * dy <= 1
        case .ring(let cx, let cy, let outer, let inner, let maxY):
            guard y <= maxY else { return false }
            let distance = (x - cx) * (x - cx) + (y - cy) * (y - cy)
            return distance <= outer * outer && distance >= inner * inner
        case .triangle(let ax, let ay, let bx, let by, let cx, let cy):
            func side(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Double {
                (x - qx) * (py - qy) - (px - qx) * (y - qy)
            }
            let d1 = side(ax, ay, bx, by)
            let d2 = side(bx, by, cx, cy)
            let d3 = side(cx, cy, ax, ay)
            let negative = d1 < 0 || d2 < 0 || d3 < 0
            let positive = d1 > 0 || d2 > 0 || d3 > 0
            return !(negative && positive)
        case .grid(let x0, let y0, let x1, let y1, let columns, let rows):
            guard x >= x0, x <= x1, y >= y0, y <= y1 else { return false }
            let u = (x - x0) / (x1 - x0) * Double(columns)
            let v = (y - y0) / (y1 - y0) * Double(rows)
            return u - u.rounded(.down) < 0.8 && v - v.rounded(.down) < 0.75
        }
    }
}
