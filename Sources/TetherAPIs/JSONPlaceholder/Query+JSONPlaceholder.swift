extension Query where Entity == Post {
    /// Posts, all of them or one user's, in pages of `pageSize` (json-server's `_page`/`_limit` and `Link`) or in
    /// one request.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherAPIs
    ///
    /// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
    /// let posts = store.query(.posts(userId: 1))
    /// let feed = store.query(.posts(pageSize: 20))   // loadMore() for the next 20
    /// ```
    ///
    /// The unfiltered list also shows posts created with ``/TetherStore/EntityStore/create(_:)``.
    public static func posts(userId: Int? = nil, pageSize: Int? = nil) -> Query<Post> {
        .list(Post.collectionPath, query: userId.map { [("userId", String($0))] } ?? [], pageSize: pageSize)
    }
}

extension Query where Entity == Comment {
    /// The comments of post `postId`, through the nested route `/posts/<id>/comments`.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherAPIs
    ///
    /// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
    /// let comments = store.query(.comments(postId: 1))
    /// ```
    public static func comments(postId: Int) -> Query<Comment> {
        .list(Post.collectionPath + "/\(postId)" + Comment.collectionPath)
    }
}

extension Query where Entity == User {
    /// Every user, in one request.
    public static var users: Query<User> { .list(User.collectionPath) }
}
