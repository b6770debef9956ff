/// Where each start tag begins (line, and column in bytes), found by lexing the bytes as
/// they are handed to libxml2 (`XMLMarkupLexer`). libxml2 keeps a node's line but no column,
/// and its parser's own position is where its read-ahead has got to; start tags come out of
/// the reader in document order, so the n-th start event is the n-th start tag lexed here.
/// Memory: the positions lexed and not yet claimed (the read-ahead's worth).
struct StartTagPositions {
    private var lexer = XMLMarkupLexer()
    /// Positions lexed and not yet claimed: a ring of line << 32 | column, grown when full.
    private var ring = Ring()
    /// Elements open after the bytes lexed.
    private var nesting = 0
    /// The nesting beyond which an element is too deep (the parser's limit), and where the
    /// first such element's start tag begins: libxml2 reports its depth error where its
    /// read-ahead has got to, which depends on how the input arrived.
    var maximumDepth = Int.max
    private(set) var firstTooDeep: (line: Int, column: Int)?

    /// Lexes bytes about to be parsed.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let start = lexer.offset
        while true {
            let done = lexer.offset - start
            guard let construct = lexer.next(UnsafeBufferPointer(start: base + done, count: bytes.count - done)) else {
                return
            }
            switch construct.kind {
            case .startTag, .emptyElementTag:
                ring.push(
                    UInt64(truncatingIfNeeded: construct.line) << 32 | UInt64(truncatingIfNeeded: construct.column))
                if nesting + 1 > maximumDepth, firstTooDeep == nil { firstTooDeep = (construct.line, construct.column) }
                if construct.kind == .startTag { nesting += 1 }
            case .endTag:
                nesting -= 1
            default:
                break
            }
        }
    }

    /// The next start tag's position, `nil` when none was lexed (input that is not UTF-8).
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
