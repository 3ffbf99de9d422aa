public import TetherJSON
import TetherSync

/// The database `tether serve` uses when it is given no file: jsonplaceholder's collections (`posts`,
/// `comments`, `albums`, `photos`, `users`, `todos`, with the same counts, keys, key order and relations)
/// plus `notes` for the notes example, all generated from a seed.
///
/// Notes, posts, people and comments read like real text, in English and Japanese (`DemoText`, written for
/// Tether); the other collections' text is invented filler. None of it is jsonplaceholder's. Photo URLs point at this server's image route
/// (`<imageBaseURL>/images/photo-<id>?_ex=600x600`, thumbnails `150x150`; see ``ImageResponder``).
///
/// ```swift
/// import TetherServer
///
/// let db = BuiltInDataSet.make()
/// db["posts"][0]["title"].string   // generated, the same for every run with seed 1
/// ```
public enum BuiltInDataSet {
    public static let userCount = 10
    public static let postCount = 100
    public static let commentCount = 500
    public static let albumCount = 100
    public static let photoCount = 5000
    public static let todoCount = 200
    public static let noteCount = 20

    /// The data set for `seed`; `imageBaseURL` (no trailing slash) is where the photos' images are served.
    public static func make(seed: UInt64 = 1, imageBaseURL: String = "http://localhost:3000") -> JSON {
        var text = LoremWords(random: SplitMix64(seed: seed))
        var random = SplitMix64(seed: seed ^ 0x5EED_DA7A)

        // Each user writes in their own language (even ids in Japanese); titles are not repeated within a language.
        var titles = (english: TitleQueue(japanese: false), japanese: TitleQueue(japanese: true))
        let posts = (1...postCount).map { id -> JSON in
            let userID = (id - 1) / 10 + 1
            let japanese = userID.isMultiple(of: 2)
            let themes = japanese ? DemoText.japanese : DemoText.english
            let (theme, title) =
                japanese ? titles.japanese.next(&random, themes) : titles.english.next(&random, themes)
            let body = random.shuffled(themes[theme].lines).prefix(4).joined(separator: "\n")
            return record(
                ["userId", "id", "title", "body"], [JSON(userID), JSON(id), .string(title), .string(body)])
        }
        let comments = (1...commentCount).map { id -> JSON in
            let reply = random.pick(DemoText.replies)
            let writer = random.pick(DemoText.people)
            let email = writer.username + "@" + random.pick(["example.com", "example.jp", "mail.example.net"])
            return record(
                ["postId", "id", "name", "email", "body"],
                [JSON((id - 1) / 5 + 1), JSON(id), .string(writer.name), .string(email), .string(reply)])
        }
        let albums = (1...albumCount).map { id -> JSON in
            record(
                ["userId", "id", "title"],
                [JSON((id - 1) / 10 + 1), JSON(id), .string(text.words(random.int(in: 2...6)))])
        }
        let photos = (1...photoCount).map { id -> JSON in
            let image = "\(imageBaseURL)/images/photo-\(id)"
            return record(
                ["albumId", "id", "title", "url", "thumbnailUrl"],
                [
                    JSON((id - 1) / 50 + 1), JSON(id), .string(text.words(random.int(in: 3...8))),
                    .string(image + "?_ex=600x600"), .string(image + "?_ex=150x150"),
                ])
        }
        let users = (1...userCount).map { id in
            user(id: id, person: DemoText.people[id - 1], text: &text, random: &random)
        }
        let todos = (1...todoCount).map { id -> JSON in
            record(
                ["userId", "id", "title", "completed"],
                [
                    JSON((id - 1) / 20 + 1), JSON(id), .string(text.words(random.int(in: 2...7))),
                    .bool(random.chance(0.45)),
                ])
        }
        let notes = (1...noteCount).map { id -> JSON in
            // One note a day back from 2026-11-30, at a varying time.
            let day = 30 - (id - 1)
            let minutes = random.int(in: 0...(24 * 60 - 1))
            let stamp = "2026-11-\(two(day))T\(two(minutes / 60)):\(two(minutes % 60)):00Z"
            let note = DemoText.notes[(id - 1) % DemoText.notes.count]
            return record(
                ["id", "title", "body", "updatedAt"],
                [JSON(id), .string(note.title), .string(note.body), .string(stamp)])
        }
        return record(
            ["posts", "comments", "albums", "photos", "users", "todos", "notes"],
            [
                .array(posts), .array(comments), .array(albums), .array(photos), .array(users), .array(todos),
                .array(notes),
            ])
    }

    private static func user(
        id: Int, person: (name: String, username: String), text: inout LoremWords, random: inout SplitMix64
    ) -> JSON {
        let username = person.username
        let domain = text.word() + "." + random.pick(["biz", "com", "net", "org", "io", "info"])
        func coordinate(_ limit: Int) -> String {
            let value = random.int(in: -limit * 10_000...limit * 10_000)
            let magnitude = abs(value)
            return (value < 0 ? "-" : "") + "\(magnitude / 10_000)." + String(10_000 + magnitude % 10_000).dropFirst()
        }
        let address = record(
            ["street", "suite", "city", "zipcode", "geo"],
            [
                .string(text.name() + " " + random.pick(["Street", "Avenue", "Lane", "Road", "Way", "Court"])),
                .string(random.pick(["Apt.", "Suite"]) + " \(random.int(in: 100...999))"),
                .string(text.name() + random.pick(["ton", "ville", "burgh", "port", "field"])),
                .string("\(random.int(in: 10_000...99_999))-\(random.int(in: 1000...9999))"),
                record(["lat", "lng"], [.string(coordinate(89)), .string(coordinate(179))]),
            ])
        let company = record(
            ["name", "catchPhrase", "bs"],
            [.string(text.name() + "-" + text.name()), .string(text.words(3)), .string(text.words(3))])
        return record(
            ["id", "name", "username", "email", "address", "phone", "website", "company"],
            [
                JSON(id), .string(person.name), .string(username), .string(username + "@" + domain), address,
                .string("\(random.int(in: 100...999))-\(random.int(in: 100...999))-\(random.int(in: 1000...9999))"),
                .string(domain), company,
            ])
    }

    private static func record(_ keys: [String], _ values: [JSON]) -> JSON {
        .object(JSON.Object(keys: keys, values: values))
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
