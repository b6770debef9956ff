public import GeoConvCore

/// A byte-level JSON scanner over a streaming input.
///
/// It reads the input in chunks into a window that holds at least the value being parsed:
/// `startValue()` discards everything before the current position, so the window never
/// holds more than the largest single value (one feature), whatever the file's size.
/// Numbers are parsed to exactly the `Double` `strtod` gives (Clinger's exact fast path,
/// falling back to the standard library's correctly rounded parser), strings are unescaped
/// (surrogate pairs, `\u0000`) and checked to be UTF-8, and every error carries
/// `line:column` (columns count bytes) and the byte offset.
public final class JSONScanner {
    private let reader: ByteReader
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Index of the next unread byte in the window.
    @exclusivity(unchecked) var position = 0
    @exclusivity(unchecked) var end = 0
    private var atEnd = false
    /// Absolute input offset of `storage[0]`.
    @exclusivity(unchecked) private var base = 0
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var lineStart = 0
    /// The deepest nesting of arrays and objects accepted.
    public let maximumDepth: Int
    /// The largest single value (feature) accepted, in bytes.
    public let maximumValueBytes: Int
    /// The input's name for messages.
    public var name: String { reader.name }
    /// Bytes consumed from the input (for progress).
    public var bytesRead: Int { reader.bytesRead }

