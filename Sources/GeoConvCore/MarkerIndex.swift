/// One feature of an input as a marker index sees it: its position when it is a Point, and
/// where its bytes are, so that it can be read again when it is needed (a marker that
/// stays alone in a cluster) instead of being held in memory.
package struct MarkerEntry: Sendable {
    /// The position, when the feature is a Point.
    package var position: Coordinate?
    /// The feature's bytes in the input.
    package var bytes: Range<Int>
    /// The JSON text of the feature's id, when it has one.
    package var id: Range<Int>?
    /// The JSON text of its `id` property, when it has one.
    package var idProperty: Range<Int>?

    /// Creates an entry.
    package init(position: Coordinate? = nil, bytes: Range<Int>, id: Range<Int>? = nil, idProperty: Range<Int>? = nil) {
        self.position = position
        self.bytes = bytes
        self.id = id
        self.idProperty = idProperty
    }
}

/// A reader that can list where its features are without building them — a position for
/// each Point and the bytes of each feature — and read one feature again from its bytes:
/// what `geoconv cluster` asks of a reader, so that a million markers take a few bytes
/// each, not a `Feature` each.
package protocol MarkerIndexReader: FeatureReader {
    /// Whether `nextMarker()` can list the features now (the header is read).
    var indexesMarkers: Bool { get }
    /// The next feature's entry, or `nil` after the last (the rest of the input is then read
    /// and checked as `next()` would).
    mutating func nextMarker() throws(GeoConvError) -> MarkerEntry?
    /// Makes a reader of one feature's bytes as `nextMarker()` listed them.
    var markerReader: @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader { get }
    /// Makes a reader of several features' bytes as `nextMarker()` listed them, each
    /// preceded by RS (0x1E) and followed by a newline, giving one feature per record: one
    /// reader for a batch of markers instead of one each. Its features are those
    /// `markerReader` reads from each alone.
    var markerSequenceReader: @Sendable (ByteReader, DiagnosticLog) -> any FeatureReader { get }
}
