/// RFC 3986 percent-encoding for query names and values and form fields.
enum PercentEncoding {
    /// Encodes every byte of `text`'s UTF-8 except the unreserved characters `A-Z a-z 0-9 - . _ ~`, so `+`
    /// becomes `%2B`, a space `%20`, `&` `%26` and `ノ` `%E3%83%8E`.
    ///
    /// - Complexity: O(n) in the UTF-8 length.
    static func encode(_ text: some StringProtocol) -> String {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
