/// Bytes as lower-case hexadecimal text: how a tabular reader gives a binary value (Parquet's
/// BYTE_ARRAY without a text annotation, FlatGeobuf's `Binary`), one rule for both.
package enum HexText {
    /// `bytes`, two lower-case digits each.
    package static func lowercase<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
