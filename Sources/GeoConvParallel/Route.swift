package import GeoConvCore
package import GeoConvFormatKit

/// How a conversion's features flow from its reader to its writer: the one `pump`, alone or
/// with a decorator. `Converter.convert` plans (formats, options, transforms), makes the
/// route from the reader its format made (as a `FeatureRunReader` when it is one, which
/// only the parallel routes need), and runs it; every route writes the same bytes and
/// messages.
package struct Route {
    private enum Plan {
        /// `pump` on this thread (`--jobs 1`).
        case oneThread
        /// `pump` over `ReadingAhead`: the reader parses on its own thread while this one
        /// transforms and writes (`--jobs N` when the features are not cut into runs).
        case readingAhead(header: DocumentHeader)
        /// `pump` over `ParallelReading`: runs the reader finds as it reads (a KML document's
        /// runs of Placemarks) are parsed on the workers, and transformed and written here
        /// (when the transforms must run on one thread: a reprojection).
        case readingRuns(header: DocumentHeader)
        /// `ParallelRuns`: the reader cuts its features into runs, read, transformed and —
        /// where the writer allows — written on `jobs` workers, put into the writer here in
        /// order.
        case runs(header: DocumentHeader)
    }

    private enum Source {
        case features(any FeatureReader)
        case runs(any FeatureRunReader)
    }

    private let plan: Plan
    private var source: Source

    /// The route for a reader of features alone with `jobs` threads (with two or more, its
    /// header is read here, on this thread, as `pump` would).
    package init(features reader: any FeatureReader, jobs: Int) throws(GeoConvError) {
        var reader = reader
        plan = jobs >= 2 ? .readingAhead(header: try reader.readHeader()) : .oneThread
        source = .features(reader)
    }

    /// The route for a reader that cuts runs, with `jobs` threads. With two or more, the
    /// header is read here and the reader asked whether its features are worth cutting into
    /// runs (`cutsRuns`: the conversion allows it), else whether it finds runs as it reads.
    package init(
        runs reader: any FeatureRunReader, jobs: Int, cutsRuns: Bool, runs: ParallelRuns
    )
        throws(GeoConvError)
    {
        var reader = reader
        if jobs < 2 {
            plan = .oneThread
        } else {
            let header = try reader.readHeader()
            if cutsRuns, try runs.worthCutting(&reader, header: header) {
                plan = .runs(header: header)
            } else if try ParallelReading.isWorthTaking(&reader, runSize: runs.runSize) {
                plan = .readingRuns(header: header)
            } else {
                plan = .readingAhead(header: header)
            }
        }
        source = .runs(reader)
    }

    /// Whether the workers read and write runs (the writer then reports into the reading
    /// log: this thread puts what they made into it in input order).
    package var runsInParallel: Bool {
        if case .runs = plan { return true }
        return false
    }

    /// Converts the reader's features into `writer` (the format's writer as
    /// `WriterMaking.records` makes it) along this route. The reader's messages
    /// are in `readLog`, the transforms' and writer's in `writeLog` (with runs, in `readLog`
    /// too, in order). At most `limit` features are written (`--limit`, which plans the route
    /// `oneThread`).
    package consuming func run(
        into writer: inout any RecordAppendingWriter, runs: ParallelRuns, transforms: [any FeatureTransform],
        limit: Int?, readLog: DiagnosticLog, writeLog: DiagnosticLog
    )
        throws(GeoConvError) -> PumpStatistics
    {
        switch source {
        case .features(var reader):
            return try run(
                &reader, &writer, runs: runs, transforms: transforms, limit: limit, readLog: readLog,
                writeLog: writeLog)
        case .runs(var reader):
            switch plan {
            case .readingRuns(let header):
                var parallel = ParallelReading(
                    reader, header: header, jobs: runs.jobs, runSize: runs.runSize,
                    inputName: runs.inputName, diagnostics: readLog)
                return try pump(from: &parallel, to: &writer, transforms: transforms, diagnostics: writeLog)
            case .runs(let header):
                return try runs.run(&reader, header: header, into: &writer, diagnostics: readLog)
            case .oneThread, .readingAhead:
                return try run(
                    &reader, &writer, runs: runs, transforms: transforms, limit: limit, readLog: readLog,
                    writeLog: writeLog)
            }
        }
    }

    /// The routes any reader takes: `pump` alone, or over `ReadingAhead`.
    private func run<Reader: FeatureReader, Writer: FeatureWriter>(
        _ reader: inout Reader, _ writer: inout Writer, runs: ParallelRuns, transforms: [any FeatureTransform],
        limit: Int?, readLog: DiagnosticLog, writeLog: DiagnosticLog
    ) throws(GeoConvError) -> PumpStatistics {
        if case .readingAhead(let header) = plan {
            var ahead = ReadingAhead(reader, header: header)
            return try pump(from: &ahead, to: &writer, transforms: transforms, diagnostics: writeLog)
        }
        return try pump(from: &reader, to: &writer, transforms: transforms, limit: limit, diagnostics: writeLog)
    }
}
