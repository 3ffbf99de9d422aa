import Observation
import TetherAPIs
import TetherStore
import TetherTerminal

/// The posts screen: posts in pages of 20 with their authors' names, and a post with its comments.
///
/// Scrolling near the end loads the next page (json-server's `_page` and `Link`); `r` reloads; Enter opens a
/// post and loads its comments.
@MainActor
@Observable
final class PostsScreen: AppScreen {
    /// Posts per page.
    static let pageSize = 20

    let title = "Posts"
    @ObservationIgnored let context: AppContext
    @ObservationIgnored let posts: QueryState<Post>
    @ObservationIgnored let users: QueryState<User>
    private(set) var list = ListView()
    /// The post whose detail is open, with its comments.
    private(set) var detail: (id: Int, comments: QueryState<Comment>)?
    private(set) var detailScroll = ScrollView()
    @ObservationIgnored private(set) var visibleItems = 10
    /// The detail's size at the last draw, for its scrolling keys.
    @ObservationIgnored var detailSize = DetailPane.Size()

    init(context: AppContext) {
        self.context = context
        posts = context.store.query(.posts(pageSize: Self.pageSize))
        users = context.store.query(.users)
    }

    var keyHelp: [(keys: String, action: String)] {
        [
            ("Enter", "open the post and its comments"), ("↑ ↓ PgUp PgDn", "move; the next page loads near the end"),
            ("r", "reload"), ("Esc", "back to the list"),
        ]
    }

    var isEditingText: Bool { false }
    var hasUnsavedInput: Bool { false }
    var isBusy: Bool {
        posts.status == .loading || posts.status == .refreshing || posts.isLoadingMore
            || detail.map { $0.comments.status == .loading } ?? false
    }

    func appear() {
        Task { await posts.load() }
        Task { await users.load() }
    }

    /// The author's name of user `id`, or `"user 3"` until the users arrive.
    func author(of userID: Int) -> String {
        users.items.first { $0.id == userID }?.name ?? "user \(userID)"
    }

    func handle(_ key: Key) -> Bool {
        if let detail {
            switch key {
            case .escape, .backspace, .left, .character("h"): self.detail = nil
            case .character("r"):
                let comments = detail.comments
                Task { await comments.refresh() }
            default: return DetailPane.handle(key, &detailScroll, size: detailSize)
            }
            return true
        }
        let items = posts.items
        switch key {
        case .enter:
            guard list.selectedIndex < items.count else { return true }
            let post = items[list.selectedIndex]
            let comments = context.store.query(.comments(postId: post.id))
            detail = (post.id, comments)
            detailScroll = ScrollView()
            Task { await comments.load() }
        case .character("r"), .character("R"):
            Task { await posts.refresh() }
            Task { await users.refresh() }
        case .character("j"): _ = list.handle(.down, itemCount: items.count, visibleRows: visibleItems)
        case .character("k"): _ = list.handle(.up, itemCount: items.count, visibleRows: visibleItems)
        default:
            guard list.handle(key, itemCount: items.count, visibleRows: visibleItems) else { return false }
        }
        if posts.hasMore, !posts.isLoadingMore, posts.status == .loaded,
            list.isNearEnd(itemCount: posts.ids.count, threshold: max(5, visibleItems))
        {
            Task { await posts.loadMore() }
        }
        return true
    }

    /// Records the list's size at a draw.
    func setVisibleItems(_ count: Int) { visibleItems = count }
}
