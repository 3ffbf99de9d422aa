import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

// Models of JSONPlaceholder's `db.json` (the json-server database), as an app would write them.

private struct Post: Decodable, Hashable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

private struct Comment: Decodable, Hashable {
    var postId: Int
    var id: Int
    var name: String
    var email: String
    var body: String
}

private struct Album: Decodable, Hashable {
    var userId: Int
    var id: Int
    var title: String
}

private struct Photo: Decodable, Hashable {
    var albumId: Int
    var id: Int
    var title: String
    var url: String
    var thumbnailUrl: String
}

private struct User: Decodable, Hashable {
    struct Address: Decodable, Hashable {
        struct Geo: Decodable, Hashable {
            /// Sent as a string (`"-37.3159"`).
            @Flexible var lat: Double
            @Flexible var lng: Double
        }

        var street: String
        var suite: String
        var city: String
        var zipcode: String
        var geo: Geo
    }

    struct Company: Decodable, Hashable {
        var name: String
        var catchPhrase: String
        var bs: String
    }

    var id: Int
    var name: String
    var username: String
    var email: String
    var address: Address
    var phone: String
    var website: String
    var company: Company
}

private struct Todo: Decodable, Hashable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

private struct Database: Decodable {
    var posts: LossyArray<Post>
    var comments: LossyArray<Comment>
    var albums: LossyArray<Album>
    var photos: LossyArray<Photo>
    var users: LossyArray<User>
    var todos: LossyArray<Todo>

    var failures: Int {
        posts.failures.count + comments.failures.count + albums.failures.count + photos.failures.count
            + users.failures.count + todos.failures.count
    }
}

@Suite(.enabled(if: SharedFixtures.isAvailable))
struct JSONPlaceholderFixtureTests {
    private static func database(_ decoder: TestDecoder) throws -> Database {
        try decoder.decode(Database.self, from: SharedFixtures.data("jsonplaceholder/db.json"))
    }

    @Test(arguments: TestDecoder.allCases)
    func decodesEveryResource(decoder: TestDecoder) throws {
        let db = try Self.database(decoder)
        #expect(db.failures == 0)
        #expect(db.posts.count == 100)
        #expect(db.comments.count == 500)
        #expect(db.albums.count == 100)
        #expect(db.photos.count == 5000)
        #expect(db.users.count == 10)
        #expect(db.todos.count == 200)
        // Ids run 1…n in order
        #expect(db.photos.map(\.id) == Array(1...5000))
    }

    @Test(arguments: TestDecoder.allCases)
    func decodesRealValues(decoder: TestDecoder) throws {
        let db = try Self.database(decoder)

        #expect(db.posts[0].title == "sunt aut facere repellat provident occaecati excepturi optio reprehenderit")
        #expect(db.posts[0].body.hasPrefix("quia et suscipit\nsuscipit recusandae"))
        #expect(db.posts[99].userId == 10)
        #expect(db.comments[0].email == "Eliseo@gardner.biz")
        #expect(db.comments[499].email == "Emma@joanny.ca")
        #expect(db.comments[499].postId == 100)
        #expect(db.albums[99].title == "enim repellat iste")
        #expect(db.photos[0].url == "https://via.placeholder.com/600/92c952")
        #expect(db.photos[4999].thumbnailUrl == "https://via.placeholder.com/150/6dd9cb")
        #expect(db.photos[4999].albumId == 100)
        #expect(db.todos[0].title == "delectus aut autem")
        #expect(db.todos.filter(\.completed).count == 90)
    }

    @Test(arguments: TestDecoder.allCases)
    func usersGeoStringsDecodeAsDoubles(decoder: TestDecoder) throws {
        let users = try Self.database(decoder).users
        let first = try #require(users.first)
        #expect(first.name == "Leanne Graham")
        #expect(first.username == "Bret")
        #expect(first.address.city == "Gwenborough")
        #expect(first.address.geo.lat == -37.3159)
        #expect(first.address.geo.lng == 81.1496)
        #expect(first.company.name == "Romaguera-Crona")
        #expect(users[9].address.geo.lat == -38.2386)
        #expect(users[9].address.geo.lng == 57.2232)
        #expect(
            users.allSatisfy { (-90...90).contains($0.address.geo.lat) && (-180...180).contains($0.address.geo.lng) })
    }
}
