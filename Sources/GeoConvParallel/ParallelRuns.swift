import DequeModule
import Dispatch
package import GeoConvCore
package import GeoConvFormatKit
import GeoConvIO

/// `--jobs N`: the decorator around the pipeline. A reader that cuts its features into runs
/// (`FeatureRunReader.nextFeatureRun`) hands them out here; `jobs` runs at a time are read and
/// transformed on workers — and written there too when the writer's records can be written
/// apart (`RecordAppendingWriter.recordsWriter`, `selectiveRecordsWriter`) — and the results are put
/// into the writer in input order on this thread. Memory stays bounded by `2 × jobs` runs;
/// messages keep their places in the input; the output is byte for byte what `pump` writes.
package struct ParallelRuns {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(
        jobs: Int, inputName: String, runSize: Int, strict: Bool,
        makeTransforms: @escaping () -> [any FeatureTransform]
    ) {
        self.jobs = jobs
        self.inputName = inputName
        self.runSize = runSize
        self.strict = strict
        self.makeTransforms = makeTransforms
    }

    package let jobs: Int
    package let inputName: String
    /// The size of the runs to cut: small, so that a run's features (a feature weighs ~10×
    /// its bytes) or its output stay small in memory; flowing through `inPipeline`, small
    /// runs cost no waiting.
    package let runSize: Int
    /// Whether a worker's log stops at its first warning (`--strict`).
    package let strict: Bool
    /// The transforms, in order (a fresh set for each run).
    package let makeTransforms: () -> [any FeatureTransform]

    /// What a worker made of a run.
    package struct Outcome<Facts> {
        package var batch: FeatureBatch<Facts>
        package var read = 0
        package var error: GeoConvError?
    }

    /// A run with the batch its features go into.
    package struct Prepared<Facts> {
        package var run: FeatureRun
        package var batch: FeatureBatch<Facts>
    }

    /// Whether `reader`'s features are worth cutting into runs: it can cut them, the input
    /// declares no CRS, and its features are small enough (big features — long lines, many
    /// rings — parse fast per byte, and a byte scan made only to cut them would cost as much
    /// as it saves), unless the reader finds its runs anyway.
    package func worthCutting<Reader: FeatureRunReader>(
        _ reader: inout Reader,
        header: DocumentHeader
    ) throws(GeoConvError) -> Bool {
        guard reader.cutsFeatureRuns, header.crs == nil,
            let sample = try reader.sampleFeatureRun(size: runSize)
        else { return false }
        return reader.findsRunsWhileReading
            || sample.bytes <= FeatureRun.largestParallelFeature
                * max(
                    1,
                    sample.features)
    }

    /// Converts the rest of `reader`'s features, cut into runs, into `writer`: begins it with
    /// `header` (the reader's, read already) as the transforms leave it, and finishes it.
    /// What follows the runs is read by `reader` after them: a feature there is an error.
    package func run<Reader: FeatureRunReader, Writer: RecordAppendingWriter>(
        _ reader: inout Reader, header: DocumentHeader, into writer: inout Writer, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> PumpStatistics {
        var statistics = PumpStatistics()
        var transforms = makeTransforms()
        try writer.begin(transforms.apply(to: header, diagnostics: diagnostics))
        let size = runSize
        let strict = strict
        // (A run's records buffer, written, is the next ones'.)
        let spares = SpareBuffers()
        // Pipelined: while the workers convert runs, this thread cuts the next ones and
        // writes the results of the oldest (in order), two runs per worker in flight.
        try inPipeline(
            jobs: jobs, window: jobs * 2,
            cut: { () throws(GeoConvError) -> Prepared<Writer.RecordFacts>? in
                guard let run = try reader.nextFeatureRun(size: size) else { return nil }
                // Made here, in order, from the begun writer.
                return Prepared(
                    run: run, batch: try FeatureBatch(for: writer, log: DiagnosticLog(strict: strict), spares: spares))
            }, process: { process($0) }
        ) { (prepared, outcome) throws(GeoConvError) in
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

    /// A worker's part: the one `pump`, from the run's reader into a writer that fills the
    /// batch (`BatchWriter`); this thread puts the batch into the real writer in order.
    private func process<Facts>(_ prepared: Prepared<Facts>) -> Outcome<Facts> {
        let run = prepared.run
        let log = prepared.batch.log
        var outcome = Outcome(batch: prepared.batch)
        do throws(GeoConvError) {
            let cursor = run.locatesCurrentFeature(in: log, inputName: inputName)
            var reader = CountingReader(try run.reader(named: inputName, diagnostics: log), cursor: cursor)
            var writer = BatchWriter(batch: prepared.batch, cursor: cursor)
            outcome.read = try pump(
                from: &reader, to: &writer, transforms: makeTransforms(),
                placesMessages: false, diagnostics: log
            ).featuresRead
        } catch {
            outcome.error = error
        }
        return outcome
    }
}

/// A run's reader that counts the features it hands out (`cursor.ordinal`: the last one's,
/// from 0), so that what a batch keeps knows which feature of its run it was made from, and
/// so that the run's log places a message at one only when it needs a place (the run read
/// again up to it: `FeatureRun.locatesCurrentFeature`), not a place made per feature: the
/// worker's `pump` is told not to place them (`placesMessages: false`).
package struct CountingReader: FeatureReader {
    private var base: any FeatureReader
    /// The ordinal of the feature read last (-1 before the first).
    package let cursor: FeatureCursor

    package init(_ base: any FeatureReader, cursor: FeatureCursor) {
        self.base = base
        self.cursor = cursor
    }

    /// The run reader's header without the document's own parts (name, view, tile layers,
    /// members, files): this thread read them with the document and the transforms reported
    /// what the writer drops of them once, there; a run must not report them again.
    package mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        var header = try base.readHeader()
        header.name = nil
        header.description = nil
        header.camera = nil
        header.tileLayers = []
        header.foreignMembers = [:]
        header.embeddedFiles = nil
        return header
    }

    package mutating func next() throws(GeoConvError) -> Feature? {
        guard let feature = try base.next() else { return nil }
        cursor.ordinal += 1
        return feature
    }

    package var lastLocation: SourceLocation? { base.lastLocation }
}

/// The worker's end of `--jobs`: a writer into a `FeatureBatch` (records written there, or
/// features kept), each feature added with the ordinal `cursor` gives, of the run's feature
/// it was made from. The real writer has begun with the header already; finishing ends the
/// batch's records on the worker's thread.
package struct BatchWriter<Facts>: FeatureWriter {
    package let batch: FeatureBatch<Facts>
    package let cursor: FeatureCursor

    package func begin(_ header: DocumentHeader) throws(GeoConvError) {}

    package func write(_ feature: Feature) throws(GeoConvError) {
        try batch.add(feature, ordinal: cursor.ordinal)
    }

    package func finish() throws(GeoConvError) { try batch.finish() }
}
