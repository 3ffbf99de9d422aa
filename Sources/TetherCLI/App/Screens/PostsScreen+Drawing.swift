import TetherAPIs
import TetherStore
import TetherTerminal

extension PostsScreen {
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let (headerRow, body) = rect.split(top: 1)
        if let error = posts.error, !error.isCancellation {
            Banner("Posts could not be loaded: \(error.message)", kind: .error, hint: "r retry").draw(
                into: &buffer, in: headerRow)
        } else {
            drawHeader(into: &buffer, in: headerRow)
        }
        if let detail, let post = posts.items.first(where: { $0.id == detail.id }) {
            if let halves = SplitLayout.divide(body) {
                drawList(into: &buffer, in: halves.list)
                SplitLayout.drawRule(into: &buffer, in: body, between: halves)
                drawDetail(of: post, comments: detail.comments, into: &buffer, in: halves.detail)
            } else {
                drawDetail(of: post, comments: detail.comments, into: &buffer, in: body)
            }
        } else {
            drawList(into: &buffer, in: body)
        }
    }

    private func drawHeader(into buffer: inout ScreenBuffer, in rect: Rect) {
        var spans = [Span(" Posts", style: Theme.title)]
        switch posts.status {
        case .loading, .refreshing:
            spans.append(Span("  \(Spinner().frame(tick: context.tick)) loading…", style: Theme.syncing))
        default:
            let shown = posts.ids.count
            let total = posts.totalCount.map { " of \($0)" } ?? ""
            spans.append(Span("  \(shown)\(total) shown", style: Theme.secondary))
            if posts.isLoadingMore {
                spans.append(Span("  \(Spinner().frame(tick: context.tick)) loading more…", style: Theme.syncing))
            }
        }
        buffer.draw(spans, x: rect.x, y: rect.y, maxColumns: rect.width)
    }

    private func drawList(into buffer: inout ScreenBuffer, in rect: Rect) {
        let items = posts.items
        guard !items.isEmpty else {
            let text =
                posts.status == .loaded ? "No posts." : "\(Spinner().frame(tick: context.tick)) Loading posts…"
            buffer.draw(text, x: rect.x + 2, y: rect.y + 1, style: Theme.secondary, maxColumns: rect.width - 2)
            return
        }
        setVisibleItems(max(1, rect.height / 2))
        list.draw(into: &buffer, in: rect, itemCount: items.count, rowHeight: 2, highlight: Theme.selected) {
            index, _, width in
            let post = items[index]
            let author = self.author(of: post.userId)
            let authorWidth = min(24, author.terminalColumns)
            let titleWidth = max(1, width - 1 - authorWidth - 2)
            let title = TextLayout.pad(post.title, toColumns: titleWidth)
            let body = post.body.replacingOccurrences(of: "\n", with: " ")
            return [
                [
                    Span(" "), Span(title, style: Theme.title), Span("  "),
                    Span(TextLayout.truncate(author, toColumns: authorWidth), style: Theme.key),
                ],
                [Span(" "), Span(TextLayout.truncate(body, toColumns: max(1, width - 1)), style: Theme.secondary)],
            ]
        }
    }

    private func drawDetail(
        of post: Post, comments: QueryState<Comment>, into buffer: inout ScreenBuffer, in rect: Rect
    ) {
        let width = DetailPane.textWidth(in: rect)
        var lines: [Span] = []
        for line in TextLayout.wrap(post.title, toColumns: width) { lines.append(Span(line, style: Theme.title)) }
        lines.append(Span("by \(author(of: post.userId))", style: Theme.key))
        lines.append(Span(""))
        for line in TextLayout.wrap(post.body, toColumns: width) { lines.append(Span(line)) }
        lines.append(Span(""))
        switch comments.status {
        case .idle, .loading:
            lines.append(Span("\(Spinner().frame(tick: context.tick)) Loading comments…", style: Theme.syncing))
        case .failed:
            lines.append(
                Span("Comments could not be loaded: \(comments.error?.message ?? "")  (r to retry)", style: Theme.error)
            )
        default:
            let items = comments.items
            lines.append(
                Span("\(items.count) comment\(items.count == 1 ? "" : "s")", style: Theme.title.adding(.underline)))
            for comment in items {
                lines.append(Span(""))
                lines.append(Span(TextLayout.truncate(comment.name, toColumns: width), style: Theme.title))
                lines.append(Span(comment.email, style: Theme.secondary))
                for line in TextLayout.wrap(comment.body, toColumns: width) { lines.append(Span(line)) }
            }
        }
        detailSize = DetailPane.draw(
            lines, scroll: detailScroll, footer: " Esc back · ↑↓ scroll · r reload comments ", into: &buffer, in: rect)
    }
}
