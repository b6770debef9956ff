internal import GeoConvBytes
package import GeoConvCore

/// Member names matched as bytes.
extension JSONScanner {
    /// Parses `"key" :` and returns the key with its index in `names` when it is one of them:
    /// an unescaped key is compared as bytes, and a known one costs no new string.
    @inline(__always)
    package func parseKey(
        in names: JSONKeyTable, pointer: @autoclosure () -> String
    ) throws(GeoConvError) -> (index: Int?, key: String) {
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
            throw error(
                "expected a member name in quotes, found \(try describeNext())",
                hint: "JSON object keys are strings in double quotes")
        }
        var index = try knownKey(names)
        if index == nil {
            // An escaped name may still be one of them: unescape those; step over the rest.
            let mark = mark
            try skipValueBytes()
            if UnsafeBufferPointer(start: storage + mark.position, count: position - mark.position).contains(
                UInt8(ascii: "\\"))
            {
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
        let bytes = storage
        // Eight bytes at a time while they are in the window: the first quote or backslash.
        while i < limit {
            guard i + 8 <= end else {
                while i < limit, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") { i += 1 }
                break
            }
            let word = ByteWords.load(bytes + i)
            let found = ByteWords.hits(word, UInt8(ascii: "\"")) | ByteWords.hits(word, UInt8(ascii: "\\"))
            if found != 0 {
                i += found.trailingZeroBitCount / 8
                break
            }
            i += 8
        }
        guard i < limit, bytes[i] == UInt8(ascii: "\"") else { return nil }
        guard let index = names.index(of: storage + start, count: i - start) else { return nil }
        position = i + 1
        return index
    }
}

/// Member names a reader looks for, matched as bytes by `JSONScanner.parseKey(in:pointer:)`.
///
/// What a lookup reads is plain memory made once and kept for the life of the process (the
/// tables are static): every worker matches every member name of every feature against
/// them, and a retained array there would make the cores fight over its count.
package struct JSONKeyTable: @unchecked Sendable {  // the storage is never changed after `init`
    /// The names, in the order given.
    package let names: [String]
    /// The longest name's length in bytes.
    package let longest: Int
    /// The names of length `n` are `byLength[starts[n]..<starts[n + 1]]` (indices in `names`).
    private let starts: UnsafePointer<Int>
    private let byLength: UnsafePointer<Int>
    /// Name `i`'s bytes, zero-padded to `wordsPerName` words, at `words + i * wordsPerName`.
    private let words: UnsafePointer<UInt64>
    private let wordsPerName: Int

    /// Creates a table of `names` (ASCII, without `"` or backslash).
    package init(_ names: [String]) {
        self.names = names
        let longest = names.map(\.utf8.count).max() ?? 0
        self.longest = longest
        let wordsPerName = max(1, (longest + 7) / 8)
        self.wordsPerName = wordsPerName
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, names.count * wordsPerName))
        words.initialize(repeating: 0, count: max(1, names.count * wordsPerName))
        for (index, name) in names.enumerated() {
            UnsafeMutableRawPointer(words + index * wordsPerName).copyMemory(
                from: Array(name.utf8), byteCount: name.utf8.count)
        }
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: longest + 2)
        let byLength = UnsafeMutablePointer<Int>.allocate(capacity: max(1, names.count))
        var filled = 0
        for length in 0...longest {
            starts[length] = filled
            for (index, name) in names.enumerated() where name.utf8.count == length {
                byLength[filled] = index
                filled += 1
            }
        }
        starts[longest + 1] = filled
        self.words = UnsafePointer(words)
        self.starts = UnsafePointer(starts)
        self.byLength = UnsafePointer(byLength)
    }

    /// The index of the name that is exactly the `count` bytes at `key`, if one is.
    @inline(__always)
    package func index(of key: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard count <= longest else { return nil }
        let whole = count / 8
        let tail = count % 8
        // The key's last partial word, zero-padded as the names are (its bytes one by one:
        // those after the key may lie beyond the window).
        var last: UInt64 = 0
        withUnsafeMutableBytes(of: &last) { bytes in
            for k in 0..<tail { bytes[k] = key[whole * 8 + k] }
        }
        next: for slot in starts[count]..<starts[count + 1] {
            let index = byLength[slot]
            let name = words + index * wordsPerName
            for w in 0..<whole where UnsafeRawPointer(key + w * 8).loadUnaligned(as: UInt64.self) != name[w] {
                continue next
            }
            if tail > 0, name[whole] != last { continue }
            return index
        }
        return nil
    }
}
