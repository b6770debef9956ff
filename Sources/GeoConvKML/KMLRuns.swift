import GeoConvCore
import GeoConvIO
internal import GeoConvXML

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Long runs of sibling Placemarks cut out of a KML byte stream, so that other threads parse
/// them while one thread reads the rest of the document (`--jobs`).
///
/// The bytes are lexed as markup (`XMLMarkupLexer`, the grammar the start-tag positions
/// under libxml2 use too) as they stream past. Wherever at least `minimumPlacemarks`
/// Placemarks follow one another as children of the same `kml`, `Document` or `Folder`, up
/// to `runBytes` of them make a run: the document the main parser reads has an empty marker
/// element in its place (padded with the run's line breaks, and to its length modulo
/// libxml2's `parserChunk`, so that every later line, column and chunk stays the same), and
/// the run is parsed on its own, at the same chunk offset, inside a copy of the document's
/// XML declaration and root element, by a reader that starts from the main reader's tables
/// (styles, schemas, folders) as they are at the marker. A document type declaration, a
/// namespace declared below the root, bytes that are not ASCII-compatible, or Placemarks
/// that are mostly text stop the cutting: the rest is read on one thread.
final class KMLSplitter {
    /// One run: its bytes, where they start, and how many Placemarks it holds.
    struct Run: Sendable {
        let index: Int
        let bytes: [UInt8]
        /// Where the run starts in the input, and its line and column there.
        let offset: Int
        let line: Int
        let column: Int
        let placemarks: Int
    }

    /// libxml2's text reader hands its parser the document in pieces of this many bytes.
    static let parserChunk = 512

    static let minimumPlacemarks = 16
    static let runBytes = 256 << 10
    /// Runs are cut where Placemarks hold at least one element per this many bytes: markup,
    /// not long text, is what costs a reader time.
    static let largestBytesPerElement = 128

    private let input: ByteReader
    /// The marker's element name (unlikely in any document: a random suffix).
    let markerName: String
    /// What a run's bytes are put between to make a document of them.
    @exclusivity(unchecked) private(set) var prefix: [UInt8] = []
    @exclusivity(unchecked) private(set) var suffix: [UInt8] = []

