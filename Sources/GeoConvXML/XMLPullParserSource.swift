extension XMLPullParser {
    /// Where a libxml2 parser's bytes come from: the caller's `read` closure, read ahead in
    /// large blocks, with the prolog screened for entity declarations and start tags'
    /// positions scanned on the way to libxml2.
    final class Source {
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        var failure: (any Error)?
        var libxmlError: XMLParseError?
        /// Bytes of the prolog (before the document's first element) seen so far, and the
        /// tail of the previous chunk, to find "<!ENTITY" before libxml2 acts on it.
        var prologBytes = 0
        var inProlog = true
        var tail: [UInt8] = []
        var line = 1
        /// Where the current line starts, as an offset into the prolog's bytes (for columns).
        var lineStart = 0
        /// Whether every byte of the prolog seen so far is XML whitespace.
        var onlyWhitespace = true
        /// How many bytes come before an XML declaration that does not open the file (0
        /// when it does, or there is none): whitespace there is a common export defect.
        var bytesBeforeDeclaration = 0
        /// Where the first byte that is not whitespace is, and the first five bytes from there.
        private var firstMarkup: (offset: Int, head: [UInt8])?
        /// Start tags' positions, scanned as the bytes go to libxml2.
        var startTags = StartTagPositions()
        /// Whether the byte source has reported its end.
        var reachedEnd = false
        /// Bytes read ahead from `read` in large blocks: libxml2 asks for 4 KB at a time, and a
        /// system call per 4 KB, each into another part of libxml2's buffer, cost more than
        /// parsing them.
        private let staged = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        private var stagedStart = 0, stagedEnd = 0

        init(read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) { self.read = read }

        deinit { staged.deallocate() }

        /// Fills `destination` from the bytes read ahead (reading more when none are left);
        /// 0 at the end.
        func next(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
            if stagedStart == stagedEnd {
                stagedStart = 0
                stagedEnd = try read(staged)
                if stagedEnd <= 0 {
                    stagedEnd = 0
                    return 0
                }
            }
            guard let target = destination.baseAddress, let source = staged.baseAddress else { return 0 }
            let n = min(destination.count, stagedEnd - stagedStart)
            target.copyMemory(from: source + stagedStart, byteCount: n)
            stagedStart += n
            return n
        }

        /// Refuses entity declarations in the prolog, before libxml2 parses the DTD.
        func screen(_ bytes: UnsafeRawBufferPointer) throws(XMLParseError) {
            guard inProlog else { return }
            if onlyWhitespace,
                let end = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
            {
                onlyWhitespace = false
                firstMarkup = (prologBytes + end, [])
            }
            if let (offset, head) = firstMarkup, head.count < 5 {
                // libxml2 asks for 4 bytes first: the markup's first bytes may come in two reads.
                let from = max(0, offset - prologBytes)
                let more = Array(bytes[min(from, bytes.count)...].prefix(5 - head.count))
                firstMarkup = (offset, head + more)
                if offset > 0, head.count + more.count == 5, (head + more).elementsEqual("<?xml".utf8) {
                    bytesBeforeDeclaration = offset
                }
            }
            let window = tail + Array(bytes)
            let marker = Array("<!ENTITY".utf8)
            // The prolog offset of window[0]: the tail is the previous chunk's last bytes.
            let windowStart = prologBytes - tail.count
            var index = 0
            while index < window.count {
                let byte = window[index]
                if byte == 0x0A && index >= tail.count {
                    line += 1
                    lineStart = windowStart + index + 1
                }
                if byte == UInt8(ascii: "<") {
                    if window[index...].starts(with: marker) {
                        throw XMLParseError(
                            message:
                                "the document declares XML entities, which geoconv refuses (they enable XXE and entity-expansion attacks)",
                            line: line, column: windowStart + index - lineStart + 1, isLimit: true)
                    }
                    // The first element that is not a declaration, comment or processing
                    // instruction ends the prolog.
                    if index + 1 < window.count, window[index + 1] != UInt8(ascii: "!"),
                        window[index + 1] != UInt8(ascii: "?")
                    {
                        inProlog = false
                        break
                    }
                }
                index += 1
            }
            prologBytes += bytes.count
            if prologBytes > 1 << 20 { inProlog = false }
            tail = Array(window.suffix(8))
        }
    }
}
