public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
import GeoConvParquet
import GeoConvRows

/// How GeoParquet is written.
public struct GeoParquetWriteOptions: Hashable, Sendable {
    /// The most rows in a row group (a row group also ends past `rowGroupBytes`).
    public var rowGroupRows: Int
    /// About the most bytes of values a row group holds before it is written, which bounds
    /// the memory writing takes.
    public var rowGroupBytes: Int
    /// The page compression: `none`, `gzip` or `zstd` (with the `Zstd` trait).
    public var compression: String?
    /// Where a row group is encoded, compressed and written while the next is built.
    public var sideWork: SideWork
    /// Which GeoParquet is written (default `.both`).
    public var version: GeoParquetVersion = .both
    /// Whether the rows are written in the order of their boxes' centres along a Hilbert
    /// curve (GDAL's `SORT_BY_BBOX`), so that each row group covers a small area and its
    /// statistics let readers skip it; by default they keep the input's order.
    public var sortsRows = false

    /// Creates options.
    public init(
        rowGroupRows: Int = 65_536, rowGroupBytes: Int = 2 << 20, compression: String? = nil,
        sideWork: SideWork = .inline
    ) {
        self.rowGroupRows = rowGroupRows
        self.rowGroupBytes = rowGroupBytes
        self.compression = compression
        self.sideWork = sideWork
    }
}

/// Which GeoParquet a writer writes.
public enum GeoParquetVersion: String, Hashable, Sendable, CaseIterable {
    /// GeoParquet 1.1: WKB in a plain binary column, the `geo` metadata (version 1.1.0) and a
    /// `bbox` covering column that readers skip row groups by.
    case v1_1 = "1.1"
    /// GeoParquet 2.0: WKB in a column of Parquet's GEOMETRY logical type (its CRS as
    /// PROJJSON in the type), with the `geo` metadata (version 2.0.0) and each row group's
    /// geospatial statistics (box and geometry types) that readers skip row groups by; no
    /// covering column.
    case v2_0 = "2.0"
    /// Both at once: the 1.1 file (its metadata and covering column), its geometry column of
    /// the GEOMETRY type with the statistics — what 1.x readers read as 1.1 and readers of
    /// Parquet's geospatial types read natively (DuckDB's `GEOPARQUET_VERSION 'BOTH'`).
    case both = "BOTH"

    /// Whether the geometry column has Parquet's GEOMETRY type and statistics.
    var isNative: Bool { self != .v1_1 }
    /// Whether the `bbox` covering column is written (and the metadata says 1.1.0).
    var hasCovering: Bool { self != .v2_0 }
}

/// Writes GeoParquet 1.1, 2.0 or both at once (`GeoParquetVersion`): a Parquet file whose
/// `geometry` column holds each feature's geometry as WKB (ISO, little-endian), described by
/// the file's `geo` metadata (encoding, geometry types, bounding box, CRS as PROJJSON when it
/// is not WGS84), with a `bbox` struct column (`xmin`, `ymin`, `xmax`, `ymax`) named as its
/// covering (1.1) or Parquet's GEOMETRY type and geospatial statistics (2.0) so that readers
/// can skip row groups, and every property as a typed column; the rows in the input's order
/// or along a Hilbert curve (`sortsRows`).
///
/// A column's type is the widest its values need across the whole file (integers INT64,
/// numbers DOUBLE, booleans BOOLEAN, anything else UTF-8 text; arrays and objects as JSON
/// text, reported; a mix of kinds as text, reported), so it is known only at the end: the
/// rows wait in a spool (memory up to 2 MB, then an unlinked temporary file), and `finish`
/// writes them a row group at a time. Memory holds one feature while writing, and one row
/// group (at most `rowGroupRows` rows and about `rowGroupBytes` of values) at the end.
public struct GeoParquetWriter: LossKeyedWriter {
    let state: GeoParquetWriting

    /// Prepares to write into `output`; a usage error for a codec that is not built in.
    public init(
        _ output: ByteWriter, options: GeoParquetWriteOptions = GeoParquetWriteOptions(), diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        state = try GeoParquetWriting(output: output, options: options, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try state.begin(header) }
    public mutating func write(_ feature: Feature) throws(GeoConvError) { try state.write(feature) }

    /// Into nowhere, a row's losses follow from its shape and its columns' state
    /// (`SpooledRows.lossKey(shape:changes:state:)`).
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard !state.rows.makesRows else { return nil }
        return SpooledRows.lossKey(shape: shape, changes: state.rows.changes)
    }
    public mutating func finish() throws(GeoConvError) { try state.finish() }
}

