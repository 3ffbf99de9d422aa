import TetherJSON

extension DatabaseState {
    /// Applies `change`: the one way a write changes the data, live and when the journal is replayed, so both
    /// give the same result.
    ///
    /// A change that does not fit the data (a `put` into a name that is now a singular resource, after a hand
    /// edit) is skipped; it returns `false` then.
    ///
    /// - Complexity: a `put` that keeps the item's id, or adds one, costs O(chunk) (see ``ChunkedArray``); a
    ///   `remove` and a whole collection re-index it, O(n).
    @discardableResult
    mutating func apply(_ change: DatabaseChange) -> Bool {
        switch change {
        case .put(let name, let id, let item):
            guard kind(of: name) == .collection else {
                guard kind(of: name) == nil else { return false }
                setCollection(name, [.object(item)])
                return true
            }
            if let (position, _) = self.item(in: name, id: id) {
                replaceElement(name, at: position, with: .object(item))
            } else {
                appendElement(name, .object(item))
            }
            return true

        case .remove(let name, let id):
            guard var elements = collection(name), let (position, _) = item(in: name, id: id) else { return false }
            elements.remove(at: position)
            setCollection(name, elements)
            return true

        case .collection(let name, let elements):
            guard kind(of: name) != .singular else { return false }
            setCollection(name, elements)
            return true

        case .singular(let name, let object):
            guard kind(of: name) != .collection else { return false }
            setSingular(name, object)
            return true
        }
    }
}
