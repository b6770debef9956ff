public import GeoConvCore

/// Cutting a top-level array into runs of whole elements for other threads (`--jobs` on a
/// FeatureCollection), and member names matched as bytes.
extension JSONScanner {
    /// Cuts the next run of whole elements of the array being read (the scanner is after its
    /// `[`, or after the previous run's comma): elements up to at least `size` bytes, or up to
    /// the array's end. Only strings, brackets and braces are looked at; the elements are
    /// parsed, and any error in them found, by whoever reads the run. Stops where the array
    /// ends — or at anything that does not continue it (a `}` where `]` belongs, the end of
    /// the input) — leaving the scanner there for the caller's own parser. Returns `nil`
    /// when no element is left before that point.
    package func nextElementRun(size: Int, elementsBefore: inout Int) throws(GeoConvError) -> FeatureRun? {
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
        func run(upTo cut: Int, line cutLine: Int, lineStart cutLineStart: Int, elements count: Int) -> FeatureRun {
            let result = FeatureRun(bytes: Array(UnsafeBufferPointer(start: storage + start, count: cut - start)), line: startLine,
                                    column: startColumn, byteOffset: startOffset, recordsBefore: elementsBefore)
            position = cut
            line = cutLine
            lineStart = cutLineStart
            elementsBefore += count
            return result
        }
        /// Stops where the array ends or does not continue (or an element is missing): the
        /// caller's parser goes on from there and says what it finds, as it would anyway.
        func stop(at index: Int) -> FeatureRun? {
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


    /// Parses `"key" :` and returns the key with its index in `names` when it is one of them:
    /// an unescaped key is compared as bytes, and a known one costs no new string.
    @inline(__always)
    public func parseKey(in names: JSONKeyTable, pointer: @autoclosure () -> String) throws(GeoConvError) -> (index: Int?, key: String) {
        if try peekToken() == UInt8(ascii: "\""), let index = try knownKey(names) {
            try expect(UInt8(ascii: ":"), "':' after the member name \"\(names.names[index])\"", pointer: pointer())
            return (index, names.names[index])
        }
        let key = try parseKey(pointer: pointer())
        return (names.names.firstIndex(of: key), key)
    }

    /// Parses `"key" :` and returns the key's index in `names`, or `nil` for another key,
    /// which is stepped over without making a string.
    package func parseKeyIndex(in names: JSONKeyTable) throws(GeoConvError) -> Int? {
        guard try peekToken() == UInt8(ascii: "\"") else {
            throw error("expected a member name in quotes, found \(try describeNext())", hint: "JSON object keys are strings in double quotes")
        }
        var index = try knownKey(names)
        if index == nil {
            // An escaped name may still be one of them: unescape those; step over the rest.
            let mark = mark
            try skipValueBytes()
            if UnsafeBufferPointer(start: storage + mark.position, count: position - mark.position).contains(UInt8(ascii: "\\")) {
                rewind(to: mark)
                index = names.names.firstIndex(of: try parseString())
            }
        }
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return index
    }

    /// At a `"`: when the string up to the next `"` is exactly one of `names` (no escapes,
    /// already in the window), consumes it and returns its index.
    @inline(__always)
    func knownKey(_ names: JSONKeyTable) throws(GeoConvError) -> Int? {
        let start = position + 1
        // The longest name and its closing quote in the window (refill keeps positions).
        while end < start + names.longest + 1, try refill() {}
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
