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
            let window = tail + Array(bytes)
            let marker = Array("<!ENTITY".utf8)
            var index = 0
            while index < window.count {
                let byte = window[index]
                if byte == 0x0A && index >= tail.count { line += 1 }
                if byte == UInt8(ascii: "<") {
                    if window[index...].starts(with: marker) {
                        throw XMLParseError(message: "the document declares XML entities, which geoconv refuses (they enable XXE and entity-expansion attacks)",
                                            line: line, column: 0, isLimit: true)
                    }
                    // The first element that is not a declaration, comment or processing
                    // instruction ends the prolog.
                    if index + 1 < window.count, window[index + 1] != UInt8(ascii: "!"), window[index + 1] != UInt8(ascii: "?") {
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
