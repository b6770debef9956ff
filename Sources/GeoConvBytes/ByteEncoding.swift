/// Bytes as Parquet and the writer's spool lay them out: unsigned LEB128 varints (Thrift's,
/// the hybrid's run headers, the spool's framing) and little-endian fixed-width numbers.
/// `@inlinable` and public, as `ByteWords`: a `package` function is not inlined across
/// modules, and these run per value.
public enum ByteEncoding {
    @inlinable public static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// A signed integer as a zigzag varint (0, −1, 1, −2… as 0, 1, 2, 3…), as Thrift's compact
    /// protocol and the spool write integers.
    @inlinable public static func appendZigzag(_ value: Int64, to out: inout [UInt8]) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &out)
    }

    /// The integer a zigzag varint's value stands for.
    @inlinable public static func unzigzag(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    @inlinable public static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    @inlinable public static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}
