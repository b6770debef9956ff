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
    static func relocation(of run: Run, after prefix: [UInt8]) -> KMLRunPlaces {
        let (prefixLines, prefixLastLine) = lineBreaks(in: prefix)
        return KMLRunPlaces(
            prefixLines: prefixLines, prefixLastLine: prefixLastLine, line: run.line, column: run.column)
    }
}

/// How a place in the document a run is read as moves to the input: the lines of the prefix
/// before the run, the length of its last line, and where the run starts in the input.
/// (Arithmetic on the line and column only: a run's reader places every element it may
/// report, and nothing else is made per place.)
struct KMLRunPlaces: Sendable {
    let prefixLines: Int
    let prefixLastLine: Int
    let line: Int
    let column: Int

    /// `line` and `column` (`nil`: unknown) of the run's document, in the input.
    func move(line at: Int, column: Int?) -> (line: Int, column: Int?) {
        if at == prefixLines + 1 { return (line, column.map { self.column + $0 - 1 - prefixLastLine }) }
        if at > prefixLines + 1 { return (line + at - 1 - prefixLines, column) }
        return (at, column)
    }
}
