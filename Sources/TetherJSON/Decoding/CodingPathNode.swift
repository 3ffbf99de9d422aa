/// One step of a coding path, kept as a linked list so the path is only built when an error needs it.
///
/// A node also remembers where its object's last key was found (``hint``): struct members are usually
/// decoded in document order, so the next lookup starts just past the previous match.
///
/// A node also holds the ``DecodingState`` its values are read with, so a keyed container needs one reference
/// (the node) instead of two: the standard library's container box copies the container for every member read,
/// and each reference in it is a retain and a release.
final class CodingPathNode {
    enum Segment {
        case none
        case key(any CodingKey)
        case index(Int)
    }

    /// The parent, held strongly by nodes that may outlive one decode call of their parent's.
    private let ownedParent: CodingPathNode?
    /// The parent of a reused child (see ``temporaryChild(_:)``), not retained: the parent keeps the child, and a
    /// retained link back would be a cycle. The parent is alive whenever the child is used, because the child is
    /// only used while the parent's decode call is on the stack.
    private unowned(unsafe) let borrowedParent: CodingPathNode?

    var parent: CodingPathNode? { ownedParent ?? borrowedParent }
    /// The state the values at and below this node are read with.
    let state: DecodingState
    /// Mutable only so an unkeyed container can reuse one node for all its elements, one after another.
    var segment: Segment
    /// The object whose key index ``hint`` is, and the tape index of its member key to try first.
    var hintObject = -1
    var hint = 0
    /// The object in which a lookup last found no member, and how many found none there: the
    /// ``KeyTable/missLimit``th builds ``keyTable``.
    var missObject = -1
    var misses = 0
    /// For an object whose members are not decoded in document order: a hash table of its keys' tape
    /// indices (-1 marks an empty slot), built on the first lookup that has to search far.
    var keyTable: KeyTable?

    /// A child node reused for the values this node's keyed container decodes one after another.
    private var reusableChild: CodingPathNode?

    /// A node for the child `segment`, valid until the next call: for values whose decoder lives only while
    /// `decode(_:forKey:)` runs. Containers that outlive the call (nested containers) get nodes of their own.
    @inline(__always)
    func temporaryChild(_ segment: Segment) -> CodingPathNode {
        if let child = reusableChild {
            child.segment = segment
            return child
        }
        let child = CodingPathNode(borrowing: self, segment: segment)
        reusableChild = child
        return child
    }

    /// A child of `parent`, read with `state` (by default the parent's).
    init(parent: CodingPathNode, segment: Segment, state: DecodingState? = nil) {
        self.ownedParent = parent
        self.borrowedParent = nil
        self.segment = segment
        self.state = state ?? parent.state
    }

    private init(borrowing parent: CodingPathNode, segment: Segment) {
        self.ownedParent = nil
        self.borrowedParent = parent
        self.segment = segment
        self.state = parent.state
    }

    private init(root state: DecodingState) {
        self.ownedParent = nil
        self.borrowedParent = nil
        self.segment = .none
        self.state = state
    }

    /// The node of the top-level value of a decode call.
    static func root(_ state: DecodingState) -> CodingPathNode { CodingPathNode(root: state) }

    /// The coding path from the root to this node.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            if let key = current.segment.key { keys.append(key) }
            node = current.parent
        }
        return keys.reversed()
    }

    /// The coding path to a child of this node.
    func path(appending segment: Segment) -> [any CodingKey] {
        var keys = path
        if let key = segment.key { keys.append(key) }
        return keys
    }
}

extension CodingPathNode.Segment {
    var key: (any CodingKey)? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): IndexCodingKey(index)
        }
    }
}

/// The coding key of an array element, as Foundation spells it: `Index 3`.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}
