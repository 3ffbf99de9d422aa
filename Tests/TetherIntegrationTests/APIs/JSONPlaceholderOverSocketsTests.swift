import Foundation
import Testing
import TetherAPIs

/// Posts, comments and users through the store against the local server's jsonplaceholder data.
@MainActor
@Suite struct JSONPlaceholderOverSocketsTests {
    @Test func postsByUser() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let posts = store.query(.posts(userId: 2))
        await posts.load()
        #expect(posts.status == .loaded, "\(String(describing: posts.error))")
        #expect(posts.items.count == 10)
        #expect(posts.items.allSatisfy { $0.userId == 2 })
        #expect(posts.ids == Array(11...20))
        #expect(!posts.hasMore)
        #expect(store.query(.posts(userId: 2)) === posts)
        let nobody = store.query(.posts(userId: 999))
        await nobody.load()
        #expect(nobody.status == .loaded && nobody.items.isEmpty)
    }

    @Test func allPostsInPages() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let posts = store.query(.posts(pageSize: 40))
        await posts.load()
        #expect(posts.ids == Array(1...40))
        #expect(posts.totalCount == 100)
        await posts.loadMore()
        await posts.loadMore()
        #expect(!posts.hasMore)
        #expect(posts.ids == Array(1...100))
    }

    @Test func commentsOfAPost() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let comments = store.query(.comments(postId: 3))
        await comments.load()
        #expect(comments.status == .loaded, "\(String(describing: comments.error))")
        #expect(comments.items.count == 5)
        #expect(comments.items.allSatisfy { $0.postId == 3 && $0.email.contains("@") && !$0.body.isEmpty })
        #expect(comments.ids == Array(11...15))
        // A detail view of one of them is the same entity
        let detail = store.entity(Comment.self, id: 12)
        #expect(detail.value == comments.items[1])
        await detail.load()
        #expect(detail.status == .synced && detail.value == comments.items[1])
    }

    @Test func users() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let users = store.query(.users)
        await users.load()
        #expect(users.status == .loaded, "\(String(describing: users.error))")
        #expect(users.items.count == 10)
        let first = try #require(users.items.first)
        #expect(first.id == 1 && !first.name.isEmpty && first.email.contains("@"))
        #expect(Double(first.address.geo.lat) != nil && Double(first.address.geo.lng) != nil)
        #expect(!first.company.name.isEmpty && !first.address.city.isEmpty)
    }

    @Test func aMissingPostIsDeletedAndAFailingListKeepsItsError() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let missing = store.entity(Post.self, id: 9999)
        await missing.load()
        #expect(missing.status == .deleted)
        #expect(missing.value == nil)

        let failing = server.store(interceptors: [RequestDecorator.fault("status=503", for: .get)])
        let users = failing.query(.users)
        await users.load()
        #expect(users.status == .failed)
        #expect(users.error?.httpError?.status?.code == 503)
        #expect(users.items.isEmpty)
    }

    @Test func aNewPostShowsInTheUnfilteredList() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let posts = store.query(.posts())
        await posts.load()
        let saved = try await store.create(Post.draft(userId: 1, title: "新しい投稿", body: "本文"))
        #expect(saved.id == 101)
        #expect(posts.items.last == saved)
        let check = try await server.client.send(Request<Post>(path: "/posts/101")).value
        #expect(check == saved)
    }
}
