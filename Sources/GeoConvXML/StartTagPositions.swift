internal import GeoConvBytes

/// Where each start tag begins (line, and column in bytes), found by scanning the bytes as
/// they are handed to libxml2. libxml2 keeps a node's line but no column, and its parser's
/// own position is where its read-ahead has got to; start tags come out of the reader in
/// document order, so the n-th start event is the n-th start tag scanned here. Comments,
/// CDATA sections, processing instructions, declarations and quoted attribute values are
/// stepped over. Memory: the positions scanned and not yet claimed (the read-ahead's worth).
struct StartTagPositions {
    // States, as bytes for a tight loop.
    private static let text: UInt8 = 0, afterLessThan: UInt8 = 1, inTag: UInt8 = 2, inQuote: UInt8 = 3, bang: UInt8 = 4,
                       comment: UInt8 = 5, cdata: UInt8 = 6, instruction: UInt8 = 7, declaration: UInt8 = 8, declarationQuote: UInt8 = 9

    private var state = StartTagPositions.text
    /// The quote that opened a quoted value; how much of "--" or "[CDATA[" a `<!` has shown;
    /// dashes or brackets in a row (comment and CDATA ends); `[` depth in a declaration.
    private var quote: UInt8 = 0, matched = 0, run = 0, depth = 0
    private var isComment = false
    private var line = 1
    /// Offset of the first byte not yet scanned, and of the current line's first byte.
    private var offset = 0, lineStart = 0
    private var lessThanLine = 1, lessThanColumn = 1
    /// Positions scanned and not yet claimed: a ring of line << 32 | column, grown when full.
    private var ring = Ring()
    /// Elements open after the bytes scanned, whether the tag being scanned is an end tag,
    /// and the byte before the current one (`/>` ends an empty element).
    private var nesting = 0, inEndTag = false, previous: UInt8 = 0
    /// The nesting beyond which an element is too deep (the parser's limit), and where the
    /// first such element's start tag begins: libxml2 reports its depth error where its
    /// read-ahead has got to, which depends on how the input arrived.
    var maximumDepth = Int.max
    private(set) var firstTooDeep: (line: Int, column: Int)?

    private static let cdataPrefix = Array("[CDATA[".utf8)

