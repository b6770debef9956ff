#if GeoPackage
public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
import GeoConvRows

/// Writes a GeoPackage 1.3 (SQLite): one feature table, its geometry column `geom` with an
/// R-tree index and the triggers that keep it, `gpkg_contents` with the table's bounds, the
/// CRS in `gpkg_spatial_ref_sys` as PROJ defines it.
///
/// A table's columns and their types come before its rows, and are known only once every
/// feature is seen: each feature is made into a spooled row (`SpooledRows`, as GeoParquet's
/// and FlatGeobuf's) in a temporary file, and `finish` builds the database from them, a
/// transaction per 65,536 rows, in a temporary folder beside the output, then copies it into
/// the output. Memory holds buffers and SQLite's cache, not the features.
///
/// - The table is named by `--co TABLE=name`, else after the output file (`roads.gpkg`:
///   `roads`), else `features`; the document's name and description are its identifier and
///   description in `gpkg_contents`.
/// - Columns: booleans `BOOLEAN`, integers `INTEGER`, numbers `REAL`, text `TEXT` (`DATE`
///   when every value is `2024-05-17`, `DATETIME` when every one is a UTC date-time), arrays
///   and objects alone `TEXT` of JSON, marked `application/json` in `gpkg_data_columns` as
///   GDAL marks them; a column of several kinds is `TEXT` (reported).
/// - Ids: when every feature's id is a positive integer, each greater than the one before,
///   each is its row's `fid` (the key GDAL and QGIS give as the feature id, in whose order
///   rows are read); otherwise they are an `id` column (a note).
/// - Geometry: ISO WKB after the GeoPackage header (with an envelope but for points);
///   the column's type is the features' one kind (`GEOMETRY` for several), `z` 1 when every
///   geometry has altitudes, 2 when some have. An empty geometry is kept, flagged empty.
/// - Styles: an `OGR_STYLE` column of GDAL's style strings (`GeoPackageStyle`), which GDAL
///   gives as the feature's style and geoconv reads back; what a style string cannot hold
///   (spans, opacity, anchors…) is reported.
public struct GeoPackageWriter: LossKeyedWriter {
    private let state: GeoPackageWriting

    /// Creates a writer into `output`; `table` names the feature table.
    public init(_ output: ByteWriter, table: String? = nil, diagnostics: DiagnosticLog) throws(GeoConvError) {
        state = try GeoPackageWriting(output: output, table: table, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try state.begin(header) }

    public mutating func write(_ feature: Feature) throws(GeoConvError) { try state.write(feature) }

    /// Into nowhere, a row's losses follow from its shape and its columns' state
    /// (`SpooledRows.lossKey(shape:changes:state:)`), once the ids are known not to be the rows'
    /// keys (a feature without one says so); a style (written as `OGR_STYLE` text) is written.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard !state.rows.makesRows, !state.idsAreKeys, !shape.facts.contains(.hasStyle) else { return nil }
        return SpooledRows.lossKey(shape: shape, changes: state.rows.changes)
    }

    public mutating func finish() throws(GeoConvError) {
        var writing = GeoPackageFileWriting(state)
        try writing.write()
    }
}

/// The writer's state: the header, the rows made so far (their columns) in a temporary file,
/// and whether the ids can be the rows' keys.
final class GeoPackageWriting {
    let output: ByteWriter
    let diagnostics: DiagnosticLog
    let table: String
    var header = DocumentHeader()
    var crs: String?
    @exclusivity(unchecked) var rows = SpooledRows(reporting: GeoPackageReports.self)
    /// The rows, framed (`varint(length)` then the row); `nil` when the output is discarded.
    let rowFile: ScratchFile?
    /// Whether every feature so far has a positive integer id, each greater than the one
    /// before (each then its row's `fid`).
    private(set) var idsAreKeys = true
    private var lastKey: Int64 = 0
    /// Whether a feature had an id.
    private(set) var hasIDs = false
    @exclusivity(unchecked) private var framed: [UInt8] = []

    init(output: ByteWriter, table: String?, diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.output = output
        self.diagnostics = diagnostics
        self.table = table ?? Self.tableName(forPath: output.filePath)
        rows.makesRows = !output.discards
        rows.tracksTextForms = true
        rowFile = output.discards ? nil : try ScratchFile()
    }

    /// The output file's name without its folder and extension; `features` for none.
    static func tableName(forPath path: String?) -> String {
        guard let path else { return "features" }
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return name.isEmpty ? "features" : String(name)
    }

    /// `id` as a row's `fid`: a positive integer within 64 bits; else `nil`.
    static func key(_ id: FeatureID) -> Int64? {
        guard case .number(let number) = id, case .integer(let n) = NumberKind.value(number), n > 0 else { return nil }
        return n
    }

    func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: "GeoPackage", diagnostics: diagnostics)
        crs = WGS84Names.contains(header.crs) ? nil : header.crs
        self.header = try header.droppingParts(unheldBy: .geoPackage, diagnostics: diagnostics)
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "GeoPackage", at: diagnostics.currentLocation)
        if let id = feature.id {
            hasIDs = true
            if idsAreKeys {
                // (Increasing, so that the table's order, the fids', is the features' order.)
                if let key = Self.key(id), key > lastKey {
                    lastKey = key
                } else {
                    idsAreKeys = false
                }
            }
        } else {
            idsAreKeys = false
        }
        framed.removeAll(keepingCapacity: true)
        if feature.style.isEmpty {
            try rows.append(feature, to: &framed, diagnostics: diagnostics)
        } else {
            let (text, dropped) = GeoPackageStyle.text(of: feature.style)
            if !dropped.isEmpty {
                try diagnostics.warn(
                    GeoPackageCode.stylePartsDropped,
                    "a style's \(dropped.joined(separator: ", ")) have no place in GDAL's style string "
                        + "(the OGR_STYLE column) and are not written",
                    hint: "write KML or GeoJSON to keep the whole style")
            }
            var copy = feature
            copy.style = Style()
            copy.properties[GeoPackageStyle.column] = text.isEmpty ? nil : .string(text)
            try rows.append(copy, to: &framed, diagnostics: diagnostics)
        }
        for slot in rows.firstValues { rows.columns[slot].firstLocation = diagnostics.currentLocation }
        for slot in rows.firstWideIntegers { rows.columns[slot].firstWideInteger = diagnostics.currentLocation }
        try rowFile?.append(framed)
    }
}
#endif
