/// The state of one ``TetherJSONEncoder`` call that writes JSON text straight into one growing buffer.
///
/// Containers are positions in the buffer: opening one writes `{` or `[` and pushes a ``Frame``; a member or
/// element is written where the text stands; a container is closed (its `}` or `]` written, its members sorted
/// under ``JSONWriter/Options/sortedKeys``) when a container further out writes again, or at the end. Coding
/// paths are kept as one step per depth (``path``) and made into `[any CodingKey]` only when asked for.
///
/// This relies on `Encodable` types filling containers in nesting order, as synthesized conformances and almost
/// all hand-written ones do. Anything else — writing to a container after a sibling was started, a key
/// encoded twice, `superEncoder()` — cannot be written in place: the state then *falls back* (``fellBack``),
/// ignores everything that follows, and ``TetherJSONEncoder`` encodes the value again through a ``JSON`` tree,
/// which handles every order. So a value's `encode(to:)` may run twice for those rare types.
///
/// Confined to the call that created it.
final class ByteEncodingState {
    /// An open array or object.
    struct Frame {
        var isObject: Bool
        /// Members or elements started so far.
        var count = 0
        /// Identifies the container among all opened in the call, so a handle to a closed one is recognised.
        let serial: Int
        /// The byte offset of the value this container is, for an encoder asking for its container again;
        /// -1 for nested containers, which no encoder owns.
        let owner: Int
        /// Whether a member's value is being encoded by a nested `encode(to:)`, so the container must not be
        /// written to until it returns.
        var isBusy = false
        /// Where this object's member records start in ``members``.
        let firstMember: Int
        /// A one-word Bloom filter of the member keys' hashes, so most new keys need no duplicate search.
        var keyFilter: UInt64 = 0
    }

    /// One object member, for finding repeated keys and for sorting.
    struct Member {
        /// Where the text before the member (`,` and indentation) starts.
        var separator: Int
        /// The key's quoted text, `"…"`.
        var keyStart: Int
        var keyEnd: Int
        var hash: UInt64
    }

    /// Everything that changes while encoding, kept outside the object: Swift checks every access to a class's
    /// stored `var` for exclusivity at run time (a third of the encoder's time), but not accesses through a
    /// pointer. Only this object uses the pointer, and only during its call.
    private struct Mutable {
        var bytes = ByteBuffer(capacity: 4096)
        /// Whether ``bytes`` was handed on (``takeBytes()``), so it is not this object's to free.
        var bytesTaken = false
        var frames: [Frame] = []
        var members: [Member] = []
        var path: [CodingPathStep] = [.none]
        var nextSerial = 0
        var fellBack = false
    }

    private let mutable: UnsafeMutablePointer<Mutable>

    /// The text written so far.
    var bytes: ByteBuffer {
        get { mutable.pointee.bytes }
        _modify { yield &mutable.pointee.bytes }
    }
    /// The open containers, outermost first.
    var frames: [Frame] {
        get { mutable.pointee.frames }
        _modify { yield &mutable.pointee.frames }
    }
    /// The member records of the open objects, innermost last.
    var members: [Member] {
        get { mutable.pointee.members }
        _modify { yield &mutable.pointee.members }
    }
    /// `path[d]`: the step from the container at depth d − 1 to the value at depth d (index 0 is unused). Set
    /// for values encoded by nested encoders; scalars pass their step only to the errors they throw.
    var path: [CodingPathStep] {
        get { mutable.pointee.path }
        _modify { yield &mutable.pointee.path }
    }
    private var nextSerial: Int {
        get { mutable.pointee.nextSerial }
        set { mutable.pointee.nextSerial = newValue }
    }
    /// Set when the value cannot be written in place; see the type's description.
    var fellBack: Bool { mutable.pointee.fellBack }

    let context: EncodingContext
    let writer: JSONWriter
    let pretty: Bool
    let sorted: Bool
    let escapesSlashes: Bool
    let indent: Int
    /// Whether keys are written as their `stringValue` (no key strategy).
    let usesDefaultKeys: Bool

    init(_ options: TetherJSONEncoder) {
        context = EncodingContext(options)
        writer = JSONWriter(options: options.outputFormatting)
        pretty = options.outputFormatting.contains(.prettyPrinted)
        sorted = options.outputFormatting.contains(.sortedKeys)
        escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
        indent = max(0, writer.indentWidth)
        if case .useDefaultKeys = options.keyEncodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        mutable = UnsafeMutablePointer<Mutable>.allocate(capacity: 1)
        mutable.initialize(to: Mutable())
    }

    /// The keyed containers kept for reuse (see `keyedContainer(keyedBy:depth:serial:)`).
    let keptContainers = KeptKeyedContainers<KeyedByteCursor>()

    deinit {
        if !mutable.pointee.bytesTaken { mutable.pointee.bytes.deallocate() }
        mutable.deinitialize(count: 1)
        mutable.deallocate()
        keptContainers.deallocate()
    }

