import Dispatch
import DequeModule
import GeoConvCore

/// `--jobs N` for line-delimited inputs (GeoJSONSeq, WKT, hex WKB, polyline files): the
/// input is cut into chunks of whole records, `N` chunks are parsed, transformed and — for
/// line-delimited outputs — serialised at once, and the results are written in input
/// order. Memory stays bounded by `2 × N` chunks; errors and warnings keep their input
/// line numbers; the output is byte-for-byte what a sequential run writes.
struct ParallelLineConversion {
    let jobs: Int
    let inputName: String
    /// The reader of one chunk's records.
    let makeChunkReader: @Sendable (ByteReader, FeatureRun, DiagnosticLog) throws(GeoConvError) -> any FeatureReader
    let makeWriter: @Sendable (ByteWriter, ConversionOptions, DiagnosticLog) throws(GeoConvError) -> any FeatureWriter
    let readerOptions: ConversionOptions
    let writerOptions: ConversionOptions
    let makeTransforms: () -> [any FeatureTransform]

    /// What a worker made of a chunk.
    struct Outcome {
        var batch: FeatureBatch
        var read = 0
        var error: GeoConvError?
    }

    func run(reader: ByteReader, writer: ByteWriter, diagnostics: DiagnosticLog) throws(GeoConvError) -> PumpStatistics {
        var chunker = try Chunker(reader: reader)
        return try run(header: nil, writer: writer, diagnostics: diagnostics) { (size) throws(GeoConvError) in try chunker.next(size: size) }
    }

    /// The size of the chunks to cut: small, so that a chunk's features (a feature weighs
    /// ~10× its bytes) or its output stay small in memory; flowing through `inPipeline`,
    /// small chunks cost no waiting.
    var chunkSize: Int { max(16, readerOptions.chunkBytes / 4) }

    /// Converts the chunks `nextChunk` cuts (at least the size it is given), `jobs` at a
    /// time, in order. `header` is the document's (for inputs whose records come with one),
    /// before the transforms. When the output's features are records that can be written
    /// apart (`RecordsWriter`), the workers write them too and this thread joins the bytes.
    func run(header sourceHeader: DocumentHeader?, writer: ByteWriter, diagnostics: DiagnosticLog,
             nextChunk: (Int) throws(GeoConvError) -> FeatureRun?) throws(GeoConvError) -> PumpStatistics
    {
        var statistics = PumpStatistics()
        var featureWriter = try makeWriter(writer, writerOptions, diagnostics)
        try featureWriter.begin(header(from: sourceHeader))
        let size = chunkSize
        // Pipelined: while the workers convert chunks, this thread cuts the next ones and
        // writes the results of the oldest (in order), two chunks per worker in flight.
        try inPipeline(jobs: jobs, window: jobs * 2, cut: { () throws(GeoConvError) -> Prepared? in
            guard let chunk = try nextChunk(size) else { return nil }
            // Made here, in order, from the begun writer.
            return Prepared(chunk: chunk, batch: try FeatureBatch(for: featureWriter, log: DiagnosticLog(strict: readerOptions.strict)))
        }, process: { process($0) }) { (prepared, outcome) throws(GeoConvError) in
            let chunk = prepared.chunk
            diagnostics.absorb(outcome.batch.log, relocating: chunk.relocate)
            if let error = outcome.error { throw error.relocated(chunk.relocate) }
            statistics.featuresRead += outcome.read
            try outcome.batch.write(into: &featureWriter, diagnostics: diagnostics) { ordinal in
                locate(ordinal, in: chunk)
            }
            statistics.featuresWritten += outcome.batch.count
        }
        try featureWriter.finish()
        return statistics
    }

    /// The document header as the transforms leave it (line formats have none of their own:
    /// an empty one).
    private func header(from source: DocumentHeader?) throws(GeoConvError) -> DocumentHeader {
        var transforms = makeTransforms()
        return try transforms.apply(to: source ?? DocumentHeader(), diagnostics: DiagnosticLog())
    }

    /// A chunk with the batch its features go into.
    struct Prepared {
        var chunk: FeatureRun
        var batch: FeatureBatch
    }

    /// Where feature `ordinal` of `chunk` is in the input (only for the first message of a
    /// kind about a feature this thread writes).
    private func locate(_ ordinal: Int, in chunk: FeatureRun) -> SourceLocation? {
        chunk.location(ofFeature: ordinal, inputName: inputName, readBy: makeChunkReader)
    }

