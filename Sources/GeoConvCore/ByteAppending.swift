extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes: copied from the binary as they are, with no String
    /// (and none of a String view's per-call generic work) on the way.
    @inline(__always)
    package mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy from its contiguous storage.
    @inline(__always)
    package mutating func append(utf8Of text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
