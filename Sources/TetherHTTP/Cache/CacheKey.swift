import Foundation
import TetherSync

/// Cache keys (RFC 9111 §2) and the disk tier's file names for them.
///
/// The key is `GET ` followed by the absolute URL without its fragment: GET and HEAD requests share it, since a HEAD
/// is answered from the stored GET. A file name is the key's 64-bit FNV-1a hash in hex with the `.entry`
/// extension; the key is stored inside the file and checked on reading, so two keys that hash alike never serve
/// each other's responses.
enum CacheKey {
    /// The extension of entry files.
    static let fileExtension = "entry"
    /// The prefix of temporary files, written before being renamed into place.
    static let temporaryPrefix = ".tmp-"

    static func key(for url: URL) -> String {
        var text = url.absoluteString
        if let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) { text = String(text[..<hash]) }
        return "GET " + text
    }

    /// The URL a key was made from, or `nil` when `key` is not one.
    static func url(ofKey key: String) -> URL? {
        guard key.hasPrefix("GET ") else { return nil }
        return URL(string: String(key.dropFirst(4)))
    }

    static func fileName(for key: String) -> String {
        let hex = String(fnv1a64(key.utf8), radix: 16)
        return String(repeating: "0", count: 16 - hex.utf8.count) + hex + "." + fileExtension
    }

    /// The 64-bit FNV-1a hash of `bytes` (TetherSync's `FNV1a`): stable across processes and platforms, unlike
    /// `Hasher`.
    static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 { FNV1a.hash(bytes) }
}
