import GeoConvCore
internal import GeoConvXML

/// The arithmetic that keeps a run's places the document's: line breaks counted in the
/// bytes a run or its marker stands for, and the padding that keeps libxml2's chunk
/// boundaries where they were.
extension KMLSplitter {
    /// Spaces that take `length` to `target` modulo `parserChunk`.
    static func chunkPadding(from length: Int, to target: Int) -> Int {
        ((target - length) % parserChunk + parserChunk) % parserChunk
    }

    /// How many line breaks `bytes` hold, and how many bytes follow the last one (all of
    /// them when there is none).
    static func lineBreaks(in bytes: [UInt8]) -> (count: Int, lastLine: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            let (count, last) = XMLMarkupLexer.lineBreaks(in: buffer)
            return (count, buffer.count - (last.map { $0 + 1 } ?? 0))
        }
    }

    /// Places in the document a run is read as — `prefix` (the input's declaration and root
    /// element, padded), then the run's bytes — moved to the input's: the one place a KML
    /// run's lines and columns become the document's.
    static func relocation(of run: Run, after prefix: [UInt8]) -> @Sendable (SourceLocation) -> SourceLocation {
        let (prefixLines, prefixLastLine) = lineBreaks(in: prefix)
        let (line, column) = (run.line, run.column)
        return { location in
            guard let at = location.line else { return location }
            var moved = location
            if at == prefixLines + 1 {
                moved.line = line
                moved.column = location.column.map { column + $0 - 1 - prefixLastLine }
            } else if at > prefixLines + 1 {
                moved.line = line + at - 1 - prefixLines
            }
            return moved
        }
    }
}