    /// Hands the text on: the caller owns the buffer's memory from now on.
    func takeBytes() -> ByteBuffer {
        mutable.pointee.bytesTaken = true
        return mutable.pointee.bytes
    }

    func fallBack() {
        mutable.pointee.fellBack = true
    }

    /// Forgets the value being written from byte `offset` on (it failed, or fell back), so that the next value can
    /// be written there: for ``TetherJSONEncoder/encodeEach(_:)``, which writes many values with one state.
    func restart(at offset: Int) {
        mutable.pointee.bytes.truncate(to: offset)
        mutable.pointee.frames.removeAll(keepingCapacity: true)
        mutable.pointee.members.removeAll(keepingCapacity: true)
        mutable.pointee.path = [.none]
        mutable.pointee.fellBack = false
        keptContainers.removeAll()
    }

    // MARK: - Containers

    /// Makes the container at `depth` with `serial` the innermost open one, closing its finished children.
    /// Returns `false` (and falls back) if it was closed already or is waiting for a nested value.
    @inline(__always)
    func activate(_ depth: Int, _ serial: Int) -> Bool {
        if !fellBack, depth == frames.count - 1, frames[depth].serial == serial, !frames[depth].isBusy { return true }
        return activateSlowly(depth, serial)
    }

    private func activateSlowly(_ depth: Int, _ serial: Int) -> Bool {
        guard !fellBack, depth < frames.count, frames[depth].serial == serial, !frames[depth].isBusy else {
            fallBack()
            return false
        }
        while frames.count - 1 > depth {
            guard !frames[frames.count - 1].isBusy else {
                fallBack()
                return false
            }
            close()
        }
        return true
    }

    /// Opens an array or object as the value at `depth` that starts at byte `owner` (or -1 for a nested
    /// container), or returns the one that value's encoder opened before; `0` (no container) after a fallback.
    func openContainer(isObject: Bool, depth: Int, owner: Int) -> Int {
        guard !fellBack else { return 0 }
        if owner >= 0, depth < frames.count, frames[depth].owner == owner, frames[depth].isObject == isObject {
            // The same encoder asking again (a subclass and its superclass sharing one encoder): continue it.
            return activate(depth, frames[depth].serial) ? frames[depth].serial : 0
        }
        guard frames.count == depth, owner < 0 || bytes.count == owner else {
            fallBack()
            return 0
        }
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextSerial += 1
        frames.append(Frame(isObject: isObject, serial: nextSerial, owner: owner, firstMember: members.count))
        return nextSerial
    }

    /// Whether the value at `depth` starting at byte `start` may be written as a single value now.
    @inline(__always)
    func beginSingleValue(depth: Int, start: Int) -> Bool {
        if !fellBack, frames.count == depth, bytes.count == start { return true }
        fallBack()
        return false
    }

    /// The number of members or elements of an open container.
    func count(_ depth: Int, _ serial: Int) -> Int {
        depth < frames.count && frames[depth].serial == serial ? frames[depth].count : 0
    }

