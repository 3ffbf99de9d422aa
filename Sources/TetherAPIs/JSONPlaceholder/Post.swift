/// A jsonplaceholder post: `GET /posts`, `/posts/<id>`, written by a ``User``, with ``Comment``s.
public struct Post: RemoteEntity, Hashable {
    public static let collectionPath = "/posts"

    /// The author's ``User/id``.
    public var userId: Int
    public var id: Int
    public var title: String
    public var body: String

    public init(userId: Int, id: Int, title: String, body: String) {
        self.userId = userId
        self.id = id
        self.title = title
        self.body = body
    }

    /// A post to save with ``/TetherStore/EntityStore/create(_:)``, under a temporary id until the server gives it one.
    public static func draft(userId: Int, title: String, body: String) -> Post {
        Post(userId: userId, id: temporaryID(), title: title, body: body)
    }
}