    /// Input bytes from absolute offset `base`.
    @exclusivity(unchecked) private var window: [UInt8] = []
    @exclusivity(unchecked) private var base = 0
    @exclusivity(unchecked) private var atEnd = false
    /// Bytes before this absolute offset have been handed to the parser (or replaced by a marker).
    @exclusivity(unchecked) private var emitted = 0
    /// The markup lexed so far, and where the last construct ended. The line and line start
    /// at `counted`: lines are counted in bulk where a run starts and before the window drops
    /// bytes, not construct by construct.
    @exclusivity(unchecked) private var lexer = XMLMarkupLexer(countsLines: false)
    @exclusivity(unchecked) private var lastEnd = 0
    @exclusivity(unchecked) private var counted = 0
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var lineStart = 0
    /// Whether cutting stopped (everything from here on passes through).
    @exclusivity(unchecked) private var disabled = false
    @exclusivity(unchecked) private var sawRoot = false
    @exclusivity(unchecked) private var declaration: [UInt8] = []
    /// Open elements outside the runs' Placemarks: whether each is a container runs may live in.
    @exclusivity(unchecked) private var open: [Bool] = []
    /// How deep the scan is inside a run's Placemark (0: not inside one).
    @exclusivity(unchecked) private var placemarkDepth = 0
    /// The run being gathered: where it starts (offset, line, column), where its last
    /// Placemark ends, how many it holds, and the depth of its Placemarks.
    @exclusivity(unchecked) private var runStart: (offset: Int, line: Int, column: Int)?
    @exclusivity(unchecked) private var runEnd = 0
    @exclusivity(unchecked) private var runCount = 0
    /// Elements inside the run's Placemarks.
    @exclusivity(unchecked) private var runElements = 0
    @exclusivity(unchecked) private var runDepth = 0
    /// Runs cut and not yet replaced in the stream, and runs replaced and not yet taken.
    @exclusivity(unchecked) private var cut: [(start: Int, end: Int, run: Run, marker: [UInt8])] = []
    @exclusivity(unchecked) private var runs: [Int: Run] = [:]
    @exclusivity(unchecked) private var nextIndex = 0
    /// Marker bytes still to hand to the parser.
    @exclusivity(unchecked) private var marker: [UInt8] = []
    @exclusivity(unchecked) private var markerStart = 0

    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)

    deinit { readBuffer.deallocate() }

    init(_ input: ByteReader) {
        self.input = input
        // "g" and 9 random letters and digits: no document's element.
        let token = String(UInt64.random(in: 0..<101_559_956_668_416), radix: 36)  // < 36^9
        markerName = "g" + String(repeating: "0", count: 9 - token.count) + token
    }

    /// The run with this index, once its marker was read (each is taken once).
    func takeRun(_ index: Int) -> Run? { runs.removeValue(forKey: index) }

    /// The runs after `index` that the scan has found, up to `count` of them, scanning on
    /// while fewer are known (their bytes stay in memory until they are read).
    func upcomingRuns(after index: Int, count: Int) throws(GeoConvError) -> [Run] {
        while !atEnd && !disabled && cut.count < count { try scanMore() }
        let known = runs.filter { $0.key > index }.map(\.value) + cut.map(\.run)
        return Array(known.sorted { $0.index < $1.index }.prefix(count))
    }

    // MARK: The stream the main parser reads

    /// Fills `buffer` with the document as the main parser reads it; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(GeoConvError) -> Int {
        guard let target = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            if markerStart < marker.count {
                let n = min(buffer.count, marker.count - markerStart)
                marker.withUnsafeBytes { source in
                    if let start = source.baseAddress { target.copyMemory(from: start + markerStart, byteCount: n) }
                }
                markerStart += n
                return n
            }
            if let first = cut.first, first.start == emitted {
                cut.removeFirst()
                runs[first.run.index] = first.run
                marker = first.marker
                markerStart = 0
                emitted = first.end
                continue
            }
            // Bytes the scan has passed that belong to no run.
            var limit = disabled ? base + window.count : lexer.pendingStart ?? lexer.offset
            if let runStart { limit = min(limit, runStart.offset) }
            if let first = cut.first { limit = min(limit, first.start) }
            if emitted < limit {
                let n = min(buffer.count, limit - emitted)
                window.withUnsafeBytes { source in
                    if let start = source.baseAddress {
                        target.copyMemory(from: start + (emitted - base), byteCount: n)
                    }
                }
                emitted += n
                return n
            }
            if atEnd && emitted >= base + window.count && cut.isEmpty { return 0 }
            try scanMore()
        }
    }

    /// The bytes that stand for `run` in the main parser's document: an empty marker
    /// element, then the run's line breaks and as many spaces as its last line has bytes, so
    /// that every line and column after it stays where it was; spaces after the marker make
    /// the length the run's modulo libxml2's 512-byte chunks, so the parser reads what
    /// follows in the same pieces and reports the same (look-ahead) positions. A run on one
    /// line is replaced by as many bytes (the marker, then spaces); `nil` when it is shorter
    /// than the marker.
    private func markerBytes(for bytes: [UInt8], index: Int) -> [UInt8]? {
        let marker = Array("<\(markerName) n=\"\(index)\"/>".utf8)
        let (newlines, lastLine) = KMLSplitter.lineBreaks(in: bytes)
        guard newlines > 0 else {
            guard marker.count <= bytes.count else { return nil }
            return marker + repeatElement(0x20, count: bytes.count - marker.count)
        }
        let length = marker.count + newlines + lastLine
        let padding = KMLSplitter.chunkPadding(from: length, to: bytes.count)
        return marker + repeatElement(0x20, count: padding) + repeatElement(0x0A, count: newlines)
            + repeatElement(0x20, count: lastLine)
    }

    // MARK: Scanning

    /// Reads more input and scans it.
    private func scanMore() throws(GeoConvError) {
        if !atEnd {
            // Keep what the parser has not read yet, and the run being gathered.
            let keep = min(emitted, runStart?.offset ?? emitted, cut.first?.start ?? emitted)
            if keep - base > window.count / 2 && keep > base {
                countLines(upTo: keep)
                window.removeFirst(keep - base)
                base = keep
            }
            // Into one buffer read again and again (fresh pages for every read cost more than the copy).
            let n = try input.read(into: readBuffer)
            if n == 0 {
                atEnd = true
            } else {
                window.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[..<n]))
            }
        }
        if !disabled { scan() }
        if atEnd {
            // What remains is read on one thread (a run still open is closed first).
            if !disabled { closeRun() }
            disable()
        }
    }

    /// Lexes the window from where the lexer got to, construct by construct.
    private func scan() {
        window.withUnsafeBufferPointer { window in
            guard let p = window.baseAddress else { return }
            if lexer.offset == 0, window.count >= 2, p[0] == 0xFE || p[0] == 0xFF || p[0] == 0 || p[1] == 0 {
                disable()  // UTF-16 and other encodings whose markup is not ASCII bytes
                return
            }
            while !disabled {
                let from = lexer.offset - base
                guard let construct = lexer.next(UnsafeBufferPointer(start: p + from, count: window.count - from))
                else { return }
                // Text among a run's Placemarks ends the run.
                if runStart != nil && placemarkDepth == 0 && open.count == runDepth - 1
                    && !isBlank(p, from: lastEnd - base, to: construct.start - base)
                {
                    closeRun()
                }
                handle(construct, p)
                lastEnd = construct.end
            }
        }
    }

    /// Brings `line` and `lineStart` from `counted` up to the absolute offset `end`.
    private func countLines(upTo end: Int) {
        guard counted < end else { return }
        let (count, last) = window.withUnsafeBufferPointer { window in
            XMLMarkupLexer.lineBreaks(in: UnsafeBufferPointer(rebasing: window[(counted - base)..<(end - base)]))
        }
        line += count
        if let last { lineStart = counted + last + 1 }
        counted = end
    }

    /// Whether window indices `start` to `end` hold only XML whitespace.
    private func isBlank(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = max(start, 0)
        while i < end {
            let byte = p[i]
            if byte != 0x20 && byte != 0x09 && byte != 0x0D && byte != 0x0A { return false }
            i += 1
        }
        return true
    }

    /// Whether the bytes from `start` to `end` spell `word`.
    private func equals(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        end - start == word.utf8CodeUnitCount && memcmp(p + start, word.utf8Start, end - start) == 0
    }

    /// A construct: comments and processing instructions change nothing (but the XML
    /// declaration is kept for the runs' documents); tags open and close elements and runs.
    /// Inside a run's Placemark only the nesting is followed.
    private func handle(_ construct: XMLMarkupLexer.Construct, _ p: UnsafePointer<UInt8>) {
        let start = construct.start - base
        let end = construct.end - base
        // (A switch, not ==: the kind's equality is not inlined across modules.)
        let isEnd: Bool
        let selfClosing: Bool
        switch construct.kind {
        case .startTag:
            (isEnd, selfClosing) = (false, false)
        case .endTag:
            (isEnd, selfClosing) = (true, false)
        case .emptyElementTag:
            (isEnd, selfClosing) = (false, true)
        case .processingInstruction:
            if !sawRoot && declaration.isEmpty && end - start > 5 && equals(p, start, start + 5, "<?xml") {
                declaration = Array(UnsafeBufferPointer(start: p + start, count: end - start))
            }
            return
        case .comment:
            return
        case .cdata:
            // Text in a CDATA section among a run's Placemarks ends the run, like other text.
            if runStart != nil && placemarkDepth == 0 && open.count == runDepth - 1 { closeRun() }
            return
        case .documentType:
            closeRun()
            disable()  // a document type declaration (or not markup): read on one thread
            return
        }
        if placemarkDepth > 0 {
            runElements += 1
            if isEnd {
                placemarkDepth -= 1
                if placemarkDepth == 0 { placemarkEnded(at: base + end) }
            } else if !selfClosing {
                placemarkDepth += 1
            }
            return
        }
        let nameStart = start + (isEnd ? 2 : 1)
        var nameEnd = nameStart
        var localStart = nameStart
        while nameEnd < end {
            let byte = p[nameEnd]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: ">")
            {
                break
            }
            if byte == UInt8(ascii: ":") { localStart = nameEnd + 1 }
            nameEnd += 1
        }
        if isEnd {
            if runStart != nil && open.count <= runDepth - 1 { closeRun() }
            if !open.isEmpty { open.removeLast() }
            return
        }
        if !sawRoot {
            sawRoot = true
            if !selfClosing {
                prefix =
                    declaration + Array(UnsafeBufferPointer(start: p + start, count: end - start))
                    + Array("<\(markerName)>".utf8)
                suffix =
                    Array("</\(markerName)></".utf8)
                    + Array(UnsafeBufferPointer(start: p + nameStart, count: nameEnd - nameStart))
                    + [UInt8(ascii: ">")]
            }
        } else if declaresNamespace(p, from: nameEnd, to: end) {
            // Namespaces declared below the root would be missing from a run's document.
            closeRun()
            disable()
            return
        }
        let parentIsContainer = open.last ?? false
        if parentIsContainer && equals(p, localStart, nameEnd, "Placemark")
            && (runStart == nil || open.count == runDepth - 1)
        {
            if runStart == nil {
                countLines(upTo: construct.start)
                runStart = (construct.start, line, construct.start - lineStart + 1)
                runCount = 0
                runElements = 0
                runDepth = open.count + 1
            }
            if selfClosing { placemarkEnded(at: base + end) } else { placemarkDepth = 1 }
            return
        }
        if runStart != nil && open.count == runDepth - 1 { closeRun() }  // another element among them
        if !selfClosing {
            open.append(
                equals(p, localStart, nameEnd, "kml") || equals(p, localStart, nameEnd, "Document")
                    || equals(p, localStart, nameEnd, "Folder"))
        }
    }

    /// Whether a start tag's attributes (window indices `start` to `end`) declare a namespace.
    private func declaresNamespace(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = start
        while i + 5 <= end {
            if p[i] == UInt8(ascii: "x") && memcmp(p + i, "xmlns", 5) == 0 { return true }
            i += 1
        }
        return false
    }

    private func placemarkEnded(at end: Int) {
        runCount += 1
        runEnd = end
        guard let runStart, end - runStart.offset >= KMLSplitter.runBytes else { return }
        if (end - runStart.offset) > runElements * KMLSplitter.largestBytesPerElement {
            // Placemarks that are mostly text (long coordinate lists) parse fast per byte, and
            // this scan would cost what it saves: the rest of the document is read on one thread.
            disable()
            return
        }
        closeRun()
    }

    /// Stops cutting: from here on (the run being gathered included) bytes pass through.
    private func disable() {
        runStart = nil
        placemarkDepth = 0
        disabled = true
    }

    /// Ends the run being gathered at its last Placemark: cut when it holds enough of them.
    private func closeRun() {
        guard let start = runStart else { return }
        runStart = nil
        guard runCount >= KMLSplitter.minimumPlacemarks, !prefix.isEmpty else { return }
        let bytes = Array(window[(start.offset - base)..<(runEnd - base)])
        guard let marker = markerBytes(for: bytes, index: nextIndex) else { return }
        let run = Run(
            index: nextIndex, bytes: bytes, offset: start.offset, line: start.line, column: start.column,
            placemarks: runCount)
        nextIndex += 1
        cut.append((start.offset, runEnd, run, marker))
    }
}
