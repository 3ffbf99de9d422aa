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
            if let halves = SplitLayout.divide(body) {
                drawList(into: &buffer, in: halves.list)
                SplitLayout.drawRule(into: &buffer, in: body, between: halves)
                drawDetail(of: item, into: &buffer, in: halves.detail)
            } else {
                drawDetail(of: item, into: &buffer, in: body)
            }
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
        // With pictures a row is three lines and its thumbnail six columns (about square in most fonts).
        let thumbnails = context.thumbnails
        let pictures = thumbnails.showsPictures
        let rowHeight = pictures ? 3 : 2
        let thumbnailColumns = pictures ? 6 : 4
        setVisibleItems(max(1, rect.height / rowHeight))
        let priceWidth = 12
        var shownRows: [(index: Int, top: Int)] = []
        list.draw(
            into: &buffer, in: rect, itemCount: items.count, rowHeight: rowHeight,
            highlight: focus == .list ? Theme.selected : Theme.title
        ) {
            index, isSelected, width in
            shownRows.append((index, rect.y + shownRows.count * rowHeight))
            let item = items[index]
            let thumbnail = Span(String(repeating: "░", count: thumbnailColumns) + " ", style: Theme.thumbnail)
            let textWidth = max(1, width - thumbnailColumns - 1)
            let nameWidth = max(1, textWidth - priceWidth - 1)
            let name = TextLayout.pad(item.itemName, toColumns: nameWidth)
            let price = TextLayout.padLeft(item.price.description, toColumns: priceWidth)
            var details = "\(item.shopName)"
            if item.reviewCount > 0 {
                details += "  " + Self.stars(item.reviewAverage)
                details += " \(String(format: "%.1f", item.reviewAverage)) (\(item.reviewCount))"
            }
            var lines = [
                [thumbnail, Span(name, style: Theme.title), Span(" "), Span(price, style: Theme.price)],
                [thumbnail, Span(TextLayout.truncate(details, toColumns: textWidth), style: Theme.secondary)],
            ]
            if pictures {
                lines.append([
                    thumbnail, Span(TextLayout.truncate(item.catchcopy, toColumns: textWidth), style: Theme.secondary),
                ])
            }
            return lines
        }
        guard pictures else { return }
        // The pictures that are ready go over their placeholders; the others start loading.
        for (index, top) in shownRows {
            let area = Rect(x: rect.x, y: top, width: thumbnailColumns, height: rowHeight)
            // An item without pictures (Rakuten has some) shows none rather than a placeholder that never fills.
            guard let url = Self.thumbnailURL(of: items[index]) else {
                buffer.fill(area)
                continue
            }
            guard let cells = thumbnails.cells(for: url, columns: thumbnailColumns, rows: rowHeight) else { continue }
            buffer.fill(area)
            buffer.drawImage(cells, x: rect.x, y: top)
        }
        // The next screenful below, so scrolling down finds them in memory.
        if let last = shownRows.last?.index, last + 1 < items.count {
            let below = items[(last + 1)..<min(items.count, last + 1 + shownRows.count)]
            thumbnails.prefetch(below.compactMap(Self.thumbnailURL(of:)), columns: thumbnailColumns, rows: rowHeight)
        }
        thumbnails.endFrame()
    }

    /// The picture a row shows: Rakuten's 64×64 thumbnail, else the 128×128 one.
    static func thumbnailURL(of item: RakutenItem) -> String? {
        item.smallImageUrls.first ?? item.mediumImageUrls.first
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
        // The picture goes on the right when there is room for it beside 40 columns of text, else on top.
        var textRect = rect
        var picture: Rect?
        if context.thumbnails.showsPictures, item.mediumImageUrls.first != nil, rect.height >= 6 {
            if rect.width >= 64 {
                let columns = min(48, rect.width / 3, (rect.height - 1) * 2)
                picture = Rect(x: rect.maxX - columns - 1, y: rect.y, width: columns, height: (columns + 1) / 2)
                textRect = Rect(x: rect.x, y: rect.y, width: rect.width - columns - 2, height: rect.height)
            } else {
                let rows = min(10, rect.height / 2)
                picture = Rect(x: rect.x + 2, y: rect.y, width: rows * 2, height: rows)
                textRect = Rect(x: rect.x, y: rect.y + rows + 1, width: rect.width, height: rect.height - rows - 1)
            }
        }
        let width = DetailPane.textWidth(in: textRect)
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
            lines, scroll: detail, footer: " Esc back · ↑↓ PgUp PgDn scroll ", into: &buffer, in: textRect)
        if let picture { drawPicture(of: item, into: &buffer, in: picture) }
    }

    /// The item's picture at up to 600×600 (Rakuten's largest), fitted into `rect`; a placeholder while it loads.
    private func drawPicture(of item: RakutenItem, into buffer: inout ScreenBuffer, in rect: Rect) {
        guard let medium = item.mediumImageUrls.first else { return }
        let thumbnails = context.thumbnails
        let url = Thumbnails.url(medium, side: min(600, max(128, rect.width * 4)))
        if let cells = thumbnails.cells(for: url, columns: rect.width, rows: rect.height) {
            buffer.drawImage(cells, x: rect.x, y: rect.y)
        } else {
            buffer.fill(rect, style: Theme.thumbnail)
            buffer.draw(
                "loading…", x: rect.x + max(0, (rect.width - 8) / 2), y: rect.y + rect.height / 2,
                style: Theme.thumbnail, maxColumns: rect.width)
        }
        thumbnails.endFrame()
    }
}
