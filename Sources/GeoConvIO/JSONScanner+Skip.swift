internal import GeoConvBytes
package import GeoConvCore

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
        var inString = false
        var escaped = false
        while true {
            if position == end, try !refill() {
                rewind(to: start)
                throw error("the input ends inside this value")
            }
            // The window's bytes, scanned with locals (this is the cutting of `--jobs` runs,
            // on the thread that feeds the others); `position` is stored where it stops.
            let bytes = storage
            let limit = end
            var index = position
            while index < limit {
                if inString {
                    if escaped {
                        escaped = false
                        index += 1
                        continue
                    }
                    // Eight bytes at a time to the first quote, backslash or line break.
                    while index + 8 <= limit {
                        let word = ByteWords.load(bytes + index)
                        let found =
                            ByteWords.hits(word, UInt8(ascii: "\"")) | ByteWords.hits(word, UInt8(ascii: "\\"))
                            | ByteWords.hits(word, 0x0A)
                        if found != 0 {
                            index += found.trailingZeroBitCount / 8
                            break
                        }
                        index += 8
                    }
                    while index < limit, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                        bytes[index] != 0x0A
                    {
                        index += 1
                    }
                    guard index < limit else { break }
                    if bytes[index] == 0x0A {
                        // (A raw line break in a string is an error the parse reports; a
                        // newline-delimited record must not be skipped past its line.)
                        if recordEndsAtNewline { throw continuesOnNextLine(at: index) }
                        line += 1
                        lineStart = base + index + 1
                        index += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1
                        continue
                    }
                    inString = false
                    index += 1
                    if depth == 0 {
                        position = index
                        return
                    }
                    continue
                }
                if depth > 0 {
                    // Inside an array or object only brackets, quotes and line breaks matter: commas,
                    // digits and white space go by, byte by byte for the first eight (keys and small
                    // values are short), then eight at a time (a coordinate array is mostly digits
                    // and commas). Or-ing 0x20 into each byte makes `[` `{` and `]` `}` one byte
                    // each and a line break `*`; a few others (`*` itself, controls) stop it early.
                    let probeEnd = min(limit, index + 8)
                    while index < probeEnd, !JSONScanner.mattersInside(bytes[index]) { index += 1 }
                    if index == probeEnd {
                        while index + 8 <= limit {
                            let word = ByteWords.load(bytes + index) | 0x2020_2020_2020_2020
                            let found =
                                ByteWords.hits(word, UInt8(ascii: "{"))
                                | ByteWords.hits(word, UInt8(ascii: "}"))
                                | ByteWords.hits(word, UInt8(ascii: "\"")) | ByteWords.hits(word, 0x0A | 0x20)
                            if found != 0 {
                                index += found.trailingZeroBitCount / 8
                                break
                            }
                            index += 8
                        }
                        while index < limit, !JSONScanner.mattersInside(bytes[index]) { index += 1 }
                    }
                    guard index < limit else { break }
                }
                // Bytes that mean nothing here (digits, letters) go by in a tight loop.
                while index < limit, !JSONScanner.isStructural(bytes[index]) { index += 1 }
                guard index < limit else { break }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 {  // the end of the enclosing value: a scalar ended here
                        position = index
                        return
                    }
                    depth -= 1
                    if depth == 0 {
                        position = index + 1
                        return
                    }
                default:  // a comma or white space
                    if depth == 0 {  // a number or keyword ended
                        position = index
                        return
                    }
                    if byte == 0x0A {
                        if recordEndsAtNewline { throw continuesOnNextLine(at: index) }
                        line += 1
                        lineStart = base + index + 1
                    }
                }
                index += 1
            }
            position = index
        }
    }

    /// A newline-delimited record's value that goes on past its line (one thread and
    /// `--jobs`, which cuts at newlines, then refuse it alike), at the line break.
    func continuesOnNextLine(at index: Int) -> GeoConvError {
        position = index
        return error(
            "a record of a newline-delimited text sequence continues on the next line",
            hint: "write one JSON text per line, or start every record with RS (RFC 8142, .geojsons)")
    }

    /// Whether `byte` is one `skipValueBytes` acts on inside an array or object, outside
    /// strings: a quote, a bracket or brace, or a line break (counted).
    @inline(__always)
    static func mattersInside(_ byte: UInt8) -> Bool {
        let low: UInt64 = 1 << 0x22 | 1 << 0x0A
        let high: UInt64 = 1 << (0x7B - 64) | 1 << (0x7D - 64) | 1 << (0x5B - 64) | 1 << (0x5D - 64)
        let mask = byte < 64 ? low : (byte < 128 ? high : 0)
        return (mask >> UInt64(byte & 63)) & 1 != 0
    }

    /// Whether `byte` is one `skipValueBytes` acts on outside strings: a quote, a bracket or
    /// brace, a comma or JSON white space (two 64-bit masks, no table).
    @inline(__always)
    static func isStructural(_ byte: UInt8) -> Bool {
        let low: UInt64 = 1 << 0x22 | 1 << 0x2C | 1 << 0x20 | 1 << 0x09 | 1 << 0x0D | 1 << 0x0A
        let high: UInt64 = 1 << (0x7B - 64) | 1 << (0x7D - 64) | 1 << (0x5B - 64) | 1 << (0x5D - 64)
        let mask = byte < 64 ? low : (byte < 128 ? high : 0)
        return (mask >> UInt64(byte & 63)) & 1 != 0
    }
}
