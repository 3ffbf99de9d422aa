import TetherJSON

/// `_embed` and `_expand`, as json-server 0.17 adds related documents.
enum Relations {
    /// Adds, for each name in `embeds`, the documents of that collection whose `<singular(resource)>Id` equals
    /// the resource's id (strictly: the number `1` is not the string `"1"`). A name that is not a collection
    /// gives `[]`, as in json-server.
    static func embed(
        _ resource: inout JSON.Object, of name: String, _ embeds: [String], in state: DatabaseState, suffix: String
    ) {
        guard !embeds.isEmpty else { return }
        let foreignKey = Pluralizer.singular(name) + suffix
        let id = resource["id"]
        for child in embeds {
            var children: [JSON] = []
            if let id, let elements = state.collection(child) {
                children = elements.filter { element in
                    guard case .object(let object) = element else { return false }
                    return JSValue.strictlyEqual(object[foreignKey], id)
                }
            }
            resource[child] = .array(children)
        }
    }

    /// Sets, for each name in `expands`, the document of `plural(name)` whose id reads as the resource's
    /// `<name>Id`; an id that finds nothing removes the member, as `undefined` does in JavaScript. A resource
    /// without the foreign key is left alone.
    static func expand(_ resource: inout JSON.Object, _ expands: [String], in state: DatabaseState, suffix: String) {
        for parent in expands {
            let table = Pluralizer.plural(parent)
            guard state.kind(of: table) != nil, let reference = resource[parent + suffix], !reference.isNull else {
                continue
            }
            resource[parent] = state.item(in: table, id: JSValue.string(reference)).map { .object($0.item) }
        }
    }

    /// Both, on every object among `elements`.
    static func apply(
        to elements: [JSON], of name: String, embeds: [String], expands: [String], in state: DatabaseState,
        suffix: String
    ) -> [JSON] {
        guard !embeds.isEmpty || !expands.isEmpty else { return elements }
        return elements.map { element in
            guard case .object(var object) = element else { return element }
            embed(&object, of: name, embeds, in: state, suffix: suffix)
            expand(&object, expands, in: state, suffix: suffix)
            return .object(object)
        }
    }
}
