package import GeoConvCore
package import GeoConvFormatKit

/// How a conversion's features flow from its reader to its writer: the one `pump`, alone or
/// with a decorator. `Converter.convert` plans (formats, options, transforms), picks the
/// route here, and runs it; every route writes the same bytes and messages.
package enum Route {
    /// `pump` on this thread (`--jobs 1`).
    case oneThread
    /// `pump` over `ReadingAhead`: the reader parses on its own thread while this one
    /// transforms and writes (`--jobs N` when the features are not cut into runs).
    case readingAhead(header: DocumentHeader)
    /// `pump` over `ParallelReading`: runs the reader found as it read (a KML document's runs
    /// of Placemarks) are parsed on the workers, and transformed and written here (when the
    /// transforms must run on one thread: a reprojection).
    case readingRuns(header: DocumentHeader)
    /// `ParallelRuns`: the reader cuts its features into runs, read, transformed and — where
    /// the writer allows — written on `jobs` workers, put into the writer here in order.
    case runs(header: DocumentHeader)

    /// The route for `reader` with `jobs` threads. With two or more, the header is read here
    /// (on this thread, as `pump` would), and the reader asked whether its features are worth
    /// cutting into runs (`cutsRuns`: the conversion allows it).
    package init(for reader: inout any FeatureReader, jobs: Int, cutsRuns: Bool,
        runs: ParallelRuns) throws(GeoConvError) {
        guard jobs >= 2 else {
            self = .oneThread
            return
        }
        let header = try reader.readHeader()
        if cutsRuns, try runs.worthCutting(&reader, header: header) {
            self = .runs(header: header)
        } else if reader.cutsFeatureRuns, reader.findsRunsWhileReading,
                  try reader.sampleFeatureRun(size: runs.runSize) != nil {
            self = .readingRuns(header: header)
        } else {
            self = .readingAhead(header: header)
        }
    }

    /// Whether the workers read and write runs (the writer then reports into the reading
    /// log: this thread puts what they made into it in input order).
    package var runsInParallel: Bool {
        if case .runs = self { return true }
        return false
    }

    /// Converts `reader`'s features into `writer` along this route. The reader's messages
    /// are in `readLog`, the transforms' and writer's in `writeLog` (with runs, in `readLog`
    /// too, in order).
    /// At most `limit` features are written (`--limit`, which plans the route `oneThread`).
    package func run(_ reader: inout any FeatureReader, into writer: inout any FeatureWriter, runs: ParallelRuns,
             transforms: [any FeatureTransform], limit: Int?, readLog: DiagnosticLog, writeLog: DiagnosticLog)
        throws(GeoConvError) -> PumpStatistics
    {
        try run(&reader, &writer, runs: runs, transforms: transforms, limit: limit, readLog: readLog, writeLog: writeLog)
    }

    private func run<Reader: FeatureReader, Writer: FeatureWriter>(
        _ reader: inout Reader, _ writer: inout Writer, runs: ParallelRuns, transforms: [any FeatureTransform],
        limit: Int?, readLog: DiagnosticLog, writeLog: DiagnosticLog
    ) throws(GeoConvError) -> PumpStatistics {
        switch self {
        case .oneThread:
            return try pump(from: &reader, to: &writer, transforms: transforms, limit: limit, diagnostics: writeLog)
        case .readingRuns(let header):
            var parallel = ParallelReading(reader, header: header, jobs: runs.jobs, runSize: runs.runSize,
                                           inputName: runs.inputName, diagnostics: readLog)
            return try pump(from: &parallel, to: &writer, transforms: transforms, diagnostics: writeLog)
        case .readingAhead(let header):
            var ahead = ReadingAhead(reader, header: header)
            return try pump(from: &ahead, to: &writer, transforms: transforms, diagnostics: writeLog)
        case .runs(let header):
            return try runs.run(&reader, header: header, into: &writer, diagnostics: readLog)
        }
    }
}
