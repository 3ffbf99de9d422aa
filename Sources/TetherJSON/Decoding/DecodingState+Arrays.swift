#if canImport(TetherSync)
    // A module of the package; the fuzz scripts compile its sources into the fuzzer's own module instead.
    import TetherSync
#endif

// Arrays in the decoder: which types take ``TapeDecodableArray``'s path, and arrays of scalars read straight off
// the tape.

extension DecodingState {
    /// The same answers for every decode call so far: a conformance check takes the runtime tens of thousands of
    /// instructions each time (it does not cache that a type does *not* conform).
    static let knownArrayTypes = Locked<[ObjectIdentifier: ArrayTypeAnswer]>([:])

    /// Whether a type is an array decoded by ``TapeDecodableArray``. A metatype is immutable, so sharing it
    /// between threads is safe.
    struct ArrayTypeAnswer: @unchecked Sendable {
        let array: (any TapeDecodableArray.Type)?
    }

    @inline(__always)
    func arrayType<T>(of type: T.Type) -> (any TapeDecodableArray.Type)? {
        let id = ObjectIdentifier(type)
        for known in arrayTypes where known.type == id { return known.array }
        return arrayTypeSlowly(of: type, id)
    }

    private func arrayTypeSlowly<T>(of type: T.Type, _ id: ObjectIdentifier) -> (any TapeDecodableArray.Type)? {
        let array: (any TapeDecodableArray.Type)?
        if let known = Self.knownArrayTypes.withLock({ $0[id] }) {
            array = known.array
        } else {
            let answer = ArrayTypeAnswer(array: type as? any TapeDecodableArray.Type)
            Self.knownArrayTypes.withLock { $0[id] = answer }
            array = answer.array
        }
        arrayTypes.append((id, array))
        return array
    }

    /// The array at `index` when `read` gives every element (each one tape entry), else `nil`.
    @inline(__always)
    func scalarArray<E>(at index: Int, _ read: (Int) -> E?) -> [E]? {
        let entry = tape.entries[index]
        guard entry.tag == .array else { return nil }
        let count = Int(truncatingIfNeeded: entry.payload)
        // An empty array is the standard library's shared empty storage, whose count
        // `init(unsafeUninitializedCapacity:)` would write (the same 0, but from every thread that decodes an empty
        // array at once: ThreadSanitizer reports it as a race).
        guard count > 0 else { return [] }
        var complete = true
        let array = [E](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                guard let element = read(index + 1 + initialized) else {
                    complete = false
                    return
                }
                (buffer.baseAddress.unsafelyUnwrapped + initialized).initialize(to: element)
                initialized += 1
            }
        }
        return complete ? array : nil
    }

    @inline(__always)
    static func double(_ entry: Tape.Entry) -> Double? {
        switch entry.tag {
        // Not finite: out of range, which the element's full read reports.
        case .double: Double(bitPattern: entry.payload).isFinite ? Double(bitPattern: entry.payload) : nil
        case .int: Double(Int64(bitPattern: entry.payload))
        case .uint: Double(entry.payload)
        default: nil
        }
    }

    @inline(__always)
    func double(at index: Int) -> Double? { Self.double(tape.entries[index]) }

    @inline(__always)
    static func int(_ entry: Tape.Entry) -> Int? {
        entry.tag == .int ? Int(exactly: Int64(bitPattern: entry.payload)) : nil
    }

    /// A string without escapes whose UTF-8 the scanner has checked.
    @inline(__always)
    func plainString(at index: Int) -> String? {
        let entry = tape.entries[index]
        guard entry.tag == .string, entry.payload & Tape.escapedFlag == 0 else { return nil }
        return tape.string(at: index)
    }
}
