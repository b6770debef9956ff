public import GeoConvCore
public import GeoConvIO

/// Produces a document's header, then its features one at a time, so that a conversion
/// holds one feature in memory, never the whole file.
///
/// Three requirements are all a format must give. The others are what the pipeline may ask
/// beyond them, each with a default that declines, so that a reader declares a capability
/// by implementing it (see `FeatureRuns.swift` and `MarkerIndex.swift`):
/// - **runs** (`--jobs`): the rest of the features cut into runs of whole features, each
///   read by a reader of its own on another thread (`cutsFeatureRuns`, `nextFeatureRun`);
/// - **a marker index** (`geoconv cluster`): where each feature is, without building it
///   (`indexesMarkers`, `nextMarker`).
public protocol FeatureReader {
    /// Reads what comes before the features. Called once, before the first `next()`.
    mutating func readHeader() throws(GeoConvError) -> DocumentHeader
    /// The next feature, or `nil` at the end of the input.
    mutating func next() throws(GeoConvError) -> Feature?
    /// Where the feature last returned by `next()` starts in the input.
    var lastLocation: SourceLocation? { get }
    /// Makes `diagnostics` place what is reported next (about the feature `next()` returned
    /// last) at that feature. Default: `diagnostics.currentLocation = lastLocation`; a
    /// reader whose places are costly to make and seldom asked for installs a locator that
    /// makes one only when a message needs it (`DiagnosticLog.locateCurrent`).
    mutating func placeMessages(in diagnostics: DiagnosticLog)

    /// Runs: whether `nextFeatureRun` can cut runs now (the header is read and features are
    /// ahead). Default `false`.
    var cutsFeatureRuns: Bool { get }
    /// Runs: the size and count of the features the next `nextFeatureRun(size:)` would cut,
    /// without taking them. Default `nil`.
    mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)?
    /// Runs: the next run of at least `size` bytes of whole features (fewer at the end), with
    /// the reader of its features; `nil` when none is left, after which `next()` reads what
    /// follows them. Default `nil`.
    mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun?
    /// Runs: whether finding them costs nothing beyond reading on one thread (a KML reader's
    /// splitter scans the document whether or not its runs are handed out), so that runs of
    /// big features are worth taking too. Default `false`: a scan made only to cut them costs
    /// as much as big features' parsing saves.
    var findsRunsWhileReading: Bool { get }

    /// Marker index: whether `nextMarker()` can list the features now. Default `false`.
    var indexesMarkers: Bool { get }
    /// Marker index: the next feature's entry, or `nil` after the last (the rest of the input
    /// is then read and checked as `next()` would). Default `nil`.
    mutating func nextMarker() throws(GeoConvError) -> MarkerEntry?
    /// Marker index: the readers of the features `nextMarker()` listed, from their bytes.
    /// Default `nil`.
    var markerReaders: MarkerReaders? { get }
}

/// Consumes a header, then features one at a time, and emits bytes.
///
/// Three requirements are all a format must give. The others are what `--jobs` may ask
/// beyond them, each with a default that declines (see `FeatureRuns.swift`): a writer of
/// records alone (`recordsWriter`), whose bytes written on other threads are appended here
/// in order (`appendRecords`), or a selective one that writes the features whose records
/// stand alone and tells this writer, in its own `RecordFacts`, what it learns from them.
public protocol FeatureWriter {
    /// Writes what comes before the features. Called once, first.
    mutating func begin(_ header: DocumentHeader) throws(GeoConvError)
    /// Writes one feature.
    mutating func write(_ feature: Feature) throws(GeoConvError)
    /// Writes what comes after the features and flushes. Called once, last, on success only.
    mutating func finish() throws(GeoConvError)

    /// What a selective records writer's records teach this writer, in its format's terms.
    associatedtype RecordFacts = Void
    /// Records: a writer of features as records alone into `output` (nothing before or after
    /// them), as this writer, begun, would write them after at least one other; `nil` when a
    /// record depends on what this writer has seen. Default `nil`.
    func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)?
    /// Records: adds `count` records that a records writer wrote, in order after those
    /// written so far. Default: refused (only writers with a records writer are asked).
    mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError)
    /// Records, when `recordsWriter` is `nil`: a writer, made on this writer's thread from its
    /// state, of the features whose records stand alone, which leaves the others to this
    /// writer. Default `nil`.
    func selectiveRecordsWriter() -> (any SelectiveRecordsWriter<RecordFacts>)?
    /// Records: adds the records a selective records writer wrote, in order after what this
    /// writer wrote so far, learning what they tell it; `locate(i)` places what it reports
    /// about the run's record `i` (counted from 0). Default: `appendRecords(_:count:)`.
    mutating func appendRecords(_ records: WrittenRecords<RecordFacts>, locating locate: (Int) -> Void) throws(GeoConvError)
}

