public import GeoConvBytes

#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// XML markup, lexed as its bytes stream past in pieces of any size: where each construct
/// (start tag, empty-element tag, end tag, comment, CDATA section, processing instruction,
/// document type declaration) begins and ends, and the line and column of its `<`.
///
/// This is the one grammar of markup boundaries in geoconv. The KML run splitter, the
/// start-tag positions kept beside libxml2 and the fast tokenizer (`XMLByteTokenizer`) all lex
/// with it, so they cannot disagree about where a tag ends. Lexing follows XML 1.0:
/// - quoted attribute values are stepped over, so a `>` inside one does not end its tag;
/// - a comment ends at the first `-->` after `<!--`;
/// - a CDATA section ends at the first `]]>` after `<![CDATA[`;
/// - a processing instruction ends at the first `?>` after `<?`;
/// - a document type declaration ends at the `>` outside quotes and outside its `[…]` internal subset.
///
/// The lexer does not check well-formedness; the parser reading the same bytes does that.
/// Malformed markup gets the same treatment as in libxml2's recovery-free reading: lexing
/// goes on to the next `>`.
///
/// Memory: a few words. The caller keeps the bytes of a construct it still needs;
/// `pendingStart` says where the unfinished one begins.
///
/// Public and `@inlinable` only so that `next` is inlined into the KML splitter's loop in
/// another module (a `package` function is not): it is not part of `import GeoConv`.
public struct XMLMarkupLexer {
    /// What a construct is.
    public enum Kind: UInt8, Sendable {
        case startTag, emptyElementTag, endTag, comment, cdata, processingInstruction, documentType
    }

    /// One construct: its kind, where it starts (its `<`) and ends (just after its `>`) as
    /// offsets from the first byte lexed, and its `<`'s line and column (in bytes, from 1).
    public struct Construct: Sendable {
        /// What it is.
        public let kind: Kind
        /// The offset of its `<`.
        public let start: Int
        /// The offset just after its `>`.
        public let end: Int
        /// Its `<`'s line (0 when lines are not counted).
        public let line: Int
        /// Its `<`'s column in bytes, from 1 (0 when lines are not counted).
        public let column: Int

        @usableFromInline
        init(kind: Kind, start: Int, end: Int, line: Int, column: Int) {
            (self.kind, self.start, self.end, self.line, self.column) = (kind, start, end, line, column)
        }
    }

    @usableFromInline enum State: UInt8 {
        case text, afterLessThan, tag, quoted, bang, comment, cdata, instruction, documentType, documentTypeQuoted
    }

    @usableFromInline static let cdataPrefix: [UInt8] = Array("[CDATA[".utf8)

    @usableFromInline var state = State.text
    /// The tag being lexed is an end tag.
    @usableFromInline var isEndTag = false
    /// The quote that opened a quoted value. How much of "--" or "[CDATA[" a `<!` has shown.
    /// Dashes, brackets or a `?` just before the current byte, for the endings "-->", "]]>" and "?>".
    /// The `[` depth in a document type declaration.
    @usableFromInline var quote: UInt8 = 0, matched = 0, run = 0, depth = 0
    @usableFromInline var isComment = false
    /// The last byte lexed. A `>` that comes first in a piece needs it: "/>" ends an empty element.
    @usableFromInline var previous: UInt8 = 0
    /// The offset of the next byte to lex, and the line there. `lineStart` is the offset of that line's first byte.
    @usableFromInline var offsetStorage = 0
    /// The offset of the next byte to lex.
    public var offset: Int { offsetStorage }
    @usableFromInline var line = 1, lineStart = 0
    /// The construct being lexed: where its `<` is, and its line and column.
    @usableFromInline var constructStart = 0, constructLine = 0, constructColumn = 0

    /// Whether lines are counted (`Construct.line` and `column` are 0 when not): a caller
    /// that needs few positions counts them itself, in bulk, where it needs them.
    @usableFromInline let countsLines: Bool

    public init(countsLines: Bool = true) {
        self.countsLines = countsLines
    }

