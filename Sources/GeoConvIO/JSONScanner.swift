package import GeoConvCore

/// A byte-level JSON scanner over a streaming input.
///
/// It reads the input in chunks into a window that holds at least the value being parsed:
/// `startValue()` discards everything before the current position, so the window never
/// holds more than the largest single value (one feature), whatever the file's size.
/// Numbers are parsed to exactly the `Double` `strtod` gives (Clinger's exact fast path,
/// falling back to the standard library's correctly rounded parser), strings are unescaped
/// (surrogate pairs, `\u0000`) and checked to be UTF-8, and every error carries
/// `line:column` (columns count bytes) and the byte offset.
package final class JSONScanner {
    package let reader: ByteReader
    @exclusivity(unchecked) package var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package var capacity: Int
    /// Index of the next unread byte in the window.
    @exclusivity(unchecked) package var position = 0
    @exclusivity(unchecked) package var end = 0
    @exclusivity(unchecked) package var atEnd = false
    /// Absolute input offset of `storage[0]`.
    @exclusivity(unchecked) package var base = 0
    @exclusivity(unchecked) package var line = 1
    @exclusivity(unchecked) package var lineStart = 0
    /// The member count of the last object too big to be searched without a hash table:
    /// the next such object's table is made that size at once (the properties of a file's
    /// features have much the same size), not rebuilt at each doubling as it fills.
    @exclusivity(unchecked) var largeObjectCount = 0
    /// The most members an object holds without a hash table (`OrderedDictionary`'s).
    static let unhashedObjectCount = 15
    /// The deepest nesting of arrays and objects accepted.
    package let maximumDepth: Int
    /// The largest single value (feature) accepted, in bytes.
    package let maximumValueBytes: Int
    /// The input's name for messages.
    package var name: String { reader.name }
    /// Bytes consumed from the input (for progress).
    package var bytesRead: Int { reader.bytesRead }

    /// Creates a scanner. A UTF-8 byte order mark at the start is skipped.
    package init(_ reader: ByteReader, maximumDepth: Int = 256, maximumValueBytes: Int = 1 << 30) {
        self.reader = reader
        self.maximumDepth = maximumDepth
        self.maximumValueBytes = maximumValueBytes
        // A window of 1 MiB, or the whole input when it is smaller (one feature read again).
        capacity = max(64, min(1 << 20, (reader.totalBytes ?? (1 << 20)) + 1))
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    // MARK: Window

    /// Marks the current position as the start of a value: the bytes before it may be
    /// discarded. (They are, once they fill half the window, so that moving the rest is cheap.)
    package func startValue() {
        guard position > 0, position >= capacity / 2 else { return }
        let live = end - position
        if live > 0 { storage.update(from: storage + position, count: live) }
        base += position
        end = live
        position = 0
    }

    /// Reads more input into the window; false at the end of the input.
    package func refill() throws(GeoConvError) -> Bool {
        if atEnd { return false }
        if end == capacity {
            guard capacity < maximumValueBytes else {
                throw GeoConvError(
                    .limitExceeded, "a single JSON value is larger than \(maximumValueBytes) bytes",
                    at: location(), hint: "split the input; geoconv holds one feature at a time")
            }
            let newCapacity = min(maximumValueBytes, capacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: storage, count: end)
            storage.deallocate()
            storage = grown
            capacity = newCapacity
        }
        let n = try reader.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
        if n == 0 {
            atEnd = true
            return false
        }
        if base == 0 && end == 0 && reader.startsInput && n >= 3 && storage[0] == 0xEF && storage[1] == 0xBB
            && storage[2] == 0xBF
        {
            position = 3
            lineStart = 3
        }
        end += n
        return true
    }

    /// The next byte without consuming it; `nil` at the end of the input.
    @inline(__always) package func peek() throws(GeoConvError) -> UInt8? {
        if position < end { return storage[position] }
        guard try refill() else { return nil }
        return storage[position]
    }

    /// Skips whitespace (counting lines) and returns the next byte without consuming it.
    @inline(__always) package func peekToken() throws(GeoConvError) -> UInt8? {
        while true {
            if position == end { guard try refill() else { return nil } }
            let byte = storage[position]
            switch byte {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                if recordEndsAtNewline { throw continuesOnNextLine(at: position) }
                position += 1
                line += 1
                lineStart = base + position
            default: return byte
            }
        }
    }

    /// Set while a record of a newline-delimited text sequence is parsed: a newline inside
    /// it is an error, so one thread and `--jobs` (which cuts at newlines) read alike.
    @exclusivity(unchecked) package var recordEndsAtNewline = false

    /// Skips whitespace and record separators (RS, 0x1E), for GeoJSON text sequences.
    package func peekRecord() throws(GeoConvError) -> UInt8? {
        while true {
            guard let byte = try peekToken() else { return nil }
            if byte != 0x1E { return byte }
            position += 1
        }
    }

    /// Whether the text sequence is RFC 8142's (records start with RS and may span lines)
    /// rather than newline-delimited: decided once, by whether the input's first significant
    /// byte is an RS, so that one thread and `--jobs` (which cuts by the same rule) agree.
    /// An RS in a newline-delimited sequence is skipped between records.
    @exclusivity(unchecked) package var separatesRecordsWithRS = false

    /// Skips the rest of a bad record of a text sequence: up to the next RS when the
    /// sequence uses them (a record may span lines), else past the end of the line.
    package func skipRecord() throws(GeoConvError) {
        while true {
            if position == end { guard try refill() else { return } }
            let byte = storage[position]
            if byte == 0x1E && separatesRecordsWithRS { return }
            position += 1
            if byte == 0x0A {
                line += 1
                lineStart = base + position
                if !separatesRecordsWithRS { return }
            }
        }
    }

    /// Consumes one byte.
    @inline(__always) package func advance() { position += 1 }

    /// Consumes `byte` as the next token (after whitespace) when it is one; false, having
    /// consumed nothing but whitespace, when not.
    @inline(__always) package func consumeToken(_ byte: UInt8) throws(GeoConvError) -> Bool {
        guard try peekToken() == byte else { return false }
        position += 1
        return true
    }

    /// The scanner's position, to come back to within the current value.
    package struct Mark {
        let position: Int
        let line: Int
        let lineStart: Int
    }

    /// Where the scanner is now.
    package var mark: Mark { Mark(position: position, line: line, lineStart: lineStart) }

    /// The bytes from `mark` (taken since the last `startValue()`) to where the scanner is.
    package func bytes(since mark: Mark) -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage + mark.position, count: position - mark.position))
    }

    /// Where `mark` is in the input: line, column and byte offset.
    package func place(of mark: Mark) -> (line: Int, column: Int, byteOffset: Int) {
        (mark.line, base + mark.position - mark.lineStart + 1, base + mark.position)
    }

    /// Goes back to a mark taken within the current value (the window never moves within one).
    package func rewind(to mark: Mark) {
        position = mark.position
        line = mark.line
        lineStart = mark.lineStart
    }

    /// Where the scanner is: line, column and byte offset.
    package func location(pointer: String? = nil) -> SourceLocation {
        location(atOffset: base + position, pointer: pointer)
    }

    /// A place in the input kept as three integers, made into a `SourceLocation` only when a
    /// message needs one (the per-member path builds no strings).
    package struct Place: Sendable {
        /// The absolute byte offset.
        package let offset: Int
        let line: Int
        let lineStart: Int

        package init(offset: Int, line: Int, lineStart: Int) {
            self.offset = offset
            self.line = line
            self.lineStart = lineStart
        }
    }

    /// Where the scanner is, cheaply.
    @inline(__always) package var place: Place { Place(offset: base + position, line: line, lineStart: lineStart) }

    /// The location of a place taken earlier, with a JSON Pointer.
    package func location(of place: Place, pointer: String? = nil) -> SourceLocation {
        SourceLocation(
            file: reader.name, line: place.line, column: max(1, place.offset - place.lineStart + 1),
            byteOffset: place.offset, pointer: pointer)
    }

    /// The location of a place taken earlier, with the JSON Pointer `prefix/index` composed
    /// only when it is read.
    package func location(of place: Place, pointerPrefix prefix: String, index: Int) -> SourceLocation {
        SourceLocation(
            file: reader.name, line: place.line, column: max(1, place.offset - place.lineStart + 1),
            byteOffset: place.offset, pointerPrefix: prefix, index: index)
    }

    package func location(atOffset offset: Int, pointer: String? = nil) -> SourceLocation {
        SourceLocation(
            file: reader.name, line: line, column: max(1, offset - lineStart + 1), byteOffset: offset,
            pointer: pointer)
    }

    /// An invalid-input error at the current position.
    package func error(_ message: String, pointer: String? = nil, hint: String? = nil) -> GeoConvError {
        GeoConvError(.invalidInput, message, at: location(pointer: pointer), hint: hint)
    }

    /// Describes the next token for "expected X, found Y" messages.
    package func describeNext() throws(GeoConvError) -> String {
        guard let byte = try peekToken() else { return "the end of the input" }
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(String(byte, radix: 16))"
        }
    }

    /// Consumes `byte` (after whitespace) or throws "expected …".
    package func expect(
        _ byte: UInt8, _ what: @autoclosure () -> String, pointer: @autoclosure () -> String? = nil
    ) throws(GeoConvError) {
        guard try peekToken() == byte else {
            throw error("expected \(what()), found \(try describeNext())", pointer: pointer())
        }
        position += 1
    }

    /// After a member or element: consumes `,` and returns true, or consumes `close` and returns false.
    @inline(__always) package func nextElement(
        close: UInt8, pointer: @autoclosure () -> String?
    ) throws(GeoConvError) -> Bool {
        let byte = try peekToken()
        if byte == UInt8(ascii: ",") {
            position += 1
            return true
        }
        if byte == close {
            position += 1
            return false
        }
        let closer = close == UInt8(ascii: "]") ? "']'" : "'}'"
        throw error("expected ',' or \(closer), found \(try describeNext())", pointer: pointer())
    }

    // MARK: Literals

    /// Parses `true`, `false` or `null` at the current position.
    package func parseKeyword() throws(GeoConvError) -> JSONValue {
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
            if try matches(word) {
                position += word.utf8.count
                return value
            }
        }
        throw error(
            "expected a JSON value, found \(try describeNext())",
            hint: "JSON has no NaN, Infinity or unquoted words; quote strings")
    }

    private func matches(_ word: String) throws(GeoConvError) -> Bool {
        let bytes = Array(word.utf8)
        while end - position < bytes.count { guard try refill() else { return false } }
        for (i, b) in bytes.enumerated() where storage[position + i] != b { return false }
        // The keyword must end here.
        if end - position == bytes.count { _ = try refill() }
        if position + bytes.count < end {
            let next = storage[position + bytes.count]
            if (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z"))
                || (next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z"))
            {
                return false
            }
        }
        return true
    }

    // MARK: Values

    /// Parses any JSON value (objects keep member order; numbers keep their text).
    package func parseValue(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> JSONValue {
        guard let byte = try peekToken() else {
            throw error("expected a JSON value, found the end of the input", pointer: pointer())
        }
        switch byte {
        case UInt8(ascii: "{"):
            return .object(try parseObject(depth: depth + 1, pointer: pointer()))
        case UInt8(ascii: "["):
            try checkDepth(depth + 1, pointer: pointer())
            position += 1
            var elements: [JSONValue] = []
            if try peekToken() == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            repeat {
                elements.append(try parseValue(depth: depth + 1, pointer: pointer() + "/" + String(elements.count)))
            } while try nextElement(close: UInt8(ascii: "]"), pointer: pointer())
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            return try parseKeyword()
        }
    }

    /// Parses an object at the current position into ordered members. A repeated key keeps
    /// its last value, in its first position.
    package func parseObject(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> JSONObject {
        try checkDepth(depth, pointer: pointer())
        try expect(UInt8(ascii: "{"), "'{'", pointer: pointer())
        var object = JSONObject()
        if try peekToken() == UInt8(ascii: "}") {
            position += 1
            return object
        }
        repeat {
            let key = try parseKey(pointer: pointer())
            let value = try parseValue(depth: depth, pointer: pointer() + "/" + JSONScanner.escapePointer(key))
            if object.count == JSONScanner.unhashedObjectCount, largeObjectCount > object.count {
                object.reserveCapacity(largeObjectCount)
            }
            object[key] = value
        } while try nextElement(close: UInt8(ascii: "}"), pointer: pointer())
        if object.count > JSONScanner.unhashedObjectCount { largeObjectCount = object.count }
        return object
    }

    /// Parses `"key" :` and returns the key.
    @inline(__always) package func parseKey(pointer: @autoclosure () -> String) throws(GeoConvError) -> String {
        guard try peekToken() == UInt8(ascii: "\"") else {
            throw error(
                "expected a member name in quotes, found \(try describeNext())", pointer: pointer(),
                hint: "JSON object keys are strings in double quotes")
        }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after the member name \"\(key)\"", pointer: pointer())
        return key
    }

    /// Throws when `depth` exceeds the limit.
    package func checkDepth(_ depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) {
        guard depth <= maximumDepth else {
            throw GeoConvError(
                .limitExceeded, "JSON nested deeper than \(maximumDepth) levels", at: location(pointer: pointer()),
                hint: "no geographic data needs this depth; the input is malformed or hostile")
        }
    }

    /// Skips any value (validating it).
    package func skipValue(depth: Int, pointer: String) throws(GeoConvError) {
        _ = try parseValue(depth: depth, pointer: pointer)
    }

    /// `~` and `/` escaped as RFC 6901 requires.
    package static func escapePointer(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}