    private func process(_ prepared: Prepared) -> Outcome {
        let chunk = prepared.chunk, log = prepared.batch.log
        var outcome = Outcome(batch: prepared.batch)
        do throws(GeoConvError) {
            let input = try chunk.input(named: inputName)
            var reader = try makeChunkReader(input, chunk, log)
            var transforms = makeTransforms()
            _ = try transforms.apply(to: reader.readHeader(), diagnostics: log)
            let current = chunk.locatesCurrentFeature(in: log, inputName: inputName, readBy: makeChunkReader)
            while let feature = try reader.next() {
                let ordinal = outcome.read
                outcome.read += 1
                current.ordinal = ordinal
                try transforms.apply(to: feature, diagnostics: log) { (item: inout Feature) throws(GeoConvError) in
                    try outcome.batch.add(item, ordinal: ordinal)
                }
            }
            log.currentLocation = nil
            try outcome.batch.finish()
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// Cuts the input after a newline — or, for RS-delimited GeoJSON text sequences, before
    /// an RS (a JSON text cannot contain a raw RS, but may contain newlines).
    struct Chunker {
        let reader: ByteReader
        let recordSeparated: Bool
        var carry: [UInt8] = []
        var line = 1
        var offset = 0
        var records = 0
        var finished = false

        /// The input's first bytes, handed to every chunk's reader.
        let inputStart: [UInt8]

        init(reader: ByteReader) throws(GeoConvError) {
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

        mutating func next(size: Int) throws(GeoConvError) -> FeatureRun? {
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
                    if n == 0 { finished = true; break }
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

extension FeatureRun {
    /// A reader of a run's features: made by a format for a run of its input.
    typealias RunReaderMaker = (ByteReader, FeatureRun, DiagnosticLog) throws(GeoConvError) -> any FeatureReader

    /// Where feature `index` of this run (counted from 0) is in the whole input: the run read
    /// again up to it by a reader `makeReader` makes. For placing a message about a feature
    /// parsed elsewhere, asked only for the first message of a kind; `nil` when it cannot be read.
    func location(ofFeature index: Int, inputName: String, readBy makeReader: RunReaderMaker) -> SourceLocation? {
        placeInRun(ofFeature: index, inputName: inputName, readBy: makeReader).map(relocate)
    }

    /// Where feature `index` is in this run (the run's own place, before `relocate`).
    private func placeInRun(ofFeature index: Int, inputName: String, readBy makeReader: RunReaderMaker) -> SourceLocation? {
        guard index >= 0 else { return nil }
        do throws(GeoConvError) {
            var reader = try makeReader(try input(named: inputName), self, DiagnosticLog())
            _ = try reader.readHeader()
            for _ in 0...index where try reader.next() == nil { return nil }
            return reader.lastLocation
        } catch {
            return nil
        }
    }

    /// Makes `log` place its messages at the run's feature `ordinal` of the returned cursor
    /// (set it as each feature is read), the run read again up to it only when a message needs
    /// a place — the first of each kind — so that no place is made per feature. The places are
    /// the run's own, as the log's absorption with `relocate` expects.
    func locatesCurrentFeature(in log: DiagnosticLog, inputName: String, readBy makeReader: @escaping RunReaderMaker) -> FeatureCursor {
        let cursor = FeatureCursor()
        log.locateCurrent { [self] in placeInRun(ofFeature: cursor.ordinal, inputName: inputName, readBy: makeReader) }
        return cursor
    }
}

/// Work in a pipeline, the shape of every `--jobs` path: `cut` makes the next item on this
/// thread (`nil` at the end); `process` works on it in the background, at most `jobs` items
/// at once, while more are cut; `consume` takes each item with its outcome, in order, on
/// this thread. Items flow without rounds: a worker that finishes takes the next item at
/// once, and at most `window` items are cut and not yet consumed (bounded memory). A failure
/// to cut is thrown after the items before it are consumed, so that the errors inside them
/// come first, as on one thread; no item is left running behind an error.
func inPipeline<Item, Outcome>(
    jobs: Int, window: Int, cut: () throws(GeoConvError) -> Item?, process: @escaping (Item) -> Outcome,
    consume: (Item, Outcome) throws(GeoConvError) -> Void
) throws(GeoConvError) {
    let workers = DispatchSemaphore(value: max(1, jobs))
    var pending = Deque<(item: Item, task: BackgroundTask<Outcome>)>()
    defer { for entry in pending { _ = entry.task.value() } }
    var cutFailure: GeoConvError?
    var ended = false
    while true {
        while !ended, pending.count < max(1, window) {
            do throws(GeoConvError) {
                guard let item = try cut() else {
                    ended = true
                    break
                }
                let box = UncheckedBox(item)
                pending.append((item, BackgroundTask {
                    workers.wait()
                    defer { workers.signal() }
                    return process(box.value)
                }))
            } catch {
                cutFailure = error
                ended = true
            }
        }
        guard let oldest = pending.popFirst() else { break }
        try consume(oldest.item, oldest.task.value())
    }
    if let cutFailure { throw cutFailure }
}
