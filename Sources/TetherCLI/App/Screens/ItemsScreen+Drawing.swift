import TetherAPIs
import TetherStore
import TetherTerminal

extension ItemsScreen {
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let (searchRow, rest) = rect.split(top: 1)
        let (infoRow, body) = rest.split(top: 1)
        drawSearchRow(into: &buffer, in: searchRow)
        drawInfoRow(into: &buffer, in: infoRow)
        if focus == .detail, let detailID, let item = items.first(where: { $0.id == detailID }) {
            drawDetail(of: item, into: &buffer, in: body)
        } else {
            drawList(into: &buffer, in: body)
        }
    }

    private func drawSearchRow(into buffer: inout ScreenBuffer, in rect: Rect) {
        let label = " Search "
        let sortLabel = " sort: \(Self.name(of: sort)) (s) "
        let x = rect.x + buffer.draw(label, x: rect.x, y: rect.y, style: Theme.title)
        let fieldWidth = max(0, rect.maxX - x - sortLabel.terminalColumns)
        field.draw(
            into: &buffer, in: Rect(x: x, y: rect.y, width: fieldWidth, height: 1), style: Theme.field,
            isFocused: focus == .search)
        buffer.draw(sortLabel, x: x + fieldWidth, y: rect.y, style: Theme.secondary)
    }

    private func drawInfoRow(into buffer: inout ScreenBuffer, in rect: Rect) {
        let state = liveState
        if let notice {
            Banner(notice).draw(into: &buffer, in: rect)
        } else if let error = state?.error, !error.isCancellation {
            Banner(error.message, kind: .error, hint: "R retry").draw(into: &buffer, in: rect)
        } else if let state, let keyword {
            var spans = [Span(" " + keyword, style: Theme.title)]
            switch state.status {
            case .loading:
                spans.append(Span("  \(Spinner().frame(tick: context.tick)) searching…", style: Theme.syncing))
            default:
                let count = state.totalCount ?? state.ids.count
                var text = "  \(Self.grouped(count)) item\(count == 1 ? "" : "s")"
                if count > state.ids.count { text += ", \(state.ids.count) shown" }
                spans.append(Span(text, style: Theme.secondary))
                if state.isLoadingMore {
                    spans.append(Span("  \(Spinner().frame(tick: context.tick)) loading more…", style: Theme.syncing))
                }
            }
            buffer.draw(spans, x: rect.x, y: rect.y, maxColumns: rect.width)
        }
    }

    private func drawList(into buffer: inout ScreenBuffer, in rect: Rect) {
        let items = self.items
        guard !items.isEmpty else {
            drawEmptyState(into: &buffer, in: rect)
            return
        }
        let rowHeight = 2
        setVisibleItems(max(1, rect.height / rowHeight))
        let priceWidth = 12
        list.draw(
            into: &buffer, in: rect, itemCount: items.count, rowHeight: rowHeight,
            highlight: focus == .list ? Theme.selected : Theme.title
        ) {
            index, isSelected, width in
            let item = items[index]
            let thumbnail = Span("░░░░ ", style: Theme.thumbnail)
            let nameWidth = max(1, width - 5 - priceWidth - 1)
            let name = TextLayout.pad(item.itemName, toColumns: nameWidth)
            let price = TextLayout.padLeft(item.price.description, toColumns: priceWidth)
            var details = "\(item.shopName)"
            if item.reviewCount > 0 {
                details += "  " + Self.stars(item.reviewAverage)
                details += " \(String(format: "%.1f", item.reviewAverage)) (\(item.reviewCount))"
            }
            return [
                [thumbnail, Span(name, style: Theme.title), Span(" "), Span(price, style: Theme.price)],
                [thumbnail, Span(TextLayout.truncate(details, toColumns: max(1, width - 5)), style: Theme.secondary)],
            ]
        }
    }

    private func drawEmptyState(into buffer: inout ScreenBuffer, in rect: Rect) {
        let lines: [Span]
        switch liveState?.status {
        case .loading?:
            lines = [Span("\(Spinner().frame(tick: context.tick)) Searching Rakuten Ichiba…", style: Theme.syncing)]
        case .loaded?:
            lines = [Span("No items for '\(keyword ?? "")'.", style: Theme.title), Span("Try another keyword.")]
        case .failed?:
            lines = [Span("The search failed; R retries it.", style: Theme.secondary)]
        default:
            lines = [
                Span("Type a keyword and press Enter.", style: Theme.title),
                Span(
                    "Try ノートパソコン, コーヒー or Tシャツ. Tab switches screens, ? lists every key.",
                    style: Theme.secondary),
            ]
        }
        for (offset, line) in lines.enumerated() {
            let wrapped = TextLayout.wrap(line.text, toColumns: max(1, rect.width - 4))
            for (index, text) in wrapped.enumerated() where offset * 2 + index + 1 < rect.height {
                buffer.draw(text, x: rect.x + 2, y: rect.y + 1 + offset * 2 + index, style: line.style)
            }
        }
    }

    private func drawDetail(of item: RakutenItem, into buffer: inout ScreenBuffer, in rect: Rect) {
        let width = DetailPane.textWidth(in: rect)
        var lines: [Span] = []
        for line in TextLayout.wrap(item.itemName, toColumns: width) { lines.append(Span(line, style: Theme.title)) }
        lines.append(Span(""))
        lines.append(Span(item.price.description, style: Theme.price))
        lines.append(Span("Shop: \(item.shopName)"))
        if item.reviewCount > 0 {
            let average = String(format: "%.2f", item.reviewAverage)
            lines.append(Span("\(Self.stars(item.reviewAverage)) \(average) from \(item.reviewCount) reviews"))
        } else {
            lines.append(Span("No reviews yet", style: Theme.secondary))
        }
        if !item.catchcopy.isEmpty {
            for line in TextLayout.wrap(item.catchcopy, toColumns: width) {
                lines.append(Span(line, style: Theme.secondary))
            }
        }
        lines.append(Span(""))
        for line in TextLayout.wrap(item.itemUrl, toColumns: width) { lines.append(Span(line, style: Theme.link)) }
        lines.append(Span(""))
        for line in TextLayout.wrap(item.itemCaption, toColumns: width) { lines.append(Span(line)) }
        detailSize = DetailPane.draw(
            lines, scroll: detail, footer: " Esc back · ↑↓ PgUp PgDn scroll ", into: &buffer, in: rect)
    }
}
