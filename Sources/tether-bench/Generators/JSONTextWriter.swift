/// Writes JSON text straight into a byte buffer, compact or indented, with commas and indentation handled.
///
/// Strings are written from bytes that are already escaped JSON string content (see ``EscapedText``), so the
/// generators decide exactly which escapes appear in the input.
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []
    /// Spaces per level; 0 writes compact JSON.
    private let indentWidth: Int
    private var depth = 0
    /// Whether the current container already has an element (so the next one needs a comma).
    private var hasElement = false
    /// Whether a key was just written (so the next value follows it directly).
    private var afterKey = false

    init(indentWidth: Int = 0, reservingCapacity capacity: Int = 0) {
        self.indentWidth = indentWidth
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        hasElement = false
    }

    mutating func endObject() {
        endContainer(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        depth += 1
        hasElement = false
    }

    mutating func endArray() {
        endContainer(UInt8(ascii: "]"))
    }

    /// Writes an object key (ASCII, no escapes needed) and the colon.
    mutating func key(_ name: StaticString) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if indentWidth > 0 { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    mutating func int(_ value: Int) {
        beforeValue()
        appendDigits(value)
    }

    /// Writes a number with two decimals, as JSON writers print a `Double`: `4.63`, `4.5`, and `5` or `0` when the
    /// value is whole (an integer literal, the way Rakuten sends `reviewAverage`).
    mutating func hundredths(_ value: Int) {
        beforeValue()
        appendDigits(value / 100)
        var fraction = value % 100
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        if fraction % 10 == 0 {
            fraction /= 10
        } else if fraction < 10 {
            bytes.append(UInt8(ascii: "0"))
        }
        appendDigits(fraction)
    }

    /// Writes a string whose content is already escaped JSON.
    mutating func string(_ text: EscapedText) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text.bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string that needs no escaping (ASCII URLs, codes, dates) or that is written as is.
    mutating func plainString(_ text: String) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        if hasElement { bytes.append(UInt8(ascii: ",")) }
        hasElement = true
        if depth > 0 { newline(depth) }
    }

    private mutating func endContainer(_ close: UInt8) {
        depth -= 1
        if hasElement { newline(depth) }
        bytes.append(close)
        hasElement = true
    }

    private mutating func newline(_ level: Int) {
        guard indentWidth > 0 else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * indentWidth))
    }

    private mutating func appendDigits(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(-value)
            return
        }
        if value >= 10 { appendDigits(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

/// Escaped JSON string content plus the length, in characters, of the string it decodes to.
struct EscapedText {
    var bytes: [UInt8] = []
    var characters = 0

    init() {}

    /// Escapes `text` as a JSON writer would: `"`, `\\` and control characters always (`\n`, `\t`, `\u001f`),
    /// `/` as `\/` when `escapingSlashes` (as PHP's `json_encode` does), and the scalars in `unicodeEscaped` as
    /// `\uXXXX` (surrogate pairs above U+FFFF).
    init(_ text: String, escapingSlashes: Bool = false, unicodeEscaped: Set<Unicode.Scalar> = []) {
        characters = text.count
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += [0x5C, 0x22]
            case "\\": bytes += [0x5C, 0x5C]
            case "\n": bytes += [0x5C, UInt8(ascii: "n")]
            case "\t": bytes += [0x5C, UInt8(ascii: "t")]
            case "\r": bytes += [0x5C, UInt8(ascii: "r")]
            case "/" where escapingSlashes: bytes += [0x5C, UInt8(ascii: "/")]
            default:
                if scalar.value < 0x20 || unicodeEscaped.contains(scalar) {
                    appendUnicodeEscape(scalar)
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
    }

    mutating func append(_ other: EscapedText) {
        bytes.append(contentsOf: other.bytes)
        characters += other.characters
    }

    private mutating func appendUnicodeEscape(_ scalar: Unicode.Scalar) {
        if scalar.value > 0xFFFF {
            let value = scalar.value - 0x1_0000
            appendUnit(0xD800 + (value >> 10))
            appendUnit(0xDC00 + (value & 0x3FF))
        } else {
            appendUnit(scalar.value)
        }
    }

    private mutating func appendUnit(_ unit: UInt32) {
        let hex = Array("0123456789abcdef".utf8)
        bytes += [0x5C, UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }
}
