import TetherSync

/// Makes a posts array like jsonplaceholder's `/posts`, deterministically from a seed.
///
/// `[{"userId": 1, "id": 1, "title": "…", "body": "…\n…"}, …]`, indented by 2 spaces as json-server serves it;
/// ten posts per user, Latin-looking words, four-line bodies joined with `\n`.
struct PostsGenerator {
    private var random: SplitMix64
    private let words: [EscapedText] = [
        "sunt", "aut", "facere", "repellat", "provident", "occaecati", "excepturi", "optio", "reprehenderit", "qui",
        "est", "esse", "ea", "molestias", "quasi", "exercitationem", "eum", "et", "nesciunt", "quas", "odio",
        "dolorem", "eveniet", "architecto", "magnam", "facilis", "autem", "voluptatem", "rerum", "tempore", "vitae",
        "sequi", "sint", "nihil", "dolor", "beatae", "dolores", "neque", "fugiat", "blanditiis", "porro", "vel",
        "ullam", "saepe", "adipisci", "assumenda", "culpa", "commodi", "iure", "illo", "velit", "quia", "suscipit",
        "recusandae", "consequuntur", "expedita", "cum", "totam", "nostrum", "ipsam", "doloremque", "tenetur",
    ].map { EscapedText($0) }
    private let space = EscapedText(" ")
    private let newline = EscapedText("\n")

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// As many posts as fit in about `targetBytes` bytes.
    mutating func posts(targetBytes: Int) -> [UInt8] {
        var json = JSONTextWriter(indentWidth: 2, reservingCapacity: targetBytes + 1024)
        json.beginArray()
        var index = 0
        repeat {
            json.beginObject()
            json.key("userId")
            json.int(index / 10 + 1)
            json.key("id")
            json.int(index + 1)
            json.key("title")
            json.string(sentence(words: 3...9))
            json.key("body")
            var body = sentence(words: 5...10)
            for _ in 0..<3 {
                body.append(newline)
                body.append(sentence(words: 5...10))
            }
            json.string(body)
            json.endObject()
            index += 1
        } while json.count < targetBytes
        json.endArray()
        return json.bytes + [UInt8(ascii: "\n")]
    }

    private mutating func sentence(words count: ClosedRange<Int>) -> EscapedText {
        var text = random.pick(words)
        for _ in 1..<random.int(in: count) {
            text.append(space)
            text.append(random.pick(words))
        }
        return text
    }
}
