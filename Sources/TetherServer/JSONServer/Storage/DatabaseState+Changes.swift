import TetherJSON

extension DatabaseState {
    /// Applies `change`: the one way a write changes the data, live and when the journal is replayed, so both
    /// give the same result.
    ///
    /// A change that does not fit the data (a `put` into a name that is now a singular resource, after a hand
    /// edit) is skipped; it returns `false` then.
    ///
    /// - Complexity: a `put` that keeps the item's id copies the collection's array once (readers keep the
    ///   version they hold) and leaves its index alone; other changes re-index the collection, O(n).
    @discardableResult
    mutating func apply(_ change: DatabaseChange) -> Bool {
        switch change {
        case .put(let name, let id, let item):
            guard var elements = collection(name) else {
                guard root[name] == nil else { return false }
                setCollection(name, [.object(item)])
                return true
            }
            let newId = item["id"].flatMap { $0.isNull ? nil : JSValue.string($0) }
            if let (position, _) = self.item(in: name, id: id) {
                elements[position] = .object(item)
                if newId == id {
                    replaceElements(name, elements)
                } else {
                    setCollection(name, elements)
                }
            } else {
                elements.append(.object(item))
                if let newId {
                    replaceElements(name, elements, appendedId: newId)
                } else {
                    setCollection(name, elements)
                }
            }
            return true

        case .remove(let name, let id):
            guard var elements = collection(name), let (position, _) = item(in: name, id: id) else { return false }
            elements.remove(at: position)
            setCollection(name, elements)
            return true

        case .collection(let name, let elements):
            guard collection(name) != nil || root[name] == nil else { return false }
            setCollection(name, elements)
            return true

        case .singular(let name, let object):
            guard singular(name) != nil || root[name] == nil else { return false }
            setSingular(name, object)
            return true
        }
    }
}
