public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
import GeoConvRows

/// The options the FlatGeobuf writer takes (`ConversionOptions.formatOptions`).
public enum FlatGeobufOptions {
    /// Whether to write the packed Hilbert R-tree (GDAL's `SPATIAL_INDEX`); on by default.
    public static let spatialIndex = FormatOption<Bool>(
        name: "fgb-index", key: "SPATIAL_INDEX", sides: .write,
        help: "Write the packed Hilbert R-tree, the features in its order (default YES; NO keeps the input's "
            + "order and writes no index).")
}

/// Writes FlatGeobuf (version 3): the magic bytes, the header (layer name and description,
/// geometry type, columns, feature count, CRS), the packed Hilbert R-tree, then the features.
///
/// The header comes first but is known only once every feature is seen (the columns and
/// their types, the count), and the index needs every feature's box: each feature is made
/// into a spooled row (`SpooledRows`, as GeoParquet's) in a temporary file, with its box's
/// centre; `finish` sorts the rows along the Hilbert curve with bounded memory
/// (`HilbertSortedRows`) and writes the header, the tree and the features in that order.
/// Memory holds a sort run (2 MB of rows), the merge's blocks and buffers, not the features.
///
/// - Columns: booleans `Bool`, integers `Long` (`ULong` beyond Int64), numbers `Double`,
///   text `String`, arrays and objects alone `Json`; a column of several kinds is `String`
///   (reported). The title and snippet are `name` and `description` columns when no
///   property carries them; the id an `id` column.
/// - Geometry: one type in the header when every feature has it, else Unknown and each
///   feature's own; altitudes for all when any has them (0 where a position has none,
///   reported). An empty geometry is written as none (reported), as GDAL writes it.
/// - Styles and foreign members have no place (reported).
public struct FlatGeobufWriter: LossKeyedWriter {
    private let state: FlatGeobufWriting

    /// Creates a writer into `output`; `spatialIndex` writes the packed Hilbert R-tree.
    public init(_ output: ByteWriter, spatialIndex: Bool = true, diagnostics: DiagnosticLog) throws(GeoConvError) {
        state = try FlatGeobufWriting(output: output, spatialIndex: spatialIndex, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try state.begin(header) }

    public mutating func write(_ feature: Feature) throws(GeoConvError) { try state.write(feature) }

    /// Into nowhere, the key of what a row loses (`FlatGeobufWriting.lossKey(of:shape:)`).
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        state.lossKey(of: feature, shape: shape)
    }

    /// Counts geometries without altitudes not written (`FlatGeobufWriting.countAgain(_:times:)`).
    public mutating func countAgain(_ key: LossKey, times: Int) { state.countAgain(key, times: times) }

    public mutating func finish() throws(GeoConvError) {
        var writing = FlatGeobufFileWriting(state)
        try writing.write()
    }
}

/// The writer's state: the header, the rows made so far (their columns) in a temporary file,
/// and each row's place for the sort.
final class FlatGeobufWriting {
    let output: ByteWriter
    let diagnostics: DiagnosticLog
    let spatialIndex: Bool
    var header = DocumentHeader()
    var crs: String?
    @exclusivity(unchecked) var rows = SpooledRows(reporting: FlatGeobufReports.self)
    /// The rows, framed (`varint(length)` then the row); `nil` when the output is discarded.
    let rowFile: ScratchFile?
    /// Per row, for the sort: its box's centre (two doubles), where it starts and its length.
    let keys: Spool
    /// Whether a geometry with altitudes was met: the file then gives every position one.
    private var metAltitudes = false
    /// Where the geometries without altitudes met before the first with them are (the first
    /// 4096 when the log lists every warning, else the first; beyond, how many more): each is
    /// reported once it is known the file has altitudes.
    private var flatBeforeAltitudes: [SourceLocation?] = []
    private var moreFlatBeforeAltitudes = 0
    @exclusivity(unchecked) private var framed: [UInt8] = []
    @exclusivity(unchecked) private var key: [UInt8] = []

    init(output: ByteWriter, spatialIndex: Bool, diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.output = output
        self.spatialIndex = spatialIndex
        self.diagnostics = diagnostics
        rows.makesRows = !output.discards
        rowFile = output.discards ? nil : try ScratchFile()
        keys = Spool(threshold: 512 << 10, discards: output.discards)
    }

