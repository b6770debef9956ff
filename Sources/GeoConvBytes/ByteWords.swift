/// Scanning bytes eight at a time, for the loops that skip text up to the next byte that
/// matters (the JSON scanner's strings and keys, the start-tag scan under libxml2, the KML
/// splitter). `@inlinable` and public: a `package` function is not inlined across modules.
public enum ByteWords {
    /// Whether any byte of `word` is `byte` (the classic has-zero-byte test on word ^ byte×8).
    @inlinable @inline(__always)
    public static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        hits(word, byte) != 0
    }

    /// Eight bytes from `address`, the first in the lowest bits (on any host).
    @inlinable @inline(__always)
    public static func load(_ address: UnsafeRawPointer) -> UInt64 {
        UInt64(littleEndian: address.loadUnaligned(as: UInt64.self))
    }

    /// A mask whose lowest set bit is the top bit of the first byte of `word` (loaded with
    /// `load`) that is `byte`, 0 when none is; bits above it may be set for other bytes.
    /// Several masks or-ed together find the first byte that is any of theirs.
    @inlinable @inline(__always)
    public static func hits(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }

    /// A mask with the top bit of each byte of `word` (loaded with `load`) that is `byte`,
    /// and no other bit: exact, for counting (`hits` may flag bytes after the first).
    @inlinable @inline(__always)
    public static func exactHits(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        let low = (x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F
        return ~(low | x | 0x7F7F_7F7F_7F7F_7F7F)
    }
}