    /// Starts the next element of the array at `depth` (the innermost open container).
    @inline(__always)
    func beginElement(_ depth: Int) {
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline(depth + 1) }
        frames[depth].count += 1
    }

    /// Starts a member of the object at `depth` (the innermost open container) and writes its key. Returns
    /// `false` (and falls back) if the object has the key already.
    @inline(__always)
    func beginMember(_ depth: Int, key: String) -> Bool {
        let separator = startMember(depth)
        let keyStart = bytes.count
        JSONWriter.appendString(key, escapingSlashes: escapesSlashes, to: &bytes)
        let keyEnd = bytes.count
        return finishMember(
            depth, separator: separator, keyStart: keyStart, keyEnd: keyEnd,
            hash: Self.keyHash(bytes.base, keyStart + 1, keyEnd - 1))
    }

    /// ``beginMember(_:key:)`` for a key already written out (``quotedKey(_:)``, kept in ``KeyTexts``).
    @inline(__always)
    func beginMember(_ depth: Int, quotedKey: UnsafeRawPointer, count: Int, hash: UInt64) -> Bool {
        let separator = startMember(depth)
        let keyStart = bytes.count
        bytes.append(paddedWords: quotedKey, count: count)
        return finishMember(depth, separator: separator, keyStart: keyStart, keyEnd: keyStart + count, hash: hash)
    }

    /// A key as a member writes it, quoted and escaped, and its hash (see ``keyHash(_:_:_:)``).
    func quotedKey(_ key: String) -> (bytes: [UInt8], hash: UInt64) {
        var text: [UInt8] = []
        JSONWriter.appendString(key, escapingSlashes: escapesSlashes, to: &text)
        let hash = text.withUnsafeMutableBufferPointer { Self.keyHash($0.baseAddress!, 1, $0.count - 1) }
        return (text, hash)
    }

    /// Writes what comes before a member's key; returns where it starts.
    @inline(__always)
    private func startMember(_ depth: Int) -> Int {
        let separator = bytes.count
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline(depth + 1) }
        return separator
    }

    /// Records the member whose key was just written, and writes the colon; `false` (and falls back) for a key
    /// the object has already.
    @inline(__always)
    private func finishMember(_ depth: Int, separator: Int, keyStart: Int, keyEnd: Int, hash: UInt64) -> Bool {
        let bit: UInt64 = 1 << (hash >> 58)
        if frames[depth].keyFilter & bit != 0, hasKey(depth, keyStart, keyEnd, hash) {
            fallBack()
            return false
        }
        frames[depth].keyFilter |= bit
        members.append(Member(separator: separator, keyStart: keyStart, keyEnd: keyEnd, hash: hash))
        frames[depth].count += 1
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        return true
    }

    /// A hash of the key text `buffer[start..<end]`: its length and its first and last eight bytes.
    @inline(__always)
    private static func keyHash(_ buffer: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        let length = end - start
        var hash = UInt64(length) &* 0x9E37_79B9_7F4A_7C15
        if length >= 8 {
            let base = UnsafeRawPointer(buffer + start)
            hash = (hash ^ base.loadUnaligned(as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash = (hash ^ base.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
        } else {
            for i in start..<end { hash = (hash ^ UInt64(buffer[i])) &* 0x100_0000_01B3 }
        }
        return hash ^ (hash >> 29)
    }

    /// Whether the object at `depth` has a member whose key text equals `bytes[start..<end]`.
    private func hasKey(_ depth: Int, _ start: Int, _ end: Int, _ hash: UInt64) -> Bool {
        let base = bytes.base
        for member in members[frames[depth].firstMember...] where member.hash == hash {
            if member.keyEnd - member.keyStart == end - start,
                UnsafeBufferPointer(start: base + member.keyStart, count: end - start).elementsEqual(
                    UnsafeBufferPointer(start: base + start, count: end - start))
            {
                return true
            }
        }
        return false
    }

    @inline(__always)
    private func newline(_ depth: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(repeating: UInt8(ascii: " "), count: depth * indent)
    }

    /// Closes the innermost open container.
    func close() {
        let depth = frames.count - 1
        let frame = frames[depth]
        if frame.isObject {
            if sorted, frame.count > 1 { sortMembers(of: frame, depth: depth) }
            members.removeSubrange(frame.firstMember...)
        }
        frames.removeLast()
        if pretty, frame.count > 0 { newline(depth) }
        bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Closes every open container; the text is then complete.
    func finish() {
        while !frames.isEmpty { close() }
    }

    /// Reorders the members of the innermost object by their keys' UTF-8 bytes.
    private func sortMembers(of frame: Frame, depth: Int) {
        let records = Array(members[frame.firstMember...])
        let base = bytes.base
        func key(_ n: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(
                start: base + records[n].keyStart + 1, count: records[n].keyEnd - records[n].keyStart - 2)
        }
        // Keys are compared as written; an escape would order differently from the key itself, so leave such
        // objects to the tree encoder, which sorts the keys themselves.
        for n in records.indices where key(n).contains(UInt8(ascii: "\\")) {
            fallBack()
            return
        }
        let order = records.indices.sorted { a, b in
            key(a).lexicographicallyPrecedes(key(b))
        }
        if order == Array(records.indices) { return }
        let regionStart = records[0].keyStart
        let regionEnd = bytes.count
        let original = Array(UnsafeBufferPointer(start: base + regionStart, count: regionEnd - regionStart))
        func content(_ n: Int) -> Range<Int> {
            let end = n + 1 < records.count ? records[n + 1].separator : regionEnd
            return records[n].keyStart - regionStart..<end - regionStart
        }
        // Every separator is the same text: `,` and, when pretty, a newline and the indentation.
        let separator = content(0).upperBound..<(records[1].keyStart - regionStart)
        original.withUnsafeBufferPointer { original in
            var position = base + regionStart
            for (n, index) in order.enumerated() {
                if n > 0 {
                    position.update(from: original.baseAddress! + separator.lowerBound, count: separator.count)
                    position += separator.count
                }
                let range = content(index)
                position.update(from: original.baseAddress! + range.lowerBound, count: range.count)
                position += range.count
            }
        }
    }

    // MARK: - Paths

    @inline(__always)
    func setStep(_ step: CodingPathStep, at depth: Int) {
        if depth < path.count { path[depth] = step } else { path.append(step) }
    }

    /// The coding path of the value at `depth`.
    func codingPath(depth: Int) -> [any CodingKey] {
        guard depth >= 1 else { return [] }
        return path[1...depth].map { step in
            switch step {
            case .none: JSONCodingKey(stringValue: "")
            case .key(let key): key
            case .index(let index): JSONCodingKey(index)
            }
        }
    }

    /// The coding path of the value at `depth` that is `step` from its container (`.none`: the value of an
    /// encoder whose path is recorded).
    func codingPath(depth: Int, step: CodingPathStep) -> [any CodingKey] {
        if case .none = step { return codingPath(depth: depth) }
        return step.appended(to: codingPath(depth: depth - 1))
    }
}
