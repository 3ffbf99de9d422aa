import Foundation
import Observation
import TetherAPIs
import TetherStore
import TetherTerminal

/// The notes screen: the list, a note's detail, an editor for a new or changed note, and the conflict chooser.
///
/// Saving closes the editor at once: the store applies the edit optimistically, so the list and the detail show
/// it while it is marked "saving…"; then "saved", or "not saved" with the server's reason and the text kept (`t`
/// sends it again, `x` discards it). A 412 conflict shows both versions; `m` keeps mine, `s` takes the server's. `n`
/// adds a note (one the server refuses stays in the list with the reason), `d` deletes one after a confirm.
@MainActor
@Observable
final class NotesScreen: AppScreen {
    enum Mode: Sendable, Hashable {
        case list
        case detail(Int)
        /// Editing note `id`, or a new note when `nil`.
        case editor(Int?)
    }

    enum EditorField: Sendable, Hashable {
        case title, body
    }

    let title = "Notes"
    @ObservationIgnored let context: AppContext
    @ObservationIgnored let notes: QueryState<Note>
    private(set) var mode = Mode.list
    private(set) var list = ListView()
    private(set) var titleField = TextField(placeholder: "Title")
    private(set) var bodyEditor = TextEditor()
    private(set) var editorField = EditorField.title
    /// The title and body the editor opened with, to tell whether anything changed.
    private var editorOriginal = (title: "", body: "")
    /// The question on screen (delete, discard), if any.
    private(set) var dialog: ConfirmDialog?
    private var dialogAction: DialogAction?
    /// A message for the whole screen: a failed add or delete, a validation hint.
    private(set) var banner: (kind: Banner.Kind, text: String)?
    /// Notes saved since launch, marked "saved" until edited again.
    private(set) var savedIDs: Set<Int> = []
    @ObservationIgnored private(set) var visibleItems = 10
    /// The open note's scroll position, and its size at the last draw.
    private(set) var detailScroll = ScrollView()
    @ObservationIgnored var detailSize = DetailPane.Size()
    /// Lines of the body editor at the last draw, for its paging keys.
    @ObservationIgnored var editorRows = 10
    /// The columns the body editor was last drawn in, so Up and Down move by its wrapped rows.
    @ObservationIgnored var editorColumns: Int?

    private enum DialogAction {
        case delete(Int)
        case discardEdit
        case discardWrites(Int)
    }

    init(context: AppContext) {
        self.context = context
        notes = context.store.query(.notes)
    }

    var keyHelp: [(keys: String, action: String)] {
        [
            ("Enter", "open the note"), ("e", "edit the note (Ctrl+S saves, Esc cancels, Tab: title/body)"),
            ("n", "add a note"), ("d", "delete the note (asks first)"), ("r", "reload the list"),
            ("m / s", "after a conflict: keep mine / take the server's"),
            ("t / x", "a change the server refused: send it again / discard it"), ("Esc", "back to the list"),
        ]
    }

    var isEditingText: Bool {
        if case .editor = mode { return true }
        return false
    }

    var hasUnsavedInput: Bool {
        guard case .editor = mode else { return false }
        return titleField.text != editorOriginal.title || bodyEditor.text != editorOriginal.body
    }

    var isBusy: Bool {
        notes.status == .loading || notes.status == .refreshing
            || notes.entities.contains { $0.status == .syncing || $0.status == .loading }
    }

    func appear() {
        Task { await notes.load() }
    }

    /// The note states of the list, in order.
    var rows: [EntityState<Note>] { notes.entities }

    /// The state of note `id`.
    func state(of id: Int) -> EntityState<Note> {
        context.store.entity(Note.self, id: id)
    }

    func handle(_ key: Key) -> Bool {
        if let dialog {
            handleDialogKey(key, dialog: dialog)
            return true
        }
        switch mode {
        case .list: return handleListKey(key)
        case .detail(let id): return handleDetailKey(key, id: id)
        case .editor: return handleEditorKey(key)
        }
    }

