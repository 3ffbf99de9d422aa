import Testing
import TetherJSON

@testable import TetherServer

/// The built-in data set: jsonplaceholder's shape with generated text, plus notes.
@Suite struct DataSetTests {
    static let db = BuiltInDataSet.make()

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func sameShapeAsJSONPlaceholder() throws {
        let fixture = try RakutenFixtures.json("jsonplaceholder/db.json")
        let db = Self.db
        #expect(db.orderedKeys == fixture.orderedKeys + ["notes"])
        for collection in fixture.orderedKeys {
            let expected = try #require(fixture[collection].array)
            let actual = try #require(db[collection].array)
            #expect(actual.count == expected.count, "\(collection)")
            for (mine, theirs) in zip(actual, expected) {
                #expect(Self.shape(mine) == Self.shape(theirs), "\(collection) \(theirs["id"].int ?? 0)")
                // Relations and ids are the same; the text is not.
                for key in ["id", "userId", "postId", "albumId"] where theirs[key] != nil {
                    #expect(mine[key] == theirs[key])
                }
                if let title = theirs["title"].string { #expect(mine["title"].string != title) }
            }
        }
    }

    /// Keys in order and value kinds, recursively.
    private static func shape(_ json: JSON) -> String {
        switch json {
        case .object(let object):
            "{" + object.map { "\($0.key):\(shape($0.value))" }.joined(separator: ",") + "}"
        case .array(let array): "[" + (array.first.map(shape) ?? "") + "]"
        default: json.kind.description
        }
    }

    @Test func deterministicPerSeed() {
        #expect(BuiltInDataSet.make(seed: 1) == Self.db)
        #expect(BuiltInDataSet.make(seed: 2)["posts"][0] != Self.db["posts"][0])
    }

    @Test func notesAndUsers() throws {
        let notes = try #require(Self.db["notes"].array)
        #expect(notes.count == 20)
        for (index, note) in notes.enumerated() {
            #expect(note.orderedKeys == ["id", "title", "body", "updatedAt"])
            #expect(note["id"].int == index + 1)
            let stamp = try #require(note["updatedAt"].string)
            #expect(stamp.utf8.count == 20 && stamp.hasPrefix("2026-11-") && stamp.hasSuffix("Z"))
        }
        let users = try #require(Self.db["users"].array)
        for user in users {
            let lat = try #require(user["address"]["geo"]["lat"].string)
            let lng = try #require(user["address"]["geo"]["lng"].string)
            #expect(Double(lat).map { abs($0) <= 90 } == true)
            #expect(Double(lng).map { abs($0) <= 180 } == true)
            #expect(user["email"].string?.contains("@") == true)
        }
        let body = try #require(Self.db["posts"][0]["body"].string)
        #expect(body.split(separator: "\n").count == 4)
    }

    @Test func photosPointAtTheImageRoute() async throws {
        let db = BuiltInDataSet.make(imageBaseURL: "http://127.0.0.1:9999")
        let photo = try #require(db["photos"][4999])
        #expect(photo["url"].string == "http://127.0.0.1:9999/images/photo-5000?_ex=600x600")
        #expect(photo["thumbnailUrl"].string == "http://127.0.0.1:9999/images/photo-5000?_ex=150x150")
        let response = await ImageResponder().respond(
            to: .init(method: .get, target: "/images/photo-5000?_ex=150x150"))
        #expect(response?.status.code == 200)
    }
}
