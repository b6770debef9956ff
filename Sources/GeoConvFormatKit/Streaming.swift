public import GeoConvCore
import GeoConvIO

/// Produces a document's header, then its features one at a time, so that a conversion
/// holds one feature in memory, never the whole file.
///
/// These three requirements are all a format must give. A reader that can do more says so
/// by conforming to a refinement, and its format registers it as one (`ReaderMaking`), so
/// that the pipeline reaches it without a cast:
/// - `FeatureRunReader` (`--jobs`): the rest of the features cut into runs of whole
///   features, each read by a reader of its own on another thread;
/// - `MarkerIndexReader` (`geoconv cluster`): where each feature is, without building it.
public protocol FeatureReader {
    /// Reads what comes before the features. Called once, before the first `next()`.
    mutating func readHeader() throws(GeoConvError) -> DocumentHeader
    /// The next feature, or `nil` at the end of the input.
    mutating func next() throws(GeoConvError) -> Feature?
    /// Where the feature last returned by `next()` starts in the input.
    var lastLocation: SourceLocation? { get }
}

/// Consumes a header, then features one at a time, and emits bytes.
///
/// These three requirements are all a format must give. A writer whose records can be
/// written on other threads says so by conforming to `RecordAppendingWriter`, and its format
/// registers it as one (`WriterMaking.records`).
public protocol FeatureWriter {
    /// Writes what comes before the features. Called once, first.
    mutating func begin(_ header: DocumentHeader) throws(GeoConvError)
    /// Writes one feature.
    mutating func write(_ feature: Feature) throws(GeoConvError)
    /// Writes what comes after the features and flushes. Called once, last, on success only.
    mutating func finish() throws(GeoConvError)
}

/// A writer that, writing into nowhere (`ByteWriter(.discard)`: `geoconv info`), tells which
/// features lose what one written before lost, so that they need not be written. Its format
/// registers it as one (`WriterMaking.keyedFeatures`, `.keyedRecords`).
public protocol LossKeyedWriter: FeatureWriter {
    /// A key for what writing `feature`, of shape `shape`, would report: any later feature
    /// with an equal key reports the same codes, and writing it would change nothing any
    /// later report depends on, so it need not be written (its codes are counted again).
    /// `nil`: write it. The key is asked before the feature is written, with the writer's
    /// state as it is then; the writer may note what it learns of the shape.
    mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey?
    /// `times` features of key `key` are not written, as one of the same key was: changes
    /// what writing them would have changed that a later report depends on (a count of what
    /// is reported later), leaving the keys of the next features as they were. Default:
    /// nothing.
    mutating func countAgain(_ key: LossKey, times: Int)
    /// Whether this writer checks more than the writer of the format it writes its features
    /// as (`FormatCapabilities.writesFeaturesAs`: KMZ, the local files its icons name). Into
    /// nowhere, that format's writer writes the features for both, and this one is asked
    /// only for what it adds (`checkBesideTwin`, `finishBesideTwin`). Default: `false`.
    var checksBesideTwin: Bool { get }
    /// Checks `feature` as `write` would beyond what the writer of the format it writes
    /// features as checks, reporting into `diagnostics`. Default: nothing.
    mutating func checkBesideTwin(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError)
    /// Reports what `finish` would beyond what that writer's `finish` reports, into
    /// `diagnostics`. Default: nothing.
    mutating func finishBesideTwin(diagnostics: DiagnosticLog) throws(GeoConvError)
}

extension LossKeyedWriter {
    public mutating func countAgain(_ key: LossKey, times: Int) {}

    public var checksBesideTwin: Bool { false }

    public mutating func checkBesideTwin(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) {}

    public mutating func finishBesideTwin(diagnostics: DiagnosticLog) throws(GeoConvError) {}
}

/// A writer that keys no loss, as a `LossKeyedWriter` whose every feature is written: how
/// `geoconv info` takes a format's writer that is nothing more than a `FeatureWriter`.
package struct UnkeyedWriter: LossKeyedWriter {
    package var base: any FeatureWriter

    package init(_ base: any FeatureWriter) { self.base = base }

    package mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try base.begin(header) }

    package mutating func write(_ feature: Feature) throws(GeoConvError) { try base.write(feature) }

    package mutating func finish() throws(GeoConvError) { try base.finish() }

    package func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? { nil }
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
    mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]?
    /// Whether `transform(inPlace:diagnostics:)` would leave each of `features` as it is, map
    /// it to itself alone and report nothing, so that a caller which keeps the features
    /// (`geoconv info`, writing them for every format) hands them on without copies.
    /// Default: `false`.
    func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool
    /// Whether `leavesUnchanged(_:)` holds of any features whose geometries are all of
    /// `kinds` (or that have none), known from the kinds alone, so that a caller which asks
    /// it of the same features for many writers looks at them once. Default: `false` (then
    /// `leavesUnchanged(_:)` looks at the features).
    func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool
}

extension FeatureTransform {
    public mutating func transform(
        _ header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError)
        -> DocumentHeader
    {
        header
    }

    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool { false }

    public func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool { false }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
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
    public mutating func apply(
        to header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        var header = header
        for index in indices { header = try self[index].transform(header, diagnostics: diagnostics) }
        return header
    }

    /// What the transforms make of one feature, each applied in order to what the previous
    /// produced (a transform may drop a feature or split it into several).
    public mutating func apply(
        to feature: consuming Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature] {
        var batch: [Feature] = []
        try apply(to: feature, diagnostics: diagnostics) { (item: inout Feature) throws(GeoConvError) in
            batch.append(item)
        }
        return batch
    }

    /// Calls `emit` with each feature the transforms make of `feature`, in order, building
    /// no array when every transform maps one feature to one (the per-feature path).
    public mutating func apply(
        to feature: consuming Feature, diagnostics: DiagnosticLog,
        _ emit: (inout Feature) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var feature = feature  // moved, not copied
        try apply(&feature, from: startIndex, diagnostics: diagnostics, emit)
    }

    private mutating func apply(
        _ feature: inout Feature, from start: Int, diagnostics: DiagnosticLog,
        _ emit: (inout Feature) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
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
///
/// What is reported about a feature is placed at `reader.lastLocation`, unless
/// `placesMessages` is `false`: the caller has given `diagnostics` a locator already
/// (`DiagnosticLog.locateCurrent`), which makes a place only when a message needs one.
@discardableResult
public func pump<Reader: FeatureReader, Writer: FeatureWriter>(
    from reader: inout Reader, to writer: inout Writer, transforms: [any FeatureTransform] = [],
    limit: Int? = nil, placesMessages: Bool = true, diagnostics: DiagnosticLog
) throws(GeoConvError) -> PumpStatistics {
    var transforms = transforms
    var statistics = PumpStatistics()
    let limit = limit ?? .max
    try writer.begin(transforms.apply(to: reader.readHeader(), diagnostics: diagnostics))
    while statistics.featuresWritten < limit, let feature = try reader.next() {
        statistics.featuresRead += 1
        if placesMessages { diagnostics.currentLocation = reader.lastLocation }
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
