/// Scanning bytes eight at a time, for the loops that skip text up to the next byte that
/// matters (the start-tag scan under libxml2, the KML splitter).
public enum ByteWords {
    /// Whether any byte of `word` is `byte` (the classic has-zero-byte test on word ^ byte×8).
    @inlinable @inline(__always)
    public static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }
}
