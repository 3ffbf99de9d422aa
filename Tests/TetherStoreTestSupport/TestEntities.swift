import TetherStore

// The entities the store's tests use, shared by its unit tests (over stub transports) and the integration tests
// (against the local server, whose built-in data has these collections).

/// A note of `/notes`.
package struct Note: RemoteEntity {
    package static let collectionPath = "/notes"
    package var id: Int
    package var title: String
    package var body: String
    package var updatedAt: String?

    package init(id: Int, title: String, body: String, updatedAt: String? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
    }
}

/// A post of `/posts`, as jsonplaceholder has them.
package struct Post: RemoteEntity {
    package static let collectionPath = "/posts"
    package var userId: Int
    package var id: Int
    package var title: String
    package var body: String

    package init(userId: Int, id: Int, title: String, body: String) {
        self.userId = userId
        self.id = id
        self.title = title
        self.body = body
    }
}
