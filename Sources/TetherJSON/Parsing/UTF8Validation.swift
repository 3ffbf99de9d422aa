/// Strings from UTF-8 bytes, checked once.
///
/// The scanner checks the UTF-8 of every string it meets (`TapeBuilder`, faster than the standard library's check,
/// with a path for runs of three-byte characters such as Japanese text, by the rules of ``rule(forLead:)``);
/// ``string(checked:isASCII:)`` then makes their `String`s, and those of their unescaped forms, without checking
/// them a second time.
enum UTF8Validation {
    /// A string of `bytes`, which must be valid UTF-8 (checked before, by the scanner); `isASCII` must be `false`
    /// unless every byte is below 0x80.
    ///
    /// Every `String` initializer checks its bytes, and on text such as twitter.json's that check was 6% of a
    /// decode, after the scanner had checked the same bytes. This calls the standard library's own entry point for
    /// bytes it knows are valid (`String._uncheckedFromUTF8(_:isASCII:)`, `@usableFromInline`, so its symbol is part
    /// of the library's ABI). Debug builds check the contract.
    @inline(__always)
    static func string(checked bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        assert(isValid(bytes), "a string made without a check holds invalid UTF-8")
        assert(!isASCII || bytes.allSatisfy { $0 < 0x80 }, "a string said to be ASCII is not")
        return _uncheckedStringFromUTF8(bytes, isASCII: isASCII)
    }

    /// For a byte that starts a multi-byte character: the character's length and the range its second byte must
    /// fall in (RFC 3629 Table 3: no overlong forms, no surrogates, nothing above U+10FFFF); `nil` for a byte that
    /// cannot start one. Later bytes are always 0x80...0xBF.
    @inline(__always)
    static func rule(forLead lead: UInt8) -> (length: Int, low: UInt8, high: UInt8)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: nil
        }
    }

    /// Whether `bytes` are valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); for the
    /// debug builds' check of ``string(checked:isASCII:)``.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            guard let (length, low, high) = rule(forLead: lead) else { return false }
            guard i + length <= n, bytes[i + 1] >= low, bytes[i + 1] <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}

/// `String._uncheckedFromUTF8(_:isASCII:)` of the standard library (see ``UTF8Validation/string(checked:isASCII:)``).
@_silgen_name("$sSS18_uncheckedFromUTF8_7isASCIISSSRys5UInt8VG_SbtFZ")
private func _uncheckedStringFromUTF8(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String
