/// Random identifiers for the outbox: `Idempotency-Key` values and lease owners.
///
/// Foundation's `UUID()` opens and reads `/dev/urandom` on every call on Linux (about 3 µs with its system calls,
/// in a profile); these draw from `SystemRandomNumberGenerator` (`getrandom`, `arc4random` on Apple platforms).
///
/// - Thread safety: stateless; callable from any thread.
enum RandomKey {
    /// A random (version 4) UUID in lowercase text, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`: 122 random bits.
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, word) in [high, low].enumerated() {
            for shift in stride(from: 60, through: 0, by: -4) {
                let position = index * 16 + (60 - shift) / 4
                if [8, 12, 16, 20].contains(position) { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
