/// The check both HTTP fuzz targets share: a parser fed the input in pieces must reach the same outcome as fed the
/// whole at once. Tried: two halves split where the first byte says, pieces of 1 to 17 bytes (the second byte says),
/// and, for inputs of up to 512 bytes, one byte at a time. Returns the outcome of the whole input.
func outcomeAgreeingOverSplits<Outcome: Equatable>(
    _ bytes: UnsafeBufferPointer<UInt8>, run: ([UnsafeBufferPointer<UInt8>]) -> Outcome,
    fail: (String) -> Never
) -> Outcome {
    let whole = run([bytes])
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) * 31 % (bytes.count + 1)
    let halves = run([
        UnsafeBufferPointer(rebasing: bytes[0..<split]), UnsafeBufferPointer(rebasing: bytes[split...]),
    ])
    if halves != whole { fail("split at \(split) differs from whole") }
    if bytes.count >= 2 {
        let size = 1 + Int(bytes[1]) % 17
        let pieces = stride(from: 0, to: bytes.count, by: size).map {
            UnsafeBufferPointer(rebasing: bytes[$0..<min($0 + size, bytes.count)])
        }
        if run(pieces) != whole { fail("pieces of \(size) differ from whole") }
    }
    if bytes.count <= 512 {
        let single = run(bytes.indices.map { UnsafeBufferPointer(rebasing: bytes[$0..<($0 + 1)]) })
        if single != whole { fail("byte at a time differs from whole") }
    }
    return whole
}