    private func handleListKey(_ key: Key) -> Bool {
        let rows = self.rows
        let selected = list.selectedIndex < rows.count ? rows[list.selectedIndex] : nil
        switch key {
        case .enter:
            guard let selected else { return true }
            open(selected.id)
        case .character("e"):
            guard let selected else { return true }
            edit(selected.id)
        case .character("n"): newNote()
        case .character("d"):
            guard let selected else { return true }
            confirmDelete(selected.id)
        case .character("t"):
            guard let selected, selected.writeStatus == .failed else { return true }
            retry(selected)
        case .character("x"):
            guard let selected, selected.writeStatus != nil else { return true }
            confirmDiscard(selected.id)
        case .character("r"), .character("R"):
            banner = nil
            Task { await notes.refresh() }
        case .character("j"): _ = list.handle(.down, itemCount: rows.count, visibleRows: visibleItems)
        case .character("k"): _ = list.handle(.up, itemCount: rows.count, visibleRows: visibleItems)
        default:
            return list.handle(key, itemCount: rows.count, visibleRows: visibleItems)
        }
        return true
    }

    private func handleDetailKey(_ key: Key, id: Int) -> Bool {
        let state = state(of: id)
        switch key {
        case .escape, .backspace, .left, .character("h"): mode = .list
        case .character("e"): edit(id)
        case .character("d"): confirmDelete(id)
        case .character("t") where state.writeStatus == .failed: retry(state)
        case .character("x") where state.writeStatus != nil: confirmDiscard(id)
        case .character("m") where state.conflict != nil: resolve(state, keeping: .local)
        case .character("s") where state.conflict != nil: resolve(state, keeping: .server)
        default: return DetailPane.handle(key, &detailScroll, size: detailSize)
        }
        return true
    }

    private func handleEditorKey(_ key: Key) -> Bool {
        switch key {
        case .control("s"):
            save()
        case .escape:
            if hasUnsavedInput {
                ask(
                    ConfirmDialog(
                        title: "Discard changes?", message: "Your changes to this note have not been saved.",
                        confirmLabel: "Discard", cancelLabel: "Keep editing"), then: .discardEdit)
            } else {
                closeEditor()
            }
        case .tab, .backTab:
            editorField = editorField == .title ? .body : .title
        case .enter where editorField == .title:
            editorField = .body
        case .control("c"):
            return false
        default:
            banner = nil
            switch editorField {
            case .title: _ = titleField.handle(key)
            case .body: _ = bodyEditor.handle(key, visibleRows: editorRows, width: editorColumns)
            }
        }
        return true
    }

    private func handleDialogKey(_ key: Key, dialog: ConfirmDialog) {
        var dialog = dialog
        guard let result = dialog.handle(key) else {
            self.dialog = dialog
            return
        }
        self.dialog = nil
        guard result == .confirmed, let action = dialogAction else { return }
        dialogAction = nil
        switch action {
        case .delete(let id): delete(id)
        case .discardEdit: closeEditor()
        case .discardWrites(let id): discardWrites(id)
        }
    }

    private func ask(_ dialog: ConfirmDialog, then action: DialogAction) {
        self.dialog = dialog
        dialogAction = action
    }

    /// Opens note `id` and refreshes it from the server, which also learns its ETag for the next save.
    private func open(_ id: Int) {
        detailScroll = ScrollView()
        mode = .detail(id)
        let state = state(of: id)
        Task { await state.load() }
    }

    private func edit(_ id: Int) {
        guard let note = state(of: id).value else { return }
        startEditor(id: id, title: note.title, body: note.body)
        savedIDs.remove(id)
    }

    private func newNote() {
        startEditor(id: nil, title: "", body: "")
        editorOriginal = (title: "", body: "")
    }

    private func startEditor(id: Int?, title: String, body: String) {
        titleField = TextField(text: title, placeholder: "Title")
        bodyEditor = TextEditor(text: body)
        editorOriginal = (title: title, body: body)
        editorField = .title
        banner = nil
        mode = .editor(id)
    }

