import TetherHTTP1

extension HTTPRequest {
    /// Whether the target might name a route containing `word`: `false` only when the raw target holds neither
    /// `word` nor a percent escape (which could spell it), so a responder can pass such a request on without
    /// decoding its path. Cheap: one pass over the target's bytes.
    func targetMayContain(_ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var target = target
        return target.withUTF8 { bytes in
            guard needle.count > 0, bytes.count >= needle.count else { return bytes.contains(UInt8(ascii: "%")) }
            if bytes.contains(UInt8(ascii: "%")) { return true }
            let first = needle[0]
            for start in 0...(bytes.count - needle.count) where bytes[start] == first {
                var index = 1
                while index < needle.count && bytes[start + index] == needle[index] { index += 1 }
                if index == needle.count { return true }
            }
            return false
        }
    }
}