    func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: "FlatGeobuf", diagnostics: diagnostics)
        crs = WGS84Names.contains(header.crs) ? nil : header.crs
        self.header = try header.droppingParts(unheldBy: .flatGeobuf, diagnostics: diagnostics)
    }

    /// Reports a geometry without altitudes in a file that has them (those met before the
    /// first with altitudes once it is met), as a conversion to FlatGeobuf writes it at 0.
    private func noteAltitudes(of geometry: Geometry) throws(GeoConvError) {
        if geometry.hasAltitude {
            guard !metAltitudes else { return }
            metAltitudes = true
            // (Each at its own place, given: setting the log's place would fix it for what follows.)
            for place in flatBeforeAltitudes { try FlatGeobufReports.missingZAsZero(diagnostics, at: place) }
            for _ in 0..<moreFlatBeforeAltitudes {
                try FlatGeobufReports.missingZAsZero(diagnostics, at: flatBeforeAltitudes.first ?? nil)
            }
            flatBeforeAltitudes = []
        } else if metAltitudes {
            try FlatGeobufReports.missingZAsZero(diagnostics, at: nil)
        } else if flatBeforeAltitudes.isEmpty || (diagnostics.listsEveryWarning && flatBeforeAltitudes.count < 4096) {
            // (Each place only for a log that lists every warning: a place can cost a read of the
            // input again, as in `geoconv info`, and a log that keeps the first shows the first.)
            flatBeforeAltitudes.append(diagnostics.currentLocation)
        } else {
            moreFlatBeforeAltitudes += 1
        }
    }

    /// Into nowhere, a row's losses follow from its shape and its columns' state
    /// (`SpooledRows.lossKey(shape:changes:state:)`), and a geometry's from whether altitudes were
    /// met: before, a geometry without them is counted, to be reported once they are
    /// (`countAgain(_:times:)` counts it for a feature not written). Collections (whose empty
    /// members are dropped) are written.
    func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard !rows.makesRows, !diagnostics.listsEveryWarning else { return nil }
        var state: UInt64 = metAltitudes ? 1 : 0
        switch feature.geometry {
        case .geometryCollection?: return nil
        case let geometry? where !metAltitudes && !geometry.isEmpty && !shape.facts.contains(.hasAltitude):
            state |= flatBeforeAltitudes.isEmpty ? 2 : 4
        default: break
        }
        return SpooledRows.lossKey(shape: shape, changes: rows.changes, state: state)
    }

    /// A feature of key `key` not written: a geometry without altitudes before any with
    /// them is counted, as `noteAltitudes(of:)` counts it after the first.
    func countAgain(_ key: LossKey, times: Int) {
        if key.state & 4 != 0 { moreFlatBeforeAltitudes += times }
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "FlatGeobuf", at: diagnostics.currentLocation)
        framed.removeAll(keepingCapacity: true)
        if let geometry = feature.geometry, let kept = FlatGeobufEncoding.withoutEmptyMembers(geometry) {
            try diagnostics.warn(
                FlatGeobufCode.emptyMemberDropped,
                "a GeometryCollection's empty members are not written: GDAL cannot read a FlatGeobuf member "
                    + "without coordinates", hint: "drop the empty members before converting, or write GeoJSON")
            var copy = feature
            copy.geometry = kept
            return try write(copy)
        }
        if let geometry = feature.geometry, geometry.isEmpty {
            diagnostics.note(
                FlatGeobufCode.emptyAsNull,
                "an empty geometry is written as none: FlatGeobuf has no empty geometries (GDAL 3.6 leaves such "
                    + "features out)")
            var copy = feature
            copy.geometry = nil
            try rows.append(copy, to: &framed, diagnostics: diagnostics)
        } else {
            try rows.append(feature, to: &framed, diagnostics: diagnostics)
            if let geometry = feature.geometry { try noteAltitudes(of: geometry) }
        }
        for slot in rows.firstValues { rows.columns[slot].firstLocation = diagnostics.currentLocation }
        for slot in rows.firstWideIntegers { rows.columns[slot].firstWideInteger = diagnostics.currentLocation }
        guard let rowFile else { return }
        let offset = try rowFile.append(framed)
        key.removeAll(keepingCapacity: true)
        var center = (Double.nan, Double.nan)
        if let box = SpooledRow.box(ofFramedRow: framed) { center = ((box.0 + box.2) / 2, (box.1 + box.3) / 2) }
        withUnsafeBytes(
            of: (
                center.0.bitPattern.littleEndian, center.1.bitPattern.littleEndian, UInt64(offset).littleEndian,
                UInt32(framed.count).littleEndian
            )
        ) { key.append(contentsOf: $0.prefix(28)) }
        try keys.append(key)
    }
}
