import TetherSync

/// Strong entity tags for json-server responses, and the `If-None-Match` / `If-Match` comparisons.
///
/// A tag is `"` + the 16 hex digits of the FNV-1a 64-bit hash of the representation's bytes + `"`, so it is the
/// same in every process and changes whenever the bytes do. An item's tag is the tag of its plain
/// `GET /<collection>/<id>` body, which is what `If-Match` is compared with.
enum EntityTag {
    /// The FNV-1a 64-bit hash of `bytes`, continuing from `seed` (TetherSync's `FNV1a`).
    static func fnv1a(_ bytes: some Sequence<UInt8>, seed: UInt64 = FNV1a.offsetBasis) -> UInt64 {
        FNV1a.hash(bytes, seed: seed)
    }

    /// The strong tag of a representation, quoted: `"0123456789abcdef"`.
    static func of(_ bytes: [UInt8]) -> String {
        let hex = String(fnv1a(bytes), radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The tags listed in an `If-Match` or `If-None-Match` value; `["*"]` for the wildcard.
    static func list(_ header: String) -> [String] {
        header.split(separator: ",").map { String($0).trimmingJSWhitespace() }.filter { !$0.isEmpty }
    }

    /// `If-None-Match` (weak comparison): whether `current` is among the listed tags, or the list is `*`.
    static func noneMatchHits(_ header: String, current: String) -> Bool {
        let bare = current.hasPrefix("W/") ? String(current.dropFirst(2)) : current
        return list(header).contains { tag in
            tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == bare
        }
    }

    /// `If-Match` (strong comparison): whether `current` is among the listed tags, or the list is `*`.
    static func matchHolds(_ header: String, current: String) -> Bool {
        list(header).contains { $0 == "*" || (!$0.hasPrefix("W/") && $0 == current) }
    }
}