    private func closeEditor() {
        guard case .editor(let id) = mode else { return }
        mode = id.map { .detail($0) } ?? .list
    }

    /// Saves the editor's text: shown at once, then confirmed; a change the server cannot take yet waits, and one
    /// it refuses stays with its error (the entity's write status says which) until the user sends it again or
    /// discards it.
    private func save() {
        guard case .editor(let id) = mode else { return }
        let title = titleField.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            banner = (.warning, "A note needs a title.")
            editorField = .title
            return
        }
        let body = bodyEditor.text
        let store = context.store
        if let id {
            guard let note = state(of: id).value else { return }
            mode = .detail(id)
            guard title != note.title || body != note.body else { return }
            let edited = note.edited(title: title, body: body)
            Task {
                do throws(StoreError) {
                    _ = try await store.update(edited)
                    self.savedIDs.insert(id)
                } catch {
                    // Kept: waiting, refused or in conflict, as the entity's write status says.
                }
            }
        } else {
            mode = .list
            let draft = Note.draft(title: title, body: body)
            banner = (.info, "Adding “\(title)”…")
            Task {
                do throws(StoreError) {
                    let saved = try await store.create(draft)
                    self.savedIDs.insert(saved.id)
                    self.banner = nil
                    if let index = self.rows.firstIndex(where: { $0.id == saved.id }) {
                        self.list.select(index, itemCount: self.rows.count, visibleRows: self.visibleItems)
                    }
                } catch {
                    if error.isPending {
                        self.banner = (
                            .info, "“\(title)” is saved on this device and will be sent when the server can be reached."
                        )
                    } else {
                        self.banner = (
                            .error,
                            "The note was not added: \(error.message) It stays in the list: t sends it again, x discards it."
                        )
                    }
                }
            }
        }
    }

    private func confirmDelete(_ id: Int) {
        let name = state(of: id).value?.title ?? "this note"
        ask(
            ConfirmDialog(
                title: "Delete note?", message: "Delete “\(name)”? This cannot be undone.", confirmLabel: "Delete",
                cancelLabel: "Cancel"), then: .delete(id))
    }

    private func delete(_ id: Int) {
        mode = .list
        let store = context.store
        Task {
            do throws(StoreError) {
                try await store.delete(Note.self, id: id)
                self.banner = (.info, "Note deleted.")
            } catch {
                if error.isPending {
                    self.banner = (.info, "The note will be deleted on the server when it can be reached.")
                } else {
                    self.banner = (.error, "The note was not deleted: \(error.message) It is back in the list.")
                }
            }
        }
    }

    private func resolve(_ state: EntityState<Note>, keeping choice: ConflictChoice) {
        let store = context.store
        let id = state.id
        Task {
            do throws(StoreError) {
                try await store.resolveConflict(state, keeping: choice)
                self.savedIDs.insert(id)
            } catch {
                // Shown on the entity.
            }
        }
    }

    /// Sends a refused change again.
    private func retry(_ state: EntityState<Note>) {
        let store = context.store
        banner = nil
        Task {
            do throws(StoreError) {
                try await store.retryWrites(of: state)
                self.savedIDs.insert(state.id)
            } catch {
                // Shown on the entity (failed again, or waiting for the server).
            }
        }
    }

    private func confirmDiscard(_ id: Int) {
        let name = state(of: id).value?.title ?? "this note"
        ask(
            ConfirmDialog(
                title: "Discard the change?",
                message: "Discard your unsent change to “\(name)”? The note shows the server's version again.",
                confirmLabel: "Discard", cancelLabel: "Keep it"), then: .discardWrites(id))
    }

    private func discardWrites(_ id: Int) {
        let store = context.store
        let state = state(of: id)
        Task {
            do throws(StoreError) {
                try await store.discardWrites(of: state)
                self.banner = (.info, "The change was discarded.")
            } catch {
                self.banner = (.error, "The change could not be discarded: \(error.message)")
            }
        }
    }

    /// Records the list's size at a draw.
    func setVisibleItems(_ count: Int) { visibleItems = count }
}