/// The writer's state: the rows made so far (their columns) and the spool that holds them.
final class GeoParquetWriting {
    let output: ByteWriter
    let diagnostics: DiagnosticLog
    let options: GeoParquetWriteOptions
    let codec: ParquetCodec
    let spool: Spool
    var crs: String?
    /// The rows and what their columns held.
    @exclusivity(unchecked) var rows = SpooledRows(reporting: GeoParquetReports.self)
    @exclusivity(unchecked) private var framed: [UInt8] = []

    init(output: ByteWriter, options: GeoParquetWriteOptions, diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        if let name = options.compression {
            guard let codec = ParquetCompression.writable[name.lowercased()] else {
                throw GeoConvError(
                    .usage,
                    "--parquet-compression \(name) is not one of \(ParquetCompression.writable.keys.sorted().joined(separator: ", "))",
                    hint: "give --parquet-compression zstd, gzip or none")
            }
            self.codec = codec
        } else {
            codec = ParquetCompression.defaultCodec
        }
        guard options.rowGroupRows > 0 else {
            throw GeoConvError(
                .usage, "--parquet-row-group \(options.rowGroupRows): a row group holds at least one row",
                hint: "give a positive number of rows, e.g. 65536")
        }
        spool = Spool(discards: output.discards)
        rows.makesRows = !output.discards
    }

    func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: "GeoParquet", diagnostics: diagnostics)
        crs = WGS84Names.contains(header.crs) ? nil : header.crs
        _ = try header.droppingParts(unheldBy: .geoParquet, diagnostics: diagnostics)
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "GeoParquet", at: diagnostics.currentLocation)
        framed.removeAll(keepingCapacity: true)
        try rows.append(feature, to: &framed, diagnostics: diagnostics)
        for slot in rows.firstValues { rows.columns[slot].firstLocation = diagnostics.currentLocation }
        for slot in rows.firstWideIntegers { rows.columns[slot].firstWideInteger = diagnostics.currentLocation }
        try spool.append(framed)
    }

    /// Adds rows a records writer made, after those so far: their columns mapped onto
    /// these by name (the rows renumbered when a column's number differs), what the columns
    /// held learned, and the first value of a column new here placed at its record.
    func appendRecords(
        _ records: WrittenRecords<GeoParquetRecordFacts>, locating locate: (Int) -> Void
    ) throws(GeoConvError) {
        guard let facts = records.facts else {
            // (`GeoParquetRecordsWriter` gives facts with every take: only another writer's records lack them.)
            throw GeoConvError(
                .unsupported, "rows without their columns cannot be added to GeoParquet",
                hint: "add rows a GeoParquet records writer made (selectiveRecordsWriter())")
        }
        var columns: [Int] = []
        var renumbers = false
        for (index, column) in facts.columns.enumerated() {
            let slot = rows.column(named: column.name)
            columns.append(slot)
            if slot != index { renumbers = true }
            rows.columns[slot].kinds.formUnion(column.kinds)
            rows.columns[slot].wideIntegers += column.wideIntegers
        }
        for (index, record) in facts.firstValues where !rows.columns[columns[index]].hasValue {
            locate(record)
            rows.columns[columns[index]].hasValue = true
            rows.columns[columns[index]].firstLocation = diagnostics.currentLocation
        }
        for (index, record) in facts.firstWideIntegers where rows.columns[columns[index]].firstWideInteger == nil {
            locate(record)
            rows.columns[columns[index]].firstWideInteger = diagnostics.currentLocation
        }
        if let box = facts.bounds { rows.widen(box) }
        for (kind, z) in facts.kindsMet { rows.noteKind(kind, hasAltitude: z) }
        rows.rowCount += records.count
        try spool.append(renumbers ? SpooledRow.renumbered(records.bytes, columns: columns) : records.bytes)
    }

    func finish() throws(GeoConvError) {
        var writing = GeoParquetFileWriting(self)
        try writing.write()
    }
}
