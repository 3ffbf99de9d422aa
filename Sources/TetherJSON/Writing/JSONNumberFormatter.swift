/// Formats numbers as JSON text: integers digit by digit, `Double`s in the shortest text that reads back as
/// the same `Double`.
enum JSONNumberFormatter {
    /// The JSON text for a finite double. Whole values keep a fraction (`3.0`) so they read back as doubles.
    ///
    /// The text is Swift's shortest round-tripping form, which is always a valid JSON number for finite values:
    /// `"3.0"`, `"0.1"`, `"-0.0"`, `"1e-07"`, `"5e+300"`. Callers must reject NaN and the infinities first.
    static func text(for value: Double) -> String {
        value.description
    }

    /// Appends the decimal digits of `value` (with a leading `-` when negative), without allocating.
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(value.magnitude, to: &bytes)
    }

    /// Appends the decimal digits of `value`, without allocating.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        let start = bytes.count
        var rest = value
        while rest > 0 {
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit))
            rest = quotient
        }
        bytes[start...].reverse()
    }

    /// Appends the JSON text of a finite double (see ``text(for:)``).
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: value.description.utf8)
    }
}
