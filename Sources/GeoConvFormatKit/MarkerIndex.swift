public import GeoConvCore
public import GeoConvIO

/// One feature of an input as a marker index sees it: its position when it is a Point, and
/// where its bytes are, so that it can be read again when it is needed (a marker that
/// stays alone in a cluster) instead of being held in memory.
public struct MarkerEntry: Sendable {
    /// The position, when the feature is a Point.
    public var position: Coordinate?
    /// The feature's bytes in the input.
    public var bytes: Range<Int>
    /// The JSON text of the feature's id, when it has one.
    public var id: Range<Int>?
    /// The JSON text of its `id` property, when it has one.
    public var idProperty: Range<Int>?

    /// Creates an entry.
    public init(position: Coordinate? = nil, bytes: Range<Int>, id: Range<Int>? = nil, idProperty: Range<Int>? = nil) {
        self.position = position
        self.bytes = bytes
        self.id = id
        self.idProperty = idProperty
    }
}

/// The readers of features a marker index listed (`MarkerIndexReader.nextMarker()`), from
/// their bytes: what `geoconv cluster` asks of a reader besides the index, so that a million
/// markers take a few bytes each, not a `Feature` each, and a marker is read again only
/// when it stays alone in a cluster.
public struct MarkerReaders: Sendable {
    /// Makes a reader of one feature's bytes as `nextMarker()` listed them.
    public var one: @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader
    /// Makes a reader of several features' bytes as `nextMarker()` listed them, each
    /// preceded by RS (0x1E) and followed by a newline, giving one feature per record: one
    /// reader for a batch of markers instead of one each. Its features are those `one`
    /// reads from each alone.
    public var sequence: @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader

    /// Describes the readers.
    public init(
        one: @escaping @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader,
        sequence: @escaping @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader
    ) {
        self.one = one
        self.sequence = sequence
    }
}

/// A reader that lists where each feature is without building it: what `geoconv cluster`
/// asks of a reader beyond runs (it indexes the runs on every core). Its format registers it
/// with `ReaderMaking.markers`.
public protocol MarkerIndexReader: FeatureRunReader {
    /// Whether `nextMarker()` can list the features now.
    var indexesMarkers: Bool { get }
    /// The next feature's entry, or `nil` after the last (the rest of the input is then read
    /// and checked as `next()` would).
    mutating func nextMarker() throws(GeoConvError) -> MarkerEntry?
    /// The readers of the features `nextMarker()` listed, from their bytes.
    var markerReaders: MarkerReaders? { get }
}
