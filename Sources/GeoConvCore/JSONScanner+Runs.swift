
/// Cutting a top-level array into runs of whole elements for other threads (`--jobs` on a
/// FeatureCollection), and member names matched as bytes.
extension JSONScanner {
    /// Cuts the next run of whole elements of the array being read (the scanner is after its
    /// `[`, or after the previous run's comma): elements up to at least `size` bytes, or up to
    /// the array's end. Each element is stepped over as bytes (`skipValueBytes`); its errors
    /// are found by whoever parses the run. Stops where the array ends — or where it does
    /// not go on as an array of elements (a `}` where `]` belongs, a missing element, the
    /// input ending inside an element) — leaving the scanner after the last whole element,
    /// for the caller's own parser to read on and report what it finds there. Returns `nil`
    /// when no whole element is left before that point.
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
        var elements = 0
        var lastComma: Mark?
        /// The elements up to here as a run; the scanner stays here (as after an element).
        func run(elements count: Int) -> FeatureRun {
            elementsBefore += count
            return FeatureRun(bytes: Array(UnsafeBufferPointer(start: storage + start, count: position - start)), line: startLine,
                              column: startColumn, byteOffset: startOffset, recordsBefore: elementsBefore - count)
        }
        /// Stops before the last comma (the caller's parser reads what follows it and says
        /// what is wrong there, as it would anyway), or gives nothing.
        func stop() -> FeatureRun? {
            guard let lastComma else {
                rewind(to: entry)
                return nil
            }
            rewind(to: lastComma)
            return run(elements: elements)
        }
        while true {
            // The array ends, or an element is missing.
            guard let byte = try peekToken(), byte != UInt8(ascii: "]"), byte != UInt8(ascii: "}"), byte != UInt8(ascii: ",") else {
                return stop()
            }
            do throws(GeoConvError) {
                try skipValueBytes()
            } catch {
                // The input ends inside this element.
                guard error.code == .invalidInput else { throw error }
                return stop()
            }
            elements += 1
            let afterElement = mark
            guard try peekToken() == UInt8(ascii: ",") else {
                rewind(to: afterElement)
                return run(elements: elements)
            }
            if position - start >= size { return run(elements: elements) }  // at the comma
            lastComma = mark
            position += 1
        }
    }

    /// Parses `"key" :` and returns the key with its index in `names` when it is one of them:
    /// an unescaped key is compared as bytes, and a known one costs no new string.
    @inline(__always)
    package func parseKey(in names: JSONKeyTable, pointer: @autoclosure () -> String) throws(GeoConvError) -> (index: Int?, key: String) {
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
    package func knownKey(_ names: JSONKeyTable) throws(GeoConvError) -> Int? {
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
package struct JSONKeyTable: Sendable {
    /// The names, in the order given.
    package let names: [String]
    /// Every name's bytes, one after another; name `i` starts at `offsets[i]`.
    package let bytes: [UInt8]
    package let offsets: [Int]
    /// Indices of the names of each length.
    package let byLength: [[Int]]
    package let longest: Int

    /// Creates a table of `names` (ASCII, without `"` or backslash).
    package init(_ names: [String]) {
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
    package func matches(_ index: Int, _ pointer: UnsafePointer<UInt8>, count: Int) -> Bool {
        let offset = offsets[index]
        for k in 0..<count where bytes[offset + k] != pointer[k] { return false }
        return true
    }
}
