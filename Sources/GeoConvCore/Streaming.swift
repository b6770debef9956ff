/// Produces a document's header, then its features one at a time, so that a conversion
/// holds one feature in memory, never the whole file.
public protocol FeatureReader {
    /// Reads what comes before the features. Called once, before the first `next()`.
    mutating func readHeader() throws(GeoConvError) -> DocumentHeader
    /// The next feature, or `nil` at the end of the input.
    mutating func next() throws(GeoConvError) -> Feature?
    /// Where the feature last returned by `next()` starts in the input.
    var lastLocation: SourceLocation? { get }
}

/// Consumes a header, then features one at a time, and emits bytes.
public protocol FeatureWriter {
    /// Writes what comes before the features. Called once, first.
    mutating func begin(_ header: DocumentHeader) throws(GeoConvError)
    /// Writes one feature.
    mutating func write(_ feature: Feature) throws(GeoConvError)
    /// Writes what comes after the features and flushes. Called once, last, on success only.
    mutating func finish() throws(GeoConvError)
}

/// Maps each feature to zero or more features (reprojection, circle → polygon, span
/// explosion, precision…). Lossy transforms report what they change to the log.
public protocol FeatureTransform {
    /// Adjusts the header (a reprojection changes its CRS, for example). Default: unchanged.
    mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader
    /// The features that replace `feature`.
    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature]
}

extension FeatureTransform {
    public mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError)
        -> DocumentHeader
    {
        header
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
    public mutating func apply(to feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var batch = [feature]
        for index in indices {
            var next: [Feature] = []
            next.reserveCapacity(batch.count)
            for item in batch { next += try self[index].transform(item, diagnostics: diagnostics) }
            batch = next
        }
        return batch
    }
}

/// Runs a conversion: header and features from `reader`, through `transforms` in order,
/// into `writer`. Memory stays bounded by the largest feature.
///
/// The writer's `finish()` is called only when everything succeeded; on an error the caller
/// discards the output (the CLI's atomic output file does that).
@discardableResult
public func pump<Reader: FeatureReader, Writer: FeatureWriter>(
    from reader: inout Reader, to writer: inout Writer, transforms: [any FeatureTransform] = [],
    diagnostics: DiagnosticLog
) throws(GeoConvError) -> PumpStatistics {
    var transforms = transforms
    var statistics = PumpStatistics()
    try writer.begin(transforms.apply(to: reader.readHeader(), diagnostics: diagnostics))
    while let feature = try reader.next() {
        statistics.featuresRead += 1
        diagnostics.currentLocation = reader.lastLocation
        for item in try transforms.apply(to: feature, diagnostics: diagnostics) {
            try writer.write(item)
            statistics.featuresWritten += 1
        }
    }
    diagnostics.currentLocation = nil
    try writer.finish()
    return statistics
}