/// Maps each feature to zero or more features (reprojection, circle → polygon, span
/// explosion, precision…). Lossy transforms report what they change to the log.
public protocol FeatureTransform {
    /// Adjusts the header (a reprojection changes its CRS, for example). Default: unchanged.
    mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader
    /// The features that replace `feature`.
    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature]
    /// The per-feature fast path: changes `feature` in place and returns `nil` when it maps to
    /// exactly one feature (no array is built), or returns its replacements (none to drop
    /// it). The default calls `transform(_:diagnostics:)`; transforms that run on every
    /// conversion implement it.
    mutating func transform(inPlace feature: inout Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature]?
    /// Whether `transform(inPlace:diagnostics:)` would leave each of `features` as it is, map
    /// it to itself alone and report nothing, so that a caller which keeps the features
    /// (`geoconv info`, writing them for every format) hands them on without copies.
    /// Default: `false`.
    func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool
}

extension FeatureReader {
    public mutating func placeMessages(in diagnostics: DiagnosticLog) { diagnostics.currentLocation = lastLocation }
}

extension FeatureTransform {
    public mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError)
        -> DocumentHeader
    {
        header
    }

    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool { false }

    public mutating func transform(inPlace feature: inout Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature]? {
        let result = try transform(feature, diagnostics: diagnostics)
        guard result.count == 1 else { return result }
        feature = result[0]
        return nil
    }
}

/// Counts from one `pump`.
public struct PumpStatistics: Hashable, Sendable {
    /// Features the reader produced.
    public var featuresRead = 0
    /// Features handed to the writer.
    public var featuresWritten = 0

    /// Creates zeroed counts.
    public init() {}
}

extension Array where Element == any FeatureTransform {
    /// The header as the transforms leave it, each applied in order.
    public mutating func apply(to header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader {
        var header = header
        for index in indices { header = try self[index].transform(header, diagnostics: diagnostics) }
        return header
    }

    /// What the transforms make of one feature, each applied in order to what the previous
    /// produced (a transform may drop a feature or split it into several).
    public mutating func apply(to feature: consuming Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var batch: [Feature] = []
        try apply(to: feature, diagnostics: diagnostics) { (item: inout Feature) throws(GeoConvError) in batch.append(item) }
        return batch
    }

    /// Calls `emit` with each feature the transforms make of `feature`, in order, building
    /// no array when every transform maps one feature to one (the per-feature path).
    public mutating func apply(to feature: consuming Feature, diagnostics: DiagnosticLog,
                               _ emit: (inout Feature) throws(GeoConvError) -> Void) throws(GeoConvError)
    {
        var feature = feature  // moved, not copied
        try apply(&feature, from: startIndex, diagnostics: diagnostics, emit)
    }

    private mutating func apply(_ feature: inout Feature, from start: Int, diagnostics: DiagnosticLog,
                                _ emit: (inout Feature) throws(GeoConvError) -> Void) throws(GeoConvError)
    {
        var index = start
        while index < endIndex {
            if let replacements = try self[index].transform(inPlace: &feature, diagnostics: diagnostics) {
                for var item in replacements { try apply(&item, from: index + 1, diagnostics: diagnostics, emit) }
                return
            }
            index += 1
        }
        try emit(&feature)
    }
}

/// Runs a conversion: header and features from `reader`, through `transforms` in order,
/// into `writer`, stopping once `limit` features are written (`--limit`: the rest of the
/// input is not read). Memory stays bounded by the largest feature.
///
/// The writer's `finish()` is called only when everything succeeded; on an error the caller
/// discards the output (the CLI's atomic output file does that).
@discardableResult
public func pump<Reader: FeatureReader, Writer: FeatureWriter>(
    from reader: inout Reader, to writer: inout Writer, transforms: [any FeatureTransform] = [],
    limit: Int? = nil, diagnostics: DiagnosticLog
) throws(GeoConvError) -> PumpStatistics {
    var transforms = transforms
    var statistics = PumpStatistics()
    let limit = limit ?? .max
    try writer.begin(transforms.apply(to: reader.readHeader(), diagnostics: diagnostics))
    while statistics.featuresWritten < limit, let feature = try reader.next() {
        statistics.featuresRead += 1
        reader.placeMessages(in: diagnostics)
        try transforms.apply(to: feature, diagnostics: diagnostics) { (item: inout Feature) throws(GeoConvError) in
            guard statistics.featuresWritten < limit else { return }
            try writer.write(item)
            statistics.featuresWritten += 1
        }
    }
    diagnostics.currentLocation = nil
    try writer.finish()
    return statistics
}