    /// Where the construct being lexed begins. `nil` between constructs.
    public var pendingStart: Int? { state == .text ? nil : constructStart }

    /// Lexes `bytes`, which are the input from `offset` on. Returns the first construct that ends
    /// within them; `offset` then points just past that construct. Returns `nil` when no construct
    /// ends within them; all of `bytes` is then lexed.
    @inlinable @inline(__always)
    public mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) -> Construct? {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let count = bytes.count
        var i = 0
        // Lines are counted in bulk, from `counted` up to where a position is needed and where lexing stops.
        var counted = 0
        while i < count {
            switch state {
            case .text:
                guard let lessThan = XMLMarkupLexer.first(0x3C, in: p, from: i, to: count) else {
                    i = count
                    continue
                }
                constructStart = offset + lessThan
                if countsLines {
                    countLines(p, from: &counted, to: lessThan)
                    constructLine = line
                    constructColumn = offset + lessThan - lineStart + 1
                }
                i = lessThan + 1
                if i < count {
                    i = enterMarkup(p[i], at: i)
                } else {
                    state = .afterLessThan
                }
            case .afterLessThan:
                i = enterMarkup(p[i], at: i)
            case .tag:
                guard let found = XMLMarkupLexer.firstOfThree(0x3E, 0x22, 0x27, in: p, from: i, to: count) else {
                    i = count
                    continue
                }
                let byte = p[found]
                if byte == 0x3E {
                    let before = found > 0 ? p[found - 1] : previous
                    return finish(
                        p, at: found + 1, counted: &counted,
                        kind: isEndTag ? .endTag : before == 0x2F ? .emptyElementTag : .startTag)
                }
                quote = byte
                state = .quoted
                i = found + 1
            case .quoted:
                guard let close = XMLMarkupLexer.first(quote, in: p, from: i, to: count) else {
                    i = count
                    continue
                }
                state = .tag
                i = close + 1
            case .bang:
                let byte = p[i]
                if matched < 2 && byte == 0x2D && (matched == 0 || isComment) {  // "--"
                    isComment = true
                    matched += 1
                    if matched == 2 {
                        state = .comment
                        run = 0
                    }
                } else if !isComment && matched < 7 && byte == XMLMarkupLexer.cdataPrefix[matched] {
                    matched += 1
                    if matched == 7 {
                        state = .cdata
                        run = 0
                    }
                } else if byte == 0x3E {
                    // "<!>" and the like: not markup libxml2 accepts
                    return finish(p, at: i + 1, counted: &counted, kind: .documentType)
                } else {
                    depth = byte == 0x5B ? 1 : 0
                    state = byte == 0x22 || byte == 0x27 ? .documentTypeQuoted : .documentType
                    quote = byte
                }
                i += 1
            case .comment, .cdata, .instruction:
                if let end = endOfSection(p, from: &i, count: count) {
                    return finish(p, at: end, counted: &counted, kind: kindOfSection)
                }
            case .documentType:
                let byte = p[i]
                if byte == 0x22 || byte == 0x27 {
                    quote = byte
                    state = .documentTypeQuoted
                } else if byte == 0x5B {
                    depth += 1
                } else if byte == 0x5D {
                    depth = max(0, depth - 1)
                } else if byte == 0x3E && depth == 0 {
                    return finish(p, at: i + 1, counted: &counted, kind: .documentType)
                }
                i += 1
            case .documentTypeQuoted:
                if p[i] == quote { state = .documentType }
                i += 1
            }
        }
        if countsLines { countLines(p, from: &counted, to: count) }
        previous = p[count - 1]
        offsetStorage += count
        return nil
    }

    /// Ends the construct at index `end` of the bytes being lexed.
    @inlinable @inline(__always)
    mutating func finish(_ p: UnsafePointer<UInt8>, at end: Int, counted: inout Int, kind: Kind) -> Construct {
        if countsLines { countLines(p, from: &counted, to: end) }
        previous = p[end - 1]
        offsetStorage += end
        state = .text
        return Construct(kind: kind, start: constructStart, end: offset, line: constructLine, column: constructColumn)
    }

    /// Brings `line` and `lineStart` from index `counted` up to index `end` of the bytes being lexed.
    @inlinable @inline(__always)
    mutating func countLines(_ p: UnsafePointer<UInt8>, from counted: inout Int, to end: Int) {
        guard counted < end else { return }
        let (breaks, last) = XMLMarkupLexer.lineBreaks(
            in: UnsafeBufferPointer(start: p + counted, count: end - counted))
        line += breaks
        if let last { lineStart = offset + counted + last + 1 }
        counted = end
    }

    /// The state after `<` for the byte that follows it, at index `i`; returns where lexing goes on.
    @inlinable @inline(__always)
    mutating func enterMarkup(_ byte: UInt8, at i: Int) -> Int {
        switch byte {
        case 0x2F:  // "</"
            isEndTag = true
            state = .tag
            return i + 1
        case 0x21:  // "<!"
            matched = 0
            isComment = false
            state = .bang
            return i + 1
        case 0x3F:  // "<?"
            run = 0
            state = .instruction
            return i + 1
        default:  // the tag's name (or whatever stands there) is lexed as the tag
            isEndTag = false
            state = .tag
            return i
        }
    }

    @inlinable var kindOfSection: Kind {
        switch state {
        case .comment: .comment
        case .cdata: .cdata
        default: .processingInstruction
        }
    }

    /// In a comment, CDATA section or processing instruction, the index just after the `>` that
    /// ends it, if `bytes` hold it; else `i` is moved to the end.
    /// Words that hold neither the closing character (`-`, `]`, `?`) nor `>` are skipped eight bytes at a time.
    @inlinable
    mutating func endOfSection(_ p: UnsafePointer<UInt8>, from i: inout Int, count: Int) -> Int? {
        let closing: UInt8 = state == .comment ? 0x2D : state == .cdata ? 0x5D : 0x3F
        let needed = state == .instruction ? 1 : 2
        while i < count {
            while i + 8 <= count {
                let word = ByteWords.load(p + i)
                if ByteWords.hits(word, closing) | ByteWords.hits(word, 0x3E) != 0 { break }
                run = 0
                i += 8
            }
            guard i < count else { break }
            let byte = p[i]
            i += 1
            if byte == closing {
                run += 1
            } else {
                // "-->" and "]]>" need two closing characters or more before the '>'; "?>" needs exactly the one before it.
                if byte == 0x3E && (needed == 2 ? run >= 2 : run >= 1) { return i }
                run = 0
            }
        }
        return nil
    }

    /// The index of the first `byte` in `p[from..<to]`, if any.
    @inlinable @inline(__always)
    static func first(_ byte: UInt8, in p: UnsafePointer<UInt8>, from: Int, to count: Int) -> Int? {
        var i = from
        while i + 8 <= count {
            let found = ByteWords.hits(ByteWords.load(p + i), byte)
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < count {
            if p[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// The index of the first of three bytes in `p[from..<to]`, if any.
    @inlinable @inline(__always)
    static func firstOfThree(
        _ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafePointer<UInt8>, from: Int, to count: Int
    ) -> Int? {
        var i = from
        while i + 8 <= count {
            let word = ByteWords.load(p + i)
            let found = ByteWords.hits(word, a) | ByteWords.hits(word, b) | ByteWords.hits(word, c)
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < count {
            let byte = p[i]
            if byte == a || byte == b || byte == c { return i }
            i += 1
        }
        return nil
    }

    /// How many line breaks `bytes` hold, and the index of the last one (`memchr` from break
    /// to break: vectorised, and lines in KML are dozens of bytes or more).
    @inlinable
    public static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, last: Int?) {
        guard let start = bytes.baseAddress else { return (0, nil) }
        var count = 0
        var last: Int?
        var from = 0
        while from < bytes.count, let hit = memchr(start + from, 0x0A, bytes.count - from) {
            count += 1
            let index = start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            last = index
            from = index + 1
        }
        return (count, last)
    }
}
