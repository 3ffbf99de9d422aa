/// A jsonplaceholder comment on a ``Post``: `GET /comments`, `/posts/<id>/comments`.
public struct Comment: RemoteEntity, Hashable {
    public static let collectionPath = "/comments"

    /// The ``Post/id`` of the post commented on.
    public var postId: Int
    public var id: Int
    /// The comment's subject line.
    public var name: String
    /// The commenter's address.
    public var email: String
    public var body: String

    public init(postId: Int, id: Int, name: String, email: String, body: String) {
        self.postId = postId
        self.id = id
        self.name = name
        self.email = email
        self.body = body
    }
}
