/// The encoded formats TetherImages reads, recognised by their first bytes (never by a file name or a header).
public enum ImageFormat: Sendable, Hashable {
    case jpeg
    case png

    /// The format whose signature `bytes` start with, or `nil`.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.count >= 8, png.indices.allSatisfy({ bytes[$0] == png[$0] }) { return .png }
        return nil
    }
}
