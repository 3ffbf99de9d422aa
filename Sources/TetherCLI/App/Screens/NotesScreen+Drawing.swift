import Foundation
import TetherAPIs
import TetherStore
import TetherTerminal

extension NotesScreen {
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let (bannerRow, body) = rect.split(top: 1)
        if let banner {
            Banner(banner.text, kind: banner.kind).draw(into: &buffer, in: bannerRow)
        } else if notes.isOffline, !notes.ids.isEmpty {
            // Good rows from disk or an earlier load: shown with when they were saved, not under an error.
            let saved = notes.updatedAt.map { " saved at \(Self.clockTime($0))" } ?? " saved on this device"
            Banner("Offline, showing the notes\(saved)", kind: .warning, hint: "r retry").draw(
                into: &buffer, in: bannerRow)
        } else if let error = notes.error, !error.isCancellation {
            Banner("Notes could not be loaded: \(error.message)", kind: .error, hint: "r retry").draw(
                into: &buffer, in: bannerRow)
        } else {
            drawHeader(into: &buffer, in: bannerRow)
        }
        // Wide screens keep the list beside an open note or its editor.
        var pane = body
        if mode != .list, let halves = SplitLayout.divide(body) {
            drawList(into: &buffer, in: halves.list)
            SplitLayout.drawRule(into: &buffer, in: body, between: halves)
            pane = halves.detail
        }
        switch mode {
        case .list: drawList(into: &buffer, in: body)
        case .detail(let id): drawDetail(of: state(of: id), into: &buffer, in: pane)
        case .editor(let id): drawEditor(editing: id, into: &buffer, in: pane)
        }
        if let dialog { dialog.draw(into: &buffer, in: rect) }
    }

    /// `14:02` in the local time zone (with the date when it is not today).
    static func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        guard !calendar.isDateInToday(date) else { return time }
        return String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0) + time
    }

    private func drawHeader(into buffer: inout ScreenBuffer, in rect: Rect) {
        var spans = [Span(" Notes", style: Theme.title)]
        switch notes.status {
        case .loading, .refreshing:
            spans.append(Span("  \(Spinner().frame(tick: context.tick)) loading…", style: Theme.syncing))
        default:
            let count = notes.ids.count
            spans.append(Span("  \(count) note\(count == 1 ? "" : "s")", style: Theme.secondary))
        }
        buffer.draw(spans, x: rect.x, y: rect.y, maxColumns: rect.width)
    }

    /// The marker for a note's sync state: `"↻ saving…"`, `"✓ saved"`, `"✗ not saved"`, `"⚠ conflict"`.
    func marker(for state: EntityState<Note>) -> Span? {
        if state.conflict != nil { return Span("⚠ conflict", style: Theme.warning) }
        switch state.writeStatus {
        case .queued?, .sending?:
            return Span(
                "\(Spinner().frame(tick: context.tick)) \(state.id < 0 ? "adding" : "saving")…", style: Theme.syncing)
        case .waitingForNetwork?: return Span("⏸ waiting to send", style: Theme.warning)
        case .failed?: return Span("✗ not saved", style: Theme.error)
        case .conflict?: return Span("⚠ conflict", style: Theme.warning)
        case nil: break
        }
        switch state.status {
        case .syncing, .loading:
            return Span(
                "\(Spinner().frame(tick: context.tick)) \(state.id < 0 ? "adding" : "saving")…", style: Theme.syncing)
        case .failed: return Span("✗ failed", style: Theme.error)
        case .synced where savedIDs.contains(state.id): return Span("✓ saved", style: Theme.success)
        default: return nil
        }
    }

    private func drawList(into buffer: inout ScreenBuffer, in rect: Rect) {
        let rows = self.rows
        guard !rows.isEmpty else {
            let text: String
            switch notes.status {
            case .idle, .loading: text = "\(Spinner().frame(tick: context.tick)) Loading notes…"
            case .failed: text = "No notes to show; r tries again."
            default: text = "No notes yet. Press n to write one."
            }
            buffer.draw(text, x: rect.x + 2, y: rect.y + 1, style: Theme.secondary, maxColumns: rect.width - 2)
            return
        }
        setVisibleItems(max(1, rect.height / 2))
        list.draw(into: &buffer, in: rect, itemCount: rows.count, rowHeight: 2, highlight: Theme.selected) {
            index, _, width in
            let state = rows[index]
            let note = state.value
            let marker = self.marker(for: state)
            let markerWidth = marker.map { $0.columns + 2 } ?? 0
            let titleWidth = max(1, width - 1 - markerWidth)
            let title = TextLayout.pad(note?.title ?? "", toColumns: titleWidth)
            var first = [Span(" "), Span(title, style: Theme.title)]
            if let marker { first += [Span("  "), marker] }
            var second = note?.body.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            if state.writeStatus == .failed, let error = state.error {
                second = "not saved: \(Self.reason(error)) · t sends again · x discards"
            } else if state.status == .failed, let error = state.error {
                second = error.message
            }
            let style = state.status == .failed ? Theme.error.adding(.dim) : Theme.secondary
            return [first, [Span(" "), Span(TextLayout.truncate(second, toColumns: max(1, width - 1)), style: style)]]
        }
    }

    private func drawDetail(of state: EntityState<Note>, into buffer: inout ScreenBuffer, in rect: Rect) {
        let width = DetailPane.textWidth(in: rect)
        var lines: [Span] = []
        guard let note = state.value else {
            buffer.draw("This note is gone.", x: rect.x + 2, y: rect.y + 1, style: Theme.secondary)
            return
        }
        if let conflict = state.conflict {
            lines.append(Span("⚠ Someone else changed this note on the server first.", style: Theme.warning))
            lines.append(Span("Press m to keep your version (sent again over theirs), s to take the server's."))
            lines.append(Span(""))
            lines.append(Span("Your version", style: Theme.title.adding(.underline)))
            lines += wrapped(conflict.local, width: width)
            lines.append(Span(""))
            lines.append(Span("Server version", style: Theme.title.adding(.underline)))
            if let server = conflict.server {
                lines += wrapped(server, width: width)
            } else {
                lines.append(Span("(deleted on the server)", style: Theme.secondary))
            }
        } else {
            for line in TextLayout.wrap(note.title, toColumns: width) { lines.append(Span(line, style: Theme.title)) }
            var status = note.updatedAt.map { "updated \($0)" } ?? ""
            if let marker = marker(for: state) {
                lines.append(Span(marker.text + (status.isEmpty ? "" : "  ·  " + status), style: marker.style))
                status = ""
            } else if !status.isEmpty {
                lines.append(Span(status, style: Theme.secondary))
            }
            if state.writeStatus == .failed, let error = state.error {
                let text =
                    "Not saved: \(Self.reason(error)) Your text is kept: t sends it again, x discards it."
                for line in TextLayout.wrap(text, toColumns: width) { lines.append(Span(line, style: Theme.error)) }
            } else if state.writeStatus == .waitingForNetwork {
                let text =
                    "Waiting to send: the server cannot be reached. The change is kept on this device and sent when it can be (also after a restart)."
                for line in TextLayout.wrap(text, toColumns: width) { lines.append(Span(line, style: Theme.warning)) }
            } else if let error = state.error, state.status != .syncing {
                let text = (state.status == .failed ? "Failed: " : "Could not refresh: ") + error.message
                for line in TextLayout.wrap(text, toColumns: width) { lines.append(Span(line, style: Theme.error)) }
            }
            lines.append(Span(""))
            for line in TextLayout.wrap(note.body, toColumns: width) { lines.append(Span(line)) }
        }
        let footer =
            state.conflict != nil
            ? " m keep mine · s take the server's · Esc back "
            : state.writeStatus == .failed
                ? " t send again · x discard · e edit · Esc back " : " e edit · d delete · Esc back "
        detailSize = DetailPane.draw(lines, scroll: detailScroll, footer: footer, into: &buffer, in: rect)
    }

    private func wrapped(_ note: Note, width: Int) -> [Span] {
        TextLayout.wrap(note.title, toColumns: width).map { Span($0, style: Theme.title) }
            + TextLayout.wrap(note.body, toColumns: width).map { Span($0) }
    }

    private func drawEditor(editing id: Int?, into buffer: inout ScreenBuffer, in rect: Rect) {
        guard rect.height >= 4 else { return }
        let x = rect.x + 2
        let width = max(1, rect.width - 4)
        buffer.draw(id == nil ? "New note" : "Edit note", x: x, y: rect.y, style: Theme.title)
        buffer.draw("Title", x: x, y: rect.y + 1, style: editorField == .title ? Theme.key : Theme.secondary)
        titleField.draw(
            into: &buffer, in: Rect(x: x + 7, y: rect.y + 1, width: width - 7, height: 1), style: Theme.field,
            isFocused: editorField == .title && dialog == nil)
        buffer.draw("Body", x: x, y: rect.y + 3, style: editorField == .body ? Theme.key : Theme.secondary)
        let box = Rect(x: x, y: rect.y + 4, width: width, height: rect.height - 6)
        buffer.drawBox(box, style: editorField == .body ? Theme.key : Theme.secondary, title: nil)
        editorRows = max(1, box.height - 2)
        editorColumns = max(1, box.width - 2)
        bodyEditor.draw(into: &buffer, in: box.inset(by: 1), isFocused: editorField == .body && dialog == nil)
        buffer.draw(
            " Ctrl+S save · Tab title/body · Esc cancel ", x: x, y: rect.maxY - 1, style: Theme.secondary,
            maxColumns: width)
    }

    /// A failed write's reason: the server's message for a refusal.
    static func reason(_ error: StoreError) -> String {
        if let http = error.httpError, let status = http.status {
            return "the server answered \(status.code): \(http.message)"
        }
        return error.message
    }
}
