/// Strings from bytes that may not be valid UTF-8, checked once.
///
/// The decoder lets string values skip the scanner's UTF-8 check, because making a `String` checks the bytes
/// anyway; it makes them here, where invalid bytes give `nil` instead of being repaired.
enum UTF8Validation {
    /// A string of `bytes`, or `nil` when they are not valid UTF-8.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        #if canImport(Darwin)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return String(validating: bytes, as: UTF8.self)
            }
            return isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
        #else
            // `String(validating:as:)` takes a generic path for every encoding; this is its UTF-8 fast path, the
            // one `String(decoding:as:)` uses too (public in the standard library's interface since Swift 5).
            return String._tryFromUTF8(bytes)
        #endif
    }

    /// Whether `bytes` are valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            var length = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard i + length <= n, bytes[i + 1] >= low, bytes[i + 1] <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