    /// Creates a scanner. A UTF-8 byte order mark at the start is skipped.
    public init(_ reader: ByteReader, maximumDepth: Int = 256, maximumValueBytes: Int = 1 << 30) {
        self.reader = reader
        self.maximumDepth = maximumDepth
        self.maximumValueBytes = maximumValueBytes
        capacity = 1 << 20
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    // MARK: Window

    /// Marks the current position as the start of a value: the bytes before it may be
    /// discarded. (They are, once they fill half the window, so that moving the rest is cheap.)
    public func startValue() {
        guard position > 0, position >= capacity / 2 else { return }
        let live = end - position
        if live > 0 { storage.update(from: storage + position, count: live) }
        base += position
        end = live
        position = 0
    }

    /// Reads more input into the window; false at the end of the input.
    func refill() throws(GeoConvError) -> Bool {
        if atEnd { return false }
        if end == capacity {
            guard capacity < maximumValueBytes else {
                throw GeoConvError(.limitExceeded, "a single JSON value is larger than \(maximumValueBytes) bytes",
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
        if base == 0 && end == 0 && n >= 3 && storage[0] == 0xEF && storage[1] == 0xBB && storage[2] == 0xBF {
            position = 3
            lineStart = 3
        }
        end += n
        return true
    }

    /// The next byte without consuming it; `nil` at the end of the input.
    @inline(__always) public func peek() throws(GeoConvError) -> UInt8? {
        if position < end { return storage[position] }
        guard try refill() else { return nil }
        return storage[position]
    }

    /// Skips whitespace (counting lines) and returns the next byte without consuming it.
    @inline(__always) public func peekToken() throws(GeoConvError) -> UInt8? {
        while true {
            if position == end { guard try refill() else { return nil } }
            let byte = storage[position]
            switch byte {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                if recordEndsAtNewline {
                    throw error("a record of a newline-delimited GeoJSON text sequence continues on the next line",
                                hint: "write one JSON text per line, or start every record with RS (RFC 8142, .geojsons)")
                }
                position += 1
                line += 1
                lineStart = base + position
            default: return byte
            }
        }
    }

    /// A run of whole elements of the array being read, cut for parsing on another thread.
    package struct ElementRun {
        /// The elements' bytes, separated by their commas (the comma after the last excluded).
        package var bytes: [UInt8]
        /// Where `bytes` start in the input.
        package var line: Int
        package var column: Int
        package var byteOffset: Int
        /// Elements of the array before this run.
        package var elementsBefore: Int
    }

    /// Cuts the next run of whole elements of the array being read (the scanner is after its
    /// `[`, or after the previous run's comma): elements up to at least `size` bytes, or up to
    /// the array's end. Only strings, brackets and braces are looked at; the elements are
    /// parsed, and any error in them found, by whoever reads the run. Stops where the array
    /// ends — or at anything that does not continue it (a `}` where `]` belongs, the end of
    /// the input) — leaving the scanner there for the caller's own parser. Returns `nil`
    /// when no element is left before that point.
    package func nextElementRun(size: Int, elementsBefore: inout Int) throws(GeoConvError) -> ElementRun? {
        startValue()
        let entry = mark
        if elementsBefore > 0 {
            // The previous run stopped at the comma before this one's first element.
            guard try peekToken() == UInt8(ascii: ",") else { return nil }
            position += 1
        }
        let start = position
        let startLine = line, startColumn = base + position - lineStart + 1, startOffset = base + position
        var i = position
        var depth = 0
        var inString = false, escaped = false
        var scanLine = line, scanLineStart = lineStart
        var elements = 0  // elements closed by a comma at depth 0
        var elementOpen = false  // bytes other than whitespace since the start or the last comma
        // The last comma at depth 0, with the line there.
        var lastComma: (index: Int, line: Int, lineStart: Int)?
        /// The elements up to `cut` as a run, the scanner left at `cut` (as after an element).
        func run(upTo cut: Int, line cutLine: Int, lineStart cutLineStart: Int, elements count: Int) -> ElementRun {
            let result = ElementRun(bytes: Array(UnsafeBufferPointer(start: storage + start, count: cut - start)), line: startLine,
                                    column: startColumn, byteOffset: startOffset, elementsBefore: elementsBefore)
            position = cut
            line = cutLine
            lineStart = cutLineStart
            elementsBefore += count
            return result
        }
        /// Stops where the array ends or does not continue (or an element is missing): the
        /// caller's parser goes on from there and says what it finds, as it would anyway.
        func stop(at index: Int) -> ElementRun? {
            if elementOpen { return run(upTo: index, line: scanLine, lineStart: scanLineStart, elements: elements + 1) }
            if let comma = lastComma { return run(upTo: comma.index, line: comma.line, lineStart: comma.lineStart, elements: elements) }
            rewind(to: entry)
            return nil
        }
        while true {
            if i == end, try !refill() { return stop(at: i) }  // the input ends inside the array
            let byte = storage[i]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                } else if byte == 0x0A {
                    scanLine += 1
                    scanLineStart = base + i + 1
                }
                i += 1
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0D:
                break
            case 0x0A:
                scanLine += 1
                scanLineStart = base + i + 1
            case UInt8(ascii: ",") where depth == 0:
                guard elementOpen else { return stop(at: i) }  // no element before this comma
                elements += 1
                elementOpen = false
                if i - start >= size {
                    return run(upTo: i, line: scanLine, lineStart: scanLineStart, elements: elements)
                }
                lastComma = (i, scanLine, scanLineStart)
            case UInt8(ascii: "}") where depth == 0, UInt8(ascii: "]") where depth == 0:
                return stop(at: i)
            default:
                elementOpen = true
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
            }
            i += 1
        }
    }

    /// Set while a record of a newline-delimited text sequence is parsed: a newline inside
    /// it is an error, so one thread and `--jobs` (which cuts at newlines) read alike.
    public var recordEndsAtNewline = false

    /// Skips whitespace and record separators (RS, 0x1E), for GeoJSON text sequences.
    public func peekRecord() throws(GeoConvError) -> UInt8? {
        while true {
            guard let byte = try peekToken() else { return nil }
            if byte != 0x1E { return byte }
            sawRecordSeparator = true
            position += 1
        }
    }

    /// Whether an RS (0x1E) has been seen: the sequence is RFC 8142, not newline-delimited.
    public private(set) var sawRecordSeparator = false

    /// Skips the rest of a bad record of a text sequence: up to the next RS when the
    /// sequence uses them (a record may span lines), else past the end of the line.
    public func skipRecord() throws(GeoConvError) {
        while true {
            if position == end { guard try refill() else { return } }
            let byte = storage[position]
            if byte == 0x1E && sawRecordSeparator { return }
            position += 1
            if byte == 0x0A {
                line += 1
                lineStart = base + position
                if !sawRecordSeparator { return }
            }
        }
    }

    /// Consumes one byte.
    @inline(__always) public func advance() { position += 1 }

    /// The scanner's position, to come back to within the current value.
    public struct Mark {
        fileprivate let position: Int
        fileprivate let line: Int
        fileprivate let lineStart: Int
    }

    /// Where the scanner is now.
    public var mark: Mark { Mark(position: position, line: line, lineStart: lineStart) }

    /// Goes back to a mark taken within the current value (the window never moves within one).
    public func rewind(to mark: Mark) {
        position = mark.position
        line = mark.line
        lineStart = mark.lineStart
    }

    /// Where the scanner is: line, column and byte offset.
    public func location(pointer: String? = nil) -> SourceLocation {
        location(atOffset: base + position, pointer: pointer)
    }

    func location(atOffset offset: Int, pointer: String? = nil) -> SourceLocation {
        SourceLocation(file: reader.name, line: line, column: max(1, offset - lineStart + 1), byteOffset: offset,
                       pointer: pointer)
    }

    /// An invalid-input error at the current position.
    public func error(_ message: String, pointer: String? = nil, hint: String? = nil) -> GeoConvError {
        GeoConvError(.invalidInput, message, at: location(pointer: pointer), hint: hint)
    }

    /// Describes the next token for "expected X, found Y" messages.
    public func describeNext() throws(GeoConvError) -> String {
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
    public func expect(_ byte: UInt8, _ what: @autoclosure () -> String, pointer: @autoclosure () -> String? = nil) throws(GeoConvError) {
        guard try peekToken() == byte else {
            throw error("expected \(what()), found \(try describeNext())", pointer: pointer())
        }
        position += 1
    }

    /// After a member or element: consumes `,` and returns true, or consumes `close` and returns false.
    @inline(__always) public func nextElement(close: UInt8, pointer: @autoclosure () -> String?) throws(GeoConvError) -> Bool {
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
    func parseKeyword() throws(GeoConvError) -> JSONValue {
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
            if try matches(word) {
                position += word.utf8.count
                return value
            }
        }
        throw error("expected a JSON value, found \(try describeNext())",
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
            if (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z")) || (next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z")) {
                return false
            }
        }
        return true
    }

    /// Scans a number's bytes, checking JSON's grammar; returns the window range.
    @inline(__always) private func scanNumber() throws(GeoConvError) -> Range<Int> {
        let start = position
        var i = position
        @inline(__always) func byte() throws(GeoConvError) -> UInt8? {
            if i < end { return storage[i] }
            guard try refill() else { return nil }
            return storage[i]
        }
        @inline(__always) func isDigit(_ b: UInt8?) -> Bool { b.map { $0 &- 48 < 10 } ?? false }
        if try byte() == UInt8(ascii: "-") { i += 1 }
        guard isDigit(try byte()) else {
            position = i
            throw error("invalid number: expected a digit, found \(try describeNext())",
                        hint: "JSON numbers are like -12.5e3; NaN, Infinity and a lone '-' are not allowed")
        }
        if try byte() == UInt8(ascii: "0") {
            i += 1
            if isDigit(try byte()) {
                position = i
                throw error("invalid number: leading zero", hint: "write 12, not 012")
            }
        } else {
            while isDigit(try byte()) { i += 1 }
        }
        if try byte() == UInt8(ascii: ".") {
            i += 1
            guard isDigit(try byte()) else {
                position = i
                throw error("invalid number: expected a digit after '.'")
            }
            while isDigit(try byte()) { i += 1 }
        }
        if let e = try byte(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let s = try byte(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard isDigit(try byte()) else {
                position = i
                throw error("invalid number: expected a digit in the exponent")
            }
            while isDigit(try byte()) { i += 1 }
        }
        position = i
        return start..<i
    }

    /// Parses a number to the nearest `Double` (exactly what `strtod` gives), checking JSON's
    /// grammar in the same pass. Numbers too large for a `Double` (`1e999`) are an error.
    @inline(__always) public func parseDouble() throws(GeoConvError) -> Double {
        // Single pass over the window: grammar, mantissa and exponent together. The window
        // never moves while a value is parsed, so indices stay valid across refills.
        let start = position
        var i = position
        @inline(__always) func byte() throws(GeoConvError) -> UInt8 {
            if i < end { return storage[i] }
            guard try refill() else { return 0 }
            return storage[i]
        }
        var negative = false
        var b = try byte()
        if b == UInt8(ascii: "-") {
            negative = true
            i += 1
            b = try byte()
        }
        guard b &- 48 < 10 else {
            position = i
            throw error("invalid number: expected a digit, found \(try describeNext())",
                        hint: "JSON numbers are like -12.5e3; NaN, Infinity and a lone '-' are not allowed")
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        if b == UInt8(ascii: "0") {
            i += 1
            b = try byte()
            if b &- 48 < 10 {
                position = i
                throw error("invalid number: leading zero", hint: "write 12, not 012")
            }
        } else {
            repeat {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(b &- 48)
                    digits += 1
                } else {
                    exact = false
                    exponent += 1
                }
                i += 1
                b = try byte()
            } while b &- 48 < 10
        }
        if b == UInt8(ascii: ".") {
            i += 1
            b = try byte()
            guard b &- 48 < 10 else {
                position = i
                throw error("invalid number: expected a digit after '.'")
            }
            repeat {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(b &- 48)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else if b != UInt8(ascii: "0") {
                    exact = false
                }
                i += 1
                b = try byte()
            } while b &- 48 < 10
        }
        if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            i += 1
            b = try byte()
            var expNegative = false
            if b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
                expNegative = b == UInt8(ascii: "-")
                i += 1
                b = try byte()
            }
            guard b &- 48 < 10 else {
                position = i
                throw error("invalid number: expected a digit in the exponent")
            }
            var e = 0
            repeat {
                if e < 100_000 { e = e &* 10 &+ Int(b &- 48) }
                i += 1
                b = try byte()
            } while b &- 48 < 10
            exponent += expNegative ? -e : e
        }
        position = i
        var value: Double
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            // Clinger: both operands exact, so one correctly rounded operation is exact.
            value = Double(mantissa)
            if exponent < 0 { value /= DecimalFormatter.powerOfTen(-exponent) } else { value *= DecimalFormatter.powerOfTen(exponent) }
            if negative { value = -value }
        } else if mantissa == 0 && exact {
            value = negative ? -0.0 : 0.0
        } else {
            value = Double(String(decoding: UnsafeBufferPointer(start: storage + start, count: i - start), as: UTF8.self)) ?? .nan
        }
        guard value.isFinite else {
            throw GeoConvError(.invalidInput,
                               "number \(String(decoding: UnsafeBufferPointer(start: storage + start, count: i - start), as: UTF8.self)) is too large for a 64-bit float",
                               at: location(atOffset: base + start))
        }
        return value
    }

