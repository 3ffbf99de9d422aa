import Foundation
import Observation
import TetherAPIs
import TetherStore
import TetherTerminal

/// The item search screen: a search field over a list of Rakuten items, and an item's detail.
///
/// Enter in the field searches (a new search cancels the one in flight, and a late answer for the old keyword
/// never replaces the new results); scrolling near the end loads the next page; `s` cycles the sort orders;
/// Enter on an item opens its detail. Failures show in a banner, `R` retries. When the terminal has colours, each
/// row shows the item's picture and the detail a large one (``Thumbnails``, through ``AppContext/thumbnails``);
/// drawing never waits for them.
@MainActor
@Observable
final class ItemsScreen: AppScreen {
    /// Where the keyboard goes.
    enum Focus: Sendable, Hashable {
        case search, list, detail
    }

    /// The orders `s` cycles through.
    static let sortOrders: [RakutenSort] = [
        .standard, .itemPriceAscending, .itemPriceDescending, .reviewAverageDescending, .reviewCountDescending,
        .updateTimestampDescending,
    ]

    let title = "Items"
    @ObservationIgnored let context: AppContext
    @ObservationIgnored private let results: LiveQuery<RakutenItem>
    private(set) var field = TextField(placeholder: "Search Rakuten Ichiba: a keyword such as ノートパソコン")
    private(set) var focus = Focus.search
    private(set) var list = ListView()
    private(set) var sort = RakutenSort.standard
    /// The keyword of the results shown.
    private(set) var keyword: String?
    /// The id of the item whose detail is open.
    private(set) var detailID: String?
    private(set) var detail = ScrollView()
    /// A hint for the user that is not an error of the server ("type a keyword first").
    private(set) var notice: String?
    /// Items the list showed at the last draw, for paging keys. Drawing writes only unobserved state like this.
    @ObservationIgnored private(set) var visibleItems = 10
    /// The detail's size at the last draw, for its scrolling keys.
    @ObservationIgnored var detailSize = DetailPane.Size()

    init(context: AppContext) {
        self.context = context
        results = context.itemStore.liveQuery(of: RakutenItem.self)
    }

    var keyHelp: [(keys: String, action: String)] {
        [
            ("/", "type a keyword"), ("Enter", "search (in the field) · open the item (in the list)"),
            ("↑ ↓ PgUp PgDn", "move; the next page loads near the end"), ("s", "next sort order"),
            ("R", "retry after an error"), ("Esc", "back: from the detail to the list, out of the field"),
        ]
    }

    var isEditingText: Bool { focus == .search }
    var hasUnsavedInput: Bool { false }
    var isBusy: Bool {
        guard let current = results.current else { return false }
        return current.status == .loading || current.status == .refreshing || current.isLoadingMore
    }

    /// The items shown, in order.
    var items: [RakutenItem] { results.items }

    func appear() {}

    /// Moves the keyboard to the search field.
    func focusSearch() {
        detailID = nil
        focus = .search
    }

    /// Searches for `keyword` (as if typed and submitted).
    func search(_ keyword: String) {
        field = TextField(text: keyword, placeholder: field.placeholder)
        submit()
    }

    func handle(_ key: Key) -> Bool {
        switch focus {
        case .search: handleSearchKey(key)
        case .list: handleListKey(key)
        case .detail: handleDetailKey(key)
        }
    }

    private func handleSearchKey(_ key: Key) -> Bool {
        switch key {
        case .enter:
            submit()
            return true
        case .escape:
            // Leaves the field, so the app's keys (Tab, digits, q) work again.
            focus = .list
            return true
        case .down:
            if !results.items.isEmpty { focus = .list }
            return true
        case .tab, .backTab, .control("c"):
            return false
        default:
            notice = nil
            return field.handle(key)
        }
    }

    private func handleListKey(_ key: Key) -> Bool {
        let count = results.items.count
        switch key {
        case .enter:
            guard list.selectedIndex < count else { return true }
            detailID = results.items[list.selectedIndex].id
            detail = ScrollView()
            focus = .detail
        case .escape:
            // Stays in the list: Escape never puts the keyboard in a text field (a following `q` would type).
            break
        case .up where list.selectedIndex == 0:
            focus = .search
        case .character("s"):
            cycleSort()
        case .character("R"):
            retry()
        case .character("j"):
            _ = list.handle(.down, itemCount: count, visibleRows: visibleItems)
        case .character("k"):
            _ = list.handle(.up, itemCount: count, visibleRows: visibleItems)
        default:
            guard list.handle(key, itemCount: count, visibleRows: visibleItems) else { return false }
        }
        loadMoreIfNeeded()
        return true
    }

    private func handleDetailKey(_ key: Key) -> Bool {
        switch key {
        case .escape, .backspace, .left, .character("h"):
            focus = .list
            detailID = nil
        default: return DetailPane.handle(key, &detail, size: detailSize)
        }
        return true
    }

    /// The state of the selected search.
    var liveState: QueryState<RakutenItem>? { results.current }

    /// Records the list's size at a draw.
    func setVisibleItems(_ count: Int) { visibleItems = count }

    /// Searches for the field's text with the current sort order.
    private func submit() {
        let text = field.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            notice = "Type a keyword, then press Enter."
            return
        }
        notice = nil
        keyword = text
        context.thumbnails.forgetFailures()
        list = ListView()
        detailID = nil
        results.select(.itemSearch(RakutenItemSearch(keyword: text, sort: sort)))
        focus = .list
    }

    private func cycleSort() {
        let index = Self.sortOrders.firstIndex(of: sort) ?? 0
        sort = Self.sortOrders[(index + 1) % Self.sortOrders.count]
        guard let keyword else { return }
        list = ListView()
        results.select(.itemSearch(RakutenItemSearch(keyword: keyword, sort: sort)))
    }

    private func retry() {
        context.thumbnails.forgetFailures()
        guard let current = results.current, current.error != nil else { return }
        if current.status == .failed {
            Task { await current.refresh() }
        } else {
            Task { await current.loadMore() }
        }
    }

    private func loadMoreIfNeeded() {
        guard let current = results.current, current.hasMore, !current.isLoadingMore, current.status == .loaded,
            current.error == nil, list.isNearEnd(itemCount: current.ids.count, threshold: max(5, visibleItems))
        else { return }
        Task { await current.loadMore() }
    }
}

extension ItemsScreen {
    /// A friendly name for a sort order, for the screen's header.
    static func name(of sort: RakutenSort) -> String {
        switch sort {
        case .standard: "relevance"
        case .itemPriceAscending: "price ↑"
        case .itemPriceDescending: "price ↓"
        case .reviewAverageDescending: "best reviewed"
        case .reviewCountDescending: "most reviewed"
        case .updateTimestampDescending: "newest"
        case .reviewAverageAscending: "worst reviewed"
        case .reviewCountAscending: "least reviewed"
        case .updateTimestampAscending: "oldest"
        case .affiliateRateAscending: "affiliate rate ↑"
        case .affiliateRateDescending: "affiliate rate ↓"
        }
    }

    /// `1,234` for 1234: counts grouped as the prices are.
    static func grouped(_ count: Int) -> String {
        let yen = Yen(count).description
        return String(yen.dropLast())
    }

    /// `★★★★☆` for an average of 0 to 5.
    static func stars(_ average: Double) -> String {
        let full = min(5, max(0, Int(average.rounded())))
        return String(repeating: "★", count: full) + String(repeating: "☆", count: 5 - full)
    }
}
