extension JSON {
    /// A JSON object: members in the order they were written or inserted.
    ///
    /// Lookup by key is a linear scan for small objects, which for the 5 to 50 short keys of a typical API
    /// object beats hashing (short keys compare as two machine words); objects with more than
    /// ``indexThreshold`` members build a hash index once.
    /// When the parsed text repeats a key, every member is kept (so writing reproduces the input) and lookup
    /// returns the last one, as JavaScript does.
    ///
    /// Two objects are equal when they have the same members in the same order.
    ///
    /// - Complexity: lookup O(n) up to ``indexThreshold`` members, O(1) on average above.
    public struct Object: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
        /// Objects larger than this get a key index.
        public static let indexThreshold = 64

        public typealias Element = (key: String, value: JSON)
        public typealias Index = Int

        /// The keys, in order.
        public private(set) var keys: [String]
        /// The values, in the order of ``keys``.
        public private(set) var values: [JSON]
        private var index: [String: Int]?

        /// Creates an empty object.
        public init() {
            keys = []
            values = []
        }

        /// Creates an object from parallel arrays of keys and values (they must have the same count).
        public init(keys: [String], values: [JSON]) {
            precondition(keys.count == values.count, "JSON.Object needs as many keys as values")
            #if canImport(Darwin)
                // A `[String]` bridged from an `NSArray` may have no contiguous storage of its own, and
                // `JSONWriter` reads keys through a pointer into their storage (JSONWriter+Tree.swift): such an
                // array is copied into native storage here. (`[JSON]` is never bridged.)
                self.keys = keys.withContiguousStorageIfAvailable { _ in keys } ?? keys.map { $0 }
            #else
                self.keys = keys
            #endif
            self.values = values
            rebuildIndex()
        }

        /// Creates an object from key-value pairs, in order; for a repeated key the last value wins
        /// at the position of the first.
        public init(_ members: some Sequence<(String, JSON)>) {
            self.init()
            for (key, value) in members { self[key] = value }
        }

        public init(dictionaryLiteral elements: (String, JSON)...) {
            self.init(elements)
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { keys.count }
        public subscript(position: Int) -> Element { (keys[position], values[position]) }

        /// The value for `key`, or `nil`. Setting `nil` removes the member; setting a new key appends it.
        public subscript(key: String) -> JSON? {
            get { position(of: key).map { values[$0] } }
            set {
                if let position = position(of: key) {
                    if let newValue {
                        values[position] = newValue
                    } else {
                        keys.remove(at: position)
                        values.remove(at: position)
                        rebuildIndex()
                    }
                } else if let newValue {
                    keys.append(key)
                    values.append(newValue)
                    if index != nil {
                        index![key] = keys.count - 1
                    } else if keys.count > Self.indexThreshold {
                        rebuildIndex()
                    }
                }
            }
        }

        /// The position of the last member named `key`.
        public func position(of key: String) -> Int? {
            if let index { return index[key] }
            var i = keys.count - 1
            while i >= 0 {
                if keys[i] == key { return i }
                i -= 1
            }
            return nil
        }

        private mutating func rebuildIndex() {
            guard keys.count > Self.indexThreshold else {
                index = nil
                return
            }
            var built = [String: Int](minimumCapacity: keys.count)
            for (i, key) in keys.enumerated() { built[key] = i }
            index = built
        }

        public static func == (lhs: Object, rhs: Object) -> Bool {
            lhs.keys == rhs.keys && lhs.values == rhs.values
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(keys)
            hasher.combine(values)
        }
    }
}
