import Dispatch
import DequeModule
import GeoConvCore
import GeoConvIO
import GeoConvFormatKit

/// `--jobs N`: the decorator around the pipeline. A reader that cuts its features into runs
/// (`FeatureReader.nextFeatureRun`) hands them out here; `jobs` runs at a time are read and
/// transformed on workers — and written there too when the writer's records can be written
/// apart (`FeatureWriter.recordsWriter`, `selectiveRecordsWriter`) — and the results are put
/// into the writer in input order on this thread. Memory stays bounded by `2 × jobs` runs;
/// messages keep their places in the input; the output is byte for byte what `pump` writes.
struct ParallelRuns {
    let jobs: Int
    let inputName: String
    /// The size of the runs to cut: small, so that a run's features (a feature weighs ~10×
    /// its bytes) or its output stay small in memory; flowing through `inPipeline`, small
    /// runs cost no waiting.
    let runSize: Int
    /// Whether a worker's log stops at its first warning (`--strict`).
    let strict: Bool
    /// The transforms, in order (a fresh set for each run).
    let makeTransforms: () -> [any FeatureTransform]

    /// What a worker made of a run.
    struct Outcome<Facts> {
        var batch: FeatureBatch<Facts>
        var read = 0
        var error: GeoConvError?
    }

    /// A run with the batch its features go into.
    struct Prepared<Facts> {
        var run: FeatureRun
        var batch: FeatureBatch<Facts>
    }

    /// Whether `reader`'s features are worth cutting into runs: it can cut them, the input
    /// declares no CRS, and its features are small enough (big features — long lines, many
    /// rings — parse fast per byte, and a byte scan made only to cut them would cost as much
    /// as it saves), unless the reader finds its runs anyway.
    func worthCutting<Reader: FeatureReader>(_ reader: inout Reader, header: DocumentHeader) throws(GeoConvError) -> Bool {
        guard reader.cutsFeatureRuns, header.crs == nil, let sample = try reader.sampleFeatureRun(size: runSize) else { return false }
        return reader.findsRunsWhileReading || sample.bytes <= FeatureRun.largestParallelFeature * max(1, sample.features)
    }

    /// Converts the rest of `reader`'s features, cut into runs, into `writer`: begins it with
    /// `header` (the reader's, read already) as the transforms leave it, and finishes it.
    /// What follows the runs is read by `reader` after them: a feature there is an error.
    func run<Reader: FeatureReader, Writer: FeatureWriter>(
        _ reader: inout Reader, header: DocumentHeader, into writer: inout Writer, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> PumpStatistics {
        var statistics = PumpStatistics()
        var transforms = makeTransforms()
        try writer.begin(transforms.apply(to: header, diagnostics: DiagnosticLog()))
        let size = runSize, strict = strict
        // Pipelined: while the workers convert runs, this thread cuts the next ones and
        // writes the results of the oldest (in order), two runs per worker in flight.
        try inPipeline(jobs: jobs, window: jobs * 2, cut: { () throws(GeoConvError) -> Prepared<Writer.RecordFacts>? in
            guard let run = try reader.nextFeatureRun(size: size) else { return nil }
            // Made here, in order, from the begun writer.
            return Prepared(run: run, batch: try FeatureBatch(for: writer, log: DiagnosticLog(strict: strict)))
        }, process: { process($0) }) { (prepared, outcome) throws(GeoConvError) in
            let run = prepared.run
            diagnostics.absorb(outcome.batch.log, relocating: run.relocate)
            if let error = outcome.error { throw error.relocated(run.relocate) }
            statistics.featuresRead += outcome.read
            try outcome.batch.write(into: &writer, diagnostics: diagnostics) { ordinal in
                run.location(ofFeature: ordinal, inputName: inputName)
            }
            statistics.featuresWritten += outcome.batch.count
        }
        if try reader.next() != nil {
            throw GeoConvError(.invalidInput, "a feature after the runs of features", at: reader.lastLocation)
        }
        try writer.finish()
        return statistics
    }

    private func process<Facts>(_ prepared: Prepared<Facts>) -> Outcome<Facts> {
        let run = prepared.run, log = prepared.batch.log
        var outcome = Outcome(batch: prepared.batch)
        do throws(GeoConvError) {
            var reader = try run.reader(named: inputName, diagnostics: log)
            var transforms = makeTransforms()
            _ = try transforms.apply(to: reader.readHeader(), diagnostics: log)
            let current = run.locatesCurrentFeature(in: log, inputName: inputName)
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
}

/// The runs of a line-delimited input (GeoJSONSeq, WKT, hex WKB, polyline files: no record
/// spans a line, `FormatCapabilities.lineRecords`): chunks of whole lines, each read by the
/// format's reader. A reader only of runs, for `ParallelRuns`: it has no header of its own,
/// and its features are read from its runs.
struct LineRuns: FeatureReader {
    private var chunker: Chunker
    private let makeReader: FeatureRun.MakeReader
    private var cut = false

    /// The runs of `input`, each read by the format's reader that `makeReader` makes with
    /// `options`.
    init(_ input: ByteReader, options: ConversionOptions, makeReader: @escaping FileFormat.MakeReader) throws(GeoConvError) {
        chunker = try Chunker(reader: input)
        self.makeReader = { input, diagnostics throws(GeoConvError) in try makeReader(input, options, diagnostics) }
    }

    func readHeader() throws(GeoConvError) -> DocumentHeader { DocumentHeader() }

    /// Nothing after the runs; asked before them, a refusal (the features are read by runs).
    mutating func next() throws(GeoConvError) -> Feature? {
        guard cut else {
            throw GeoConvError(.unsupported, "a line-delimited input split for --jobs is read by its runs", hint: "read it with its format's reader")
        }
        return nil
    }

    var lastLocation: SourceLocation? { nil }

    var cutsFeatureRuns: Bool { true }

    /// Lines are cut at their ends whatever their size: no sample is taken (`(0, 0)`).
    mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? { (0, 0) }

    mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard var run = try chunker.next(size: size) else {
            cut = true
            return nil
        }
        run.makeReader = makeReader
        return run
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
    /// Where feature `index` of this run (counted from 0) is in the whole input: the run read
    /// again up to it by its reader. For placing a message about a feature parsed elsewhere,
    /// asked only for the first message of a kind; `nil` when it cannot be read.
    func location(ofFeature index: Int, inputName: String) -> SourceLocation? {
        placeInRun(ofFeature: index, inputName: inputName).map(relocate)
    }

    /// Where feature `index` is in this run (the run's own place, before `relocate`).
    private func placeInRun(ofFeature index: Int, inputName: String) -> SourceLocation? {
        guard index >= 0 else { return nil }
        do throws(GeoConvError) {
            var reader = try reader(named: inputName, diagnostics: DiagnosticLog())
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
    func locatesCurrentFeature(in log: DiagnosticLog, inputName: String) -> FeatureCursor {
        let cursor = FeatureCursor()
        log.locateCurrent { [self] in placeInRun(ofFeature: cursor.ordinal, inputName: inputName) }
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
