public import GeoConvCore

/// Reads GeoParquet (1.0 and 1.1) and plain Parquet: a row group at a time, each row a
/// feature. The `geo` metadata's primary column, WKB-encoded, is the geometry; its CRS
/// (PROJJSON, `EPSG:n` when it has an id) the document's; its bbox covering columns are
/// skipped (they restate the geometry). Every other column is a property, by its dotted
/// path for a struct's fields (`address.city`, as GDAL names them), under its own key and in
/// its place; the text column `TitleProperties.columns(of:in:)` prefers (`name`, else `title`,
/// either in any case only where neither is there) also gives the title, and likewise the
/// snippet, as the CSV reader does.
///
/// Values: integers and reals as numbers (DECIMAL scaled, unsigned as unsigned), booleans,
/// text; dates `YYYY-MM-DD`, timestamps ISO 8601 (`Z` when adjusted to UTC), times
/// `HH:MM:SS.fff`; binary and fixed-length values as lower-case hex, UUIDs in their 8-4-4-4-12
/// form. Lists and maps (repeated columns) are not read: each is reported, once. Without
/// `geo` metadata a binary column named `geometry` (or `wkb_geometry`, `geom`) is read as
/// WKB, as GDAL does; else the rows have no geometry (reported).
///
/// Memory holds one row group's columns.
public struct GeoParquetReader: FeatureReader {
    private let file: ParquetFile
    private let diagnostics: DiagnosticLog
    private var layout: GeoParquetLayout?
    private var group = 0
    private var rowInGroup = 0
    private var columns: [DecodedColumn] = []
    private var cursors: [Int] = []
    private var geometry: DecodedColumn?
    private var geometryCursor = 0
    private var rowsInGroup = 0

    /// Where the last feature's row group starts (rows have no byte offset of their own).
    public private(set) var lastLocation: SourceLocation?

    /// Whether a row whose geometry does not decode (a NaN or infinite ordinate among others)
    /// is skipped (`--skip-invalid`) rather than refused.
    private let skipsInvalid: Bool

    /// Opens `input` (copied to a temporary file when it is not a file).
    public init(_ input: ByteReader, skipsInvalid: Bool = false, diagnostics: DiagnosticLog) throws(GeoConvError) {
        file = try ParquetFile(input)
        self.skipsInvalid = skipsInvalid
        self.diagnostics = diagnostics
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        let layout = try GeoParquetLayout(file, diagnostics: diagnostics)
        self.layout = layout
        var header = DocumentHeader()
        header.crs = layout.crs
        return header
    }

    /// The error of the row just read when its geometry is invalid and `--skip-invalid`
    /// skips it (its other columns are read all the same, to keep the cursors in step).
    private var invalidRow: GeoConvError?

    /// The next row's feature. A geometry that does not decode (a NaN or infinite ordinate:
    /// WKB holds any double, no output format one) is refused, or skipped with
    /// `--skip-invalid`.
    public mutating func next() throws(GeoConvError) -> Feature? {
        while let feature = try nextRow() {
            guard let error = invalidRow else { return feature }
            invalidRow = nil
            try diagnostics.skip("geoparquet.invalid-geometry-skipped",
                                 error.message + ": the row is skipped (--skip-invalid)", at: error.location)
        }
        return nil
    }

    private mutating func nextRow() throws(GeoConvError) -> Feature? {
        if layout == nil { _ = try readHeader() }
        guard let layout else { return nil }
        while rowInGroup >= rowsInGroup {
            guard group < file.metadata.rowGroups.count else { return nil }
            try load(group, layout)
            group += 1
        }
        let row = rowInGroup
        rowInGroup += 1
        var feature = Feature(geometry: nil)
        if let column = geometry, column.present[row] {
            do throws(GeoConvError) {
                feature.geometry = try readGeometry(column, layout)
            } catch {
                guard skipsInvalid, error.code == .invalidInput else { throw error }
                invalidRow = error
            }
        }
        feature.properties.reserveCapacity(layout.properties.count)
        for (k, property) in layout.properties.enumerated() {
            let column = columns[k]
            guard column.present[row] else {
                feature.properties[property.name] = .null
                continue
            }
            let value = ParquetValues.value(column.values, cursors[k], property.leaf.element)
            cursors[k] += 1
            // The title and snippet columns stay properties, under their keys and in their places.
            switch property.role {
            case .title: feature.title = value.stringValue ?? ParquetValues.text(value)
            case .snippet: feature.snippet = value.stringValue ?? ParquetValues.text(value)
            case .property: break
            }
            feature.properties[property.name] = value
        }
        return feature
    }

    private mutating func load(_ index: Int, _ layout: GeoParquetLayout) throws(GeoConvError) {
        let rowGroup = file.metadata.rowGroups[index]
        let rows = Int(clamping: rowGroup.rowCount)
        columns.removeAll()
        cursors = Array(repeating: 0, count: layout.properties.count)
        for property in layout.properties {
            guard property.leaf.index < rowGroup.columns.count else {
                throw GeoConvError(.invalidInput, "row group \(index) has \(rowGroup.columns.count) column chunks; the schema has more columns",
                                   at: SourceLocation(file: file.name), hint: "check that the file is complete")
            }
            columns.append(try ParquetColumnReading(file: file, leaf: property.leaf).read(rowGroup.columns[property.leaf.index], rows: rows))
        }
        if let leaf = layout.geometry {
            guard leaf.index < rowGroup.columns.count else {
                throw GeoConvError(.invalidInput, "row group \(index) has no geometry column chunk", at: SourceLocation(file: file.name))
            }
            geometry = try ParquetColumnReading(file: file, leaf: leaf).read(rowGroup.columns[leaf.index], rows: rows)
        }
        geometryCursor = 0
        rowInGroup = 0
        rowsInGroup = rows
        lastLocation = SourceLocation(file: file.name, byteOffset: Int(clamping: rowGroup.fileOffset ?? rowGroup.columns.first?.dataPageOffset ?? 0))
    }

    private mutating func readGeometry(_ column: DecodedColumn, _ layout: GeoParquetLayout) throws(GeoConvError) -> Geometry? {
        guard case .bytes(let data, let ends) = column.values, geometryCursor < ends.count else { return nil }
        let start = geometryCursor == 0 ? 0 : ends[geometryCursor - 1], end = ends[geometryCursor]
        geometryCursor += 1
        let result: WKB.Result
        do throws(GeoConvError) {
            result = try data.withBytes { buffer throws(GeoConvError) in try WKB.read(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) }
        } catch {
            throw GeoConvError(error.code, "the geometry of row \(rowInGroup - 1) of row group \(group - 1): \(error.message)", at: lastLocation, hint: error.hint)
        }
        if result.droppedM {
            try diagnostics.warn("geoparquet.m-dropped", "M values are dropped: the model has no measures", at: lastLocation)
        }
        if result.linearisedCurves > 0 {
            diagnostics.note("geoparquet.curve-linearised", "curves are read as line segments", at: lastLocation)
        }
        if result.droppedEmptyPoints > 0 {
            try diagnostics.warn("geoparquet.empty-point-dropped", "empty points inside a MultiPoint are dropped", at: lastLocation)
        }
        return result.0.geometry
    }
}
