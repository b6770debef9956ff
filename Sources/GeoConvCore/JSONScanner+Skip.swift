
/// Stepping over values as bytes, without building them (for readers that need only some
/// members of each object: the marker index of `geoconv cluster`).
extension JSONScanner {
    /// The absolute input offset of the next unread byte.
    package var offset: Int { base + position }

    /// Steps over one value of any kind. Strings, brackets and braces are tracked; other
    /// bytes are not checked (whoever reads the value later checks it). An unterminated
    /// value is an error at its start.
    package func skipValueBytes() throws(GeoConvError) {
        guard try peekToken() != nil else { throw error("expected a JSON value, found the end of the input") }
        let start = mark  // the value's place, made into a location only for an error
        var depth = 0
        var inString = false, escaped = false
        while true {
            if position == end, try !refill() {
                rewind(to: start)
                throw error("the input ends inside this value")
            }
            let byte = storage[position]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 {
                        position += 1
                        return
                    }
                }
                position += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }  // the end of the enclosing value: a scalar ended here
                depth -= 1
                if depth == 0 {
                    position += 1
                    return
                }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0D, 0x0A:
                if depth == 0 { return }  // a number or keyword ended
                if byte == 0x0A {
                    line += 1
                    lineStart = base + position + 1
                }
            default: break
            }
            position += 1
        }
    }
}
