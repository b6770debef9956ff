import DequeModule
import Dispatch
package import GeoConvCore
package import GeoConvFormatKit
package import GeoConvIO

/// The runs of a line-delimited input (GeoJSONSeq, WKT, hex WKB, polyline files: no record
/// spans a line, `FormatCapabilities.lineRecords`): chunks of whole lines, each read by the
/// format's reader. A reader only of runs, for `ParallelRuns`: it has no header of its own,
/// and its features are read from its runs.
package struct LineRuns: FeatureRunReader {
    private var chunker: Chunker
    private let makeReader: FeatureRun.MakeReader
    private var cut = false

    /// The runs of `input`, each read by the format's reader that `makeReader` makes with
    /// `options`.
    package init(
        _ input: ByteReader, options: ConversionOptions,
        makeReader: @escaping FileFormat.MakeReader
    ) throws(GeoConvError) {
        chunker = try Chunker(reader: input)
        self.makeReader = { input, diagnostics throws(GeoConvError) in try makeReader(input, options, diagnostics) }
    }

    package func readHeader() throws(GeoConvError) -> DocumentHeader { DocumentHeader() }

    /// Nothing after the runs; asked before them, a refusal (the features are read by runs).
    package mutating func next() throws(GeoConvError) -> Feature? {
        guard cut else {
            throw GeoConvError(
                .unsupported, "a line-delimited input split for --jobs is read by its runs",
                hint: "read it with its format's reader")
        }
        return nil
    }

    package var lastLocation: SourceLocation? { nil }

    package var cutsFeatureRuns: Bool { true }

    /// Lines are cut at their ends whatever their size: no sample is taken (`(0, 0)`).
    package mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? { (0, 0) }

    package mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard var run = try chunker.next(size: size) else {
            cut = true
            return nil
        }
        run.makeReader = makeReader
        return run
    }

    /// Cuts the input after a newline — or, for RS-delimited GeoJSON text sequences, before
    /// an RS (a JSON text cannot contain a raw RS, but may contain newlines).
    package struct Chunker {
        package let reader: ByteReader
        package let recordSeparated: Bool
        package var carry: [UInt8] = []
        package var line = 1
        package var offset = 0
        package var records = 0
        package var finished = false

        /// The input's first bytes, handed to every chunk's reader.
        package let inputStart: [UInt8]

        package init(reader: ByteReader) throws(GeoConvError) {
            self.reader = reader
            inputStart = try reader.inputStart()
            let start = inputStart.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            recordSeparated = FormatSniffing.firstSignificantByte(inputStart)?.byte == 0x1E
            if start > 0 {
                // The byte order mark belongs to the input, not to its first record: chunk
                // readers (which read from the middle of a file) never see one. Columns count
                // from after it (as editors show them), byte offsets from the file's start.
                let mark = UnsafeMutableRawBufferPointer.allocate(byteCount: start, alignment: 1)
                defer { mark.deallocate() }
                var consumed = 0
                while consumed < start {
                    let n = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: mark[consumed...]))
                    if n == 0 { break }
                    consumed += n
                }
                offset = start
            }
        }

        package mutating func next(size: Int) throws(GeoConvError) -> FeatureRun? {
            if finished && carry.isEmpty { return nil }
            var buffer = carry
            carry = []
            if !finished {
                let start = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: size))
                var filled = start
                var failure: GeoConvError?
                while filled < buffer.count {
                    let n = buffer.withUnsafeMutableBytes { raw -> Int in
                        do throws(GeoConvError) {
                            return try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                        } catch {
                            failure = error
                            return 0
                        }
                    }
                    if let failure { throw failure }
                    if n == 0 {
                        finished = true
                        break
                    }
                    filled += n
                }
                buffer.removeLast(buffer.count - filled)
            }
            if !finished {
                // Cut at the last record boundary; keep the rest for the next chunk.
                let boundary: Int?
                if recordSeparated {
                    boundary = buffer.lastIndex(of: 0x1E).flatMap { $0 > 0 ? $0 : nil }
                } else {
                    boundary = buffer.lastIndex(of: 0x0A).map { $0 + 1 }
                }
                if let boundary {
                    carry = Array(buffer[boundary...])
                    buffer.removeLast(buffer.count - boundary)
                } else {
                    // No boundary in a whole chunk: one long record; read on.
                    carry = buffer
                    return try next(size: size)
                }
            }
            if buffer.isEmpty { return nil }
            var chunk = FeatureRun(bytes: buffer, line: line, byteOffset: offset, recordsBefore: records)
            chunk.inputStart = inputStart
            var blank = true
            for byte in buffer {
                switch byte {
                case 0x0A:
                    line += 1
                    if !recordSeparated && !blank { records += 1 }
                    blank = true
                case 0x1E:
                    if recordSeparated { records += 1 }
                case 0x20, 0x09, 0x0D: break
                default: blank = false
                }
            }
            if !recordSeparated && !blank { records += 1 }  // the input's last line, without a newline
            offset += buffer.count
            return chunk
        }
    }
}
