internal import GeoConvBytes

/// XML markup, lexed as its bytes stream past in pieces of any size: where each construct
/// (start tag, empty-element tag, end tag, comment, CDATA section, processing instruction,
/// document type declaration) begins and ends, and the line and column of its `<`.
///
/// This is the one grammar of markup boundaries in geoconv. The start-tag positions kept
/// beside libxml2 and the KML run splitter both lex with it, so they cannot disagree about
/// where a tag ends. Lexing follows XML 1.0:
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
package struct XMLMarkupLexer {
    /// What a construct is.
    package enum Kind: UInt8, Sendable {
        case startTag, emptyElementTag, endTag, comment, cdata, processingInstruction, documentType
    }

    /// One construct: its kind, where it starts (its `<`) and ends (just after its `>`) as
    /// offsets from the first byte lexed, and its `<`'s line and column (in bytes, from 1).
    package struct Construct: Sendable {
        package let kind: Kind
        package let start: Int
        package let end: Int
        package let line: Int
        package let column: Int
    }

    private enum State: UInt8 {
        case text, afterLessThan, tag, quoted, bang, comment, cdata, instruction, documentType, documentTypeQuoted
    }

    private static let cdataPrefix: [UInt8] = Array("[CDATA[".utf8)

    private var state = State.text
    /// The tag being lexed is an end tag.
    private var isEndTag = false
    /// The quote that opened a quoted value. How much of "--" or "[CDATA[" a `<!` has shown.
    /// Dashes, brackets or a `?` just before the current byte, for the endings "-->", "]]>" and "?>".
    /// The `[` depth in a document type declaration.
    private var quote: UInt8 = 0, matched = 0, run = 0, depth = 0
    private var isComment = false
    /// The last byte lexed. A `>` that comes first in a piece needs it: "/>" ends an empty element.
    private var previous: UInt8 = 0
    /// The offset of the next byte to lex, and the line there. `lineStart` is the offset of that line's first byte.
    package private(set) var offset = 0
    private var line = 1, lineStart = 0
    /// The construct being lexed: where its `<` is, and its line and column.
    private var constructStart = 0, constructLine = 1, constructColumn = 1

    package init() {}

    /// Where the construct being lexed begins. `nil` between constructs.
    package var pendingStart: Int? { state == .text ? nil : constructStart }

    /// Lexes `bytes`, which are the input from `offset` on. Returns the first construct that ends
    /// within them; `offset` then points just past that construct. Returns `nil` when no construct
    /// ends within them; all of `bytes` is then lexed.
    package mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) -> Construct? {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let count = bytes.count
        var i = 0
        /// Lines are counted in bulk, up to where a position is needed and where lexing stops.
        var counted = 0
        func countLines(upTo end: Int) {
            guard counted < end else { return }
            let (breaks, last) = XMLMarkupLexer.lineBreaks(in: UnsafeBufferPointer(start: p + counted, count: end - counted))
            line += breaks
            if let last { lineStart = offset + counted + last + 1 }
            counted = end
        }
        func finish(at end: Int, kind: Kind) -> Construct {
            countLines(upTo: end)
            previous = p[end - 1]
            offset += end
            state = .text
            return Construct(kind: kind, start: constructStart, end: offset, line: constructLine, column: constructColumn)
        }
        while i < count {
            switch state {
            case .text:
                guard let lessThan = XMLMarkupLexer.first(0x3C, in: p, from: i, to: count) else {
                    i = count
                    continue
                }
                countLines(upTo: lessThan)
                constructStart = offset + lessThan
                constructLine = line
                constructColumn = offset + lessThan - lineStart + 1
                state = .afterLessThan
                i = lessThan + 1
            case .afterLessThan:
                switch p[i] {
                case 0x2F:  // "</"
                    isEndTag = true
                    state = .tag
                    i += 1
                case 0x21:  // "<!"
                    matched = 0
                    isComment = false
                    state = .bang
                    i += 1
                case 0x3F:  // "<?"
                    run = 0
                    state = .instruction
                    i += 1
                default:  // the tag's name (or whatever stands there) is lexed as the tag
                    isEndTag = false
                    state = .tag
                }
            case .tag:
                guard let found = XMLMarkupLexer.firstOfThree(0x3E, 0x22, 0x27, in: p, from: i, to: count) else {
                    i = count
                    continue
                }
                let byte = p[found]
                if byte == 0x3E {
                    let before = found > 0 ? p[found - 1] : previous
                    return finish(at: found + 1, kind: isEndTag ? .endTag : before == 0x2F ? .emptyElementTag : .startTag)
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
                    return finish(at: i + 1, kind: .documentType)  // "<!>" and the like: not markup libxml2 accepts
                } else {
                    depth = byte == 0x5B ? 1 : 0
                    state = byte == 0x22 || byte == 0x27 ? .documentTypeQuoted : .documentType
                    quote = byte
                }
                i += 1
            case .comment, .cdata, .instruction:
                if let end = endOfSection(p, from: &i, count: count) { return finish(at: end, kind: kindOfSection) }
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
                    return finish(at: i + 1, kind: .documentType)
                }
                i += 1
            case .documentTypeQuoted:
                if p[i] == quote { state = .documentType }
                i += 1
            }
        }
        countLines(upTo: count)
        previous = p[count - 1]
        offset += count
        return nil
    }

    private var kindOfSection: Kind {
        switch state {
        case .comment: .comment
        case .cdata: .cdata
        default: .processingInstruction
        }
    }

    /// In a comment, CDATA section or processing instruction, the index just after the `>` that
    /// ends it, if `bytes` hold it; else `i` is moved to the end.
    /// Words that hold neither the closing character (`-`, `]`, `?`) nor `>` are skipped eight bytes at a time.
    private mutating func endOfSection(_ p: UnsafePointer<UInt8>, from i: inout Int, count: Int) -> Int? {
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
    @inline(__always)
    private static func first(_ byte: UInt8, in p: UnsafePointer<UInt8>, from: Int, to count: Int) -> Int? {
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
    @inline(__always)
    private static func firstOfThree(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafePointer<UInt8>, from: Int, to count: Int) -> Int? {
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

    /// How many line breaks `bytes` hold, and the index of the last one.
    package static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, last: Int?) {
        guard let p = bytes.baseAddress else { return (0, nil) }
        let count = bytes.count
        var breaks = 0, last: Int?, i = 0
        while i + 8 <= count {
            let mask = ByteWords.exactHits(ByteWords.load(p + i), 0x0A)
            if mask != 0 {
                breaks += mask.nonzeroBitCount
                last = i + (63 - mask.leadingZeroBitCount) / 8
            }
            i += 8
        }
        while i < count {
            if p[i] == 0x0A {
                breaks += 1
                last = i
            }
            i += 1
        }
        return (breaks, last)
    }
}