    /// Scans bytes about to be parsed.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var i = 0
        while i < count {
            // The common states in tight loops: text up to '<', a tag up to '>' or a quote.
            if state == Self.text {
                // Eight bytes at a time while none is '<' or a newline.
                while i + 8 <= count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if ByteWords.contains(word, 0x3C) || ByteWords.contains(word, 0x0A) { break }
                    i += 8
                }
                while i < count {
                    let byte = base[i]
                    if byte == 0x3C { break }
                    if byte == 0x0A {
                        line += 1
                        lineStart = offset + i + 1
                    }
                    i += 1
                }
                guard i < count else { break }
            } else if state == Self.inTag {
                while i + 8 <= count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if ByteWords.contains(word, 0x3E) || ByteWords.contains(word, 0x22) || ByteWords.contains(word, 0x27) || ByteWords.contains(word, 0x0A) { break }
                    i += 8
                }
                while i < count {
                    let byte = base[i]
                    if byte == 0x3E || byte == 0x22 || byte == 0x27 { break }
                    if byte == 0x0A {
                        line += 1
                        lineStart = offset + i + 1
                    }
                    i += 1
                }
                guard i < count else { break }
            }
            let byte = base[i]
            if byte == 0x0A {
                line += 1
                lineStart = offset + i + 1
            }
            switch state {
            case Self.text:
                if byte == 0x3C {  // <
                    lessThanLine = line
                    lessThanColumn = offset + i - lineStart + 1
                    state = Self.afterLessThan
                }
            case Self.afterLessThan:
                switch byte {
                case 0x2F:  // </…>
                    state = Self.inTag
                    inEndTag = true
                case 0x21:  // <!
                    state = Self.bang
                    matched = 0
                case 0x3F:  // <?
                    state = Self.instruction
                    run = 0
                default:
                    ring.push(UInt64(truncatingIfNeeded: lessThanLine) << 32 | UInt64(truncatingIfNeeded: lessThanColumn))
                    nesting += 1
                    if nesting > maximumDepth, firstTooDeep == nil { firstTooDeep = (lessThanLine, lessThanColumn) }
                    inEndTag = false
                    state = byte == 0x3E ? Self.text : Self.inTag
                }
            case Self.inTag:
                if byte == 0x22 || byte == 0x27 {
                    quote = byte
                    state = Self.inQuote
                } else if byte == 0x3E {
                    // An end tag closes an element; so does an empty element's "/>".
                    if inEndTag || (i > 0 ? base[i - 1] : previous) == 0x2F { nesting -= 1 }
                    inEndTag = false
                    state = Self.text
                }
            case Self.inQuote:
                if byte == quote { state = Self.inTag }
            case Self.bang:
                if matched < 2 && byte == 0x2D && (matched == 0 || isComment) {  // "--"
                    isComment = true
                    matched += 1
                    if matched == 2 {
                        state = Self.comment
                        run = 0
                    }
                } else if !isComment && matched < 7 && byte == Self.cdataPrefix[matched] {
                    matched += 1
                    if matched == 7 {
                        state = Self.cdata
                        run = 0
                    }
                } else {
                    state = byte == 0x3E ? Self.text : Self.declaration
                    depth = byte == 0x5B ? 1 : 0
                }
                if state != Self.bang { isComment = false }
            case Self.comment:
                if byte == 0x2D {
                    run += 1
                } else {
                    if byte == 0x3E && run >= 2 { state = Self.text }
                    run = 0
                }
            case Self.cdata:
                if byte == 0x5D {
                    run += 1
                } else {
                    if byte == 0x3E && run >= 2 { state = Self.text }
                    run = 0
                }
            case Self.instruction:
                if byte == 0x3E && run == 1 { state = Self.text }
                run = byte == 0x3F ? 1 : 0
            case Self.declaration:
                if byte == 0x22 || byte == 0x27 {
                    quote = byte
                    state = Self.declarationQuote
                } else if byte == 0x5B {
                    depth += 1
                } else if byte == 0x5D {
                    depth = max(0, depth - 1)
                } else if byte == 0x3E && depth == 0 {
                    state = Self.text
                }
            default:  // declarationQuote
                if byte == quote { state = Self.declaration }
            }
            i += 1
        }
        if count > 0 { previous = base[count - 1] }
        offset += count
    }

    /// The next start tag's position, `nil` when none was scanned (input that is not UTF-8).
    mutating func claim() -> (line: Int, column: Int)? {
        guard let packed = ring.pop() else { return nil }
        return (Int(packed >> 32), Int(packed & 0xFFFF_FFFF))
    }
}

/// A first-in first-out queue of words that grows when full (a class, freed with the parser).
private final class RingStorage {
    var words = UnsafeMutablePointer<UInt64>.allocate(capacity: 1024)
    var capacity = 1024
    var start = 0, count = 0

    deinit { words.deallocate() }
}

private struct Ring {
    private let storage = RingStorage()

    @inline(__always) func push(_ word: UInt64) {
        let s = storage
        if s.count == s.capacity {
            let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: s.capacity * 2)
            for i in 0..<s.count { grown[i] = s.words[(s.start + i) & (s.capacity - 1)] }
            s.words.deallocate()
            s.words = grown
            s.capacity *= 2
            s.start = 0
        }
        s.words[(s.start + s.count) & (s.capacity - 1)] = word
        s.count += 1
    }

    @inline(__always) func pop() -> UInt64? {
        let s = storage
        guard s.count > 0 else { return nil }
        let word = s.words[s.start]
        s.start = (s.start + 1) & (s.capacity - 1)
        s.count -= 1
        return word
    }
}
