/// An amount of Japanese yen, shown the way Japanese shops write prices: `1,234円`.
///
/// ```swift
/// import TetherAPIs
///
/// Yen(1234).description          // "1,234円"
/// ```
///
/// The digits are grouped by three with commas whatever the device's locale, so a terminal and a phone show the
/// same text.
public struct Yen: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The whole amount in yen.
    public var amount: Int

    public init(_ amount: Int) {
        self.amount = amount
    }

    /// The amount with thousands separators and the 円 suffix: `"1,234円"`, `"0円"`, `"-5,000円"`.
    public var description: String {
        let digits = String(amount.magnitude)
        var grouped = ""
        grouped.reserveCapacity(digits.count + digits.count / 3 + 2)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (amount < 0 ? "-" : "") + grouped + "円"
    }

    public static func < (lhs: Yen, rhs: Yen) -> Bool { lhs.amount < rhs.amount }
}