    /// Parses a number keeping its literal text (for properties: big integers and long
    /// decimals are not rounded).
    public func parseNumber() throws(GeoConvError) -> JSONNumber {
        let offset = base + position
        let range = try scanNumber()
        let bytes = UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)
        let text = String(decoding: bytes, as: UTF8.self)
        guard JSONScanner.doubleValue(storage + range.lowerBound, range.count).isFinite else {
            throw GeoConvError(.invalidInput, "number \(text) is too large for a 64-bit float", at: location(atOffset: offset),
                               hint: "GeoJSON numbers must fit IEEE 754 double precision")
        }
        return JSONNumber(uncheckedLiteral: text)
    }

    /// Exact decimal-to-double conversion of a validated JSON number.
    static func doubleValue(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Double {
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        while i < count, bytes[i] &- 48 < 10 {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                if mantissa != 0 { digits += 1 }
            } else {
                exact = false
                exponent += 1
            }
            i += 1
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < count, bytes[i] &- 48 < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else if bytes[i] != UInt8(ascii: "0") {
                    exact = false
                }
                i += 1
            }
        }
        if i < count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if bytes[i] == UInt8(ascii: "+") { i += 1 } else if bytes[i] == UInt8(ascii: "-") { expNegative = true; i += 1 }
            var e = 0
            while i < count, bytes[i] &- 48 < 10 {
                if e < 100_000 { e = e * 10 + Int(bytes[i] &- 48) }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        // Clinger's fast path: the mantissa and the power of ten are both exact doubles,
        // so one correctly rounded multiplication or division gives the exact result.
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 { value /= DecimalFormatter.powerOfTen(-exponent) } else { value *= DecimalFormatter.powerOfTen(exponent) }
            return negative ? -value : value
        }
        if mantissa == 0 && exact { return negative ? -0.0 : 0.0 }
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// Parses a string at the current position (which must be `"`), unescaping it.
    public func parseString() throws(GeoConvError) -> String {
        let openOffset = base + position
        position += 1
        var i = position
        var nonASCII: UInt8 = 0
        // Fast path: no escapes.
        while true {
            if i == end {
                guard try refill() else {
                    throw GeoConvError(.invalidInput, "unterminated string", at: location(atOffset: openOffset),
                                       hint: "the input ends inside this string")
                }
            }
            let byte = storage[i]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: storage + position, count: i - position)
                let text: String
                if nonASCII & 0x80 == 0 {
                    text = String(decoding: bytes, as: UTF8.self)  // ASCII is valid UTF-8: no validation pass
                } else {
                    guard let valid = String(validating: bytes, as: UTF8.self) else {
                        throw invalidUTF8(bytes, startOffset: base + position)
                    }
                    text = valid
                }
                position = i + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            nonASCII |= byte
            i += 1
        }
        var decoded: [UInt8] = Array(UnsafeBufferPointer(start: storage + position, count: i - position))
        let contentStart = base + position
        position = i
        while true {
            if position == end {
                guard try refill() else {
                    throw GeoConvError(.invalidInput, "unterminated string", at: location(atOffset: openOffset),
                                       hint: "the input ends inside this string")
                }
            }
            let byte = storage[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw GeoConvError(.invalidInput, "string is not valid UTF-8", at: location(atOffset: contentStart),
                                       hint: "GeoJSON text must be UTF-8; re-encode the file")
                }
                return text
            }
            if byte < 0x20 {
                throw error("control character 0x\(String(byte, radix: 16)) inside a string",
                            hint: "escape it (\\n, \\t, \\u00XX)")
            }
            if byte != UInt8(ascii: "\\") {
                decoded.append(byte)
                position += 1
                continue
            }
            position += 1
            guard let escape = try peek() else { continue }
            position += 1
            switch escape {
            case UInt8(ascii: "\""): decoded.append(0x22)
            case UInt8(ascii: "\\"): decoded.append(0x5C)
            case UInt8(ascii: "/"): decoded.append(0x2F)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard try peek() == UInt8(ascii: "\\") else { throw error("lone high surrogate \\u\(String(scalar, radix: 16)) in a string") }
                    position += 1
                    guard try peek() == UInt8(ascii: "u") else { throw error("lone high surrogate \\u\(String(scalar, radix: 16)) in a string") }
                    position += 1
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("high surrogate \\u\(String(scalar, radix: 16)) is not followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("lone low surrogate \\u\(String(scalar, radix: 16)) in a string")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                decoded.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
            default:
                position -= 1
                throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string",
                            hint: "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
        }
    }

    private func hex4() throws(GeoConvError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw error("the input ends inside a \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, startOffset: Int) -> GeoConvError {
        var index = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error:
                index = offset
                break loop
            }
        }
        return GeoConvError(.invalidInput, "string is not valid UTF-8 (bad byte 0x\(String(bytes[index], radix: 16)))",
                            at: location(atOffset: startOffset + index),
                            hint: "GeoJSON text must be UTF-8; re-encode the file (e.g. iconv -f LATIN1 -t UTF-8)")
    }

    // MARK: Values

    /// Parses any JSON value (objects keep member order; numbers keep their text).
    public func parseValue(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> JSONValue {
        guard let byte = try peekToken() else { throw error("expected a JSON value, found the end of the input", pointer: pointer()) }
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
    public func parseObject(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> JSONObject {
        try checkDepth(depth, pointer: pointer())
        try expect(UInt8(ascii: "{"), "'{'", pointer: pointer())
        var object = JSONObject()
        if try peekToken() == UInt8(ascii: "}") {
            position += 1
            return object
        }
        repeat {
            let key = try parseKey(pointer: pointer())
            object[key] = try parseValue(depth: depth, pointer: pointer() + "/" + JSONScanner.escapePointer(key))
        } while try nextElement(close: UInt8(ascii: "}"), pointer: pointer())
        return object
    }

    /// Parses `"key" :` and returns the key with its index in `names` when it is one of them:
    /// an unescaped key is compared as bytes, and a known one costs no new string.
    @inline(__always)
    public func parseKey(in names: JSONKeyTable, pointer: @autoclosure () -> String) throws(GeoConvError) -> (index: Int?, key: String) {
        if try peekToken() == UInt8(ascii: "\""), let index = knownKey(names) {
            try expect(UInt8(ascii: ":"), "':' after the member name \"\(names.names[index])\"", pointer: pointer())
            return (index, names.names[index])
        }
        let key = try parseKey(pointer: pointer())
        return (names.names.firstIndex(of: key), key)
    }

    /// At a `"`: when the string up to the next `"` is exactly one of `names` (no escapes,
    /// already in the window), consumes it and returns its index.
    @inline(__always)
    private func knownKey(_ names: JSONKeyTable) -> Int? {
        let start = position + 1
        var i = start
        let limit = min(end, start + names.longest + 1)
        while i < limit, storage[i] != UInt8(ascii: "\""), storage[i] != UInt8(ascii: "\\") { i += 1 }
        guard i < limit, storage[i] == UInt8(ascii: "\"") else { return nil }
        let length = i - start
        guard length < names.byLength.count else { return nil }
        for index in names.byLength[length] where names.matches(index, storage + start, count: length) {
            position = i + 1
            return index
        }
        return nil
    }

    /// Parses `"key" :` and returns the key.
    @inline(__always) public func parseKey(pointer: @autoclosure () -> String) throws(GeoConvError) -> String {
        guard try peekToken() == UInt8(ascii: "\"") else {
            throw error("expected a member name in quotes, found \(try describeNext())", pointer: pointer(),
                        hint: "JSON object keys are strings in double quotes")
        }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after the member name \"\(key)\"", pointer: pointer())
        return key
    }

    /// Throws when `depth` exceeds the limit.
    public func checkDepth(_ depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) {
        guard depth <= maximumDepth else {
            throw GeoConvError(.limitExceeded, "JSON nested deeper than \(maximumDepth) levels", at: location(pointer: pointer()),
                               hint: "GeoJSON never needs this depth; the input is malformed or hostile")
        }
    }

    /// Skips any value (validating it).
    public func skipValue(depth: Int, pointer: String) throws(GeoConvError) {
        _ = try parseValue(depth: depth, pointer: pointer)
    }

    /// `~` and `/` escaped as RFC 6901 requires.
    public static func escapePointer(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

/// Member names a reader looks for, matched as bytes by `JSONScanner.parseKey(in:pointer:)`.
public struct JSONKeyTable: Sendable {
    /// The names, in the order given.
    public let names: [String]
    /// Every name's bytes, one after another; name `i` starts at `offsets[i]`.
    let bytes: [UInt8]
    let offsets: [Int]
    /// Indices of the names of each length.
    let byLength: [[Int]]
    let longest: Int

    /// Creates a table of `names` (ASCII, without `"` or backslash).
    public init(_ names: [String]) {
        self.names = names
        var bytes: [UInt8] = [], offsets: [Int] = []
        for name in names {
            offsets.append(bytes.count)
            bytes += name.utf8
        }
        self.bytes = bytes
        self.offsets = offsets
        longest = names.map(\.utf8.count).max() ?? 0
        var byLength = [[Int]](repeating: [], count: longest + 1)
        for (index, name) in names.enumerated() { byLength[name.utf8.count].append(index) }
        self.byLength = byLength
    }

    /// Whether name `index` is the `count` bytes at `pointer`.
    @inline(__always)
    func matches(_ index: Int, _ pointer: UnsafePointer<UInt8>, count: Int) -> Bool {
        let offset = offsets[index]
        for k in 0..<count where bytes[offset + k] != pointer[k] { return false }
        return true
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
