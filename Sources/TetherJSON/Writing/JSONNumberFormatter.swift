/// Formats `Double`s as JSON numbers: the shortest text that reads back as the same `Double`.
enum JSONNumberFormatter {
    /// The JSON text for a finite double. Whole values keep a fraction (`3.0`) so they read back as doubles.
    static func text(for value: Double) -> String {
        // Swift's description is the shortest round-tripping form: "3.0", "0.1", "1e-07", "1.5e+300".
        value.description
    }
}
