public import GeoConvCore
public import GeoConvFormatKit
import GeoConvGeometryEncoding
public import GeoConvIO
import GeoConvParquet

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
/// form. A list of plain values is an array, a map of them an object, a list of structs of
/// them an array of objects; deeper nesting (a list of lists) is not read: each such column
/// is reported, once. Without
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
    /// A list's or map's next entry (its levels), and the columns read beside its own, entry
    /// for entry (a map's values, a struct's other fields), with their next values.
    private var entryCursors: [Int] = []
    private var otherColumns: [[DecodedColumn]] = []
    private var otherCursors: [[Int]] = []
    private var geometry: DecodedColumn?
    private var geometryCursor = 0
    /// The coordinate columns of a native (GeoArrow) geometry.
    private var nativeColumns: GeoArrowGeometry.Columns?
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
            try diagnostics.skip(
                GeoParquetCode.invalidGeometrySkipped,
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
        if let native = layout.native, var columns = nativeColumns {
            feature.geometry = native.next(&columns)
            nativeColumns = columns
        } else if let column = geometry, column.present[row] {
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
            if case .scalar = property.shape {
            } else {
                feature.properties[property.name] = nested(k, property)
                continue
            }
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

    /// The next row's value of the list or map property `k`: its entries up to the next row's
    /// start, each a value, or null where the entry is defined only so far.
    private mutating func nested(_ k: Int, _ property: GeoParquetLayout.Property) -> JSONValue {
        let column = columns[k]
        var entry = entryCursors[k]
        guard entry < column.definitionLevels.count, let levels = property.shape.levels else { return .null }
        let first = Int(column.definitionLevels[entry])
        if first < levels.entry {
            // A row of one entry: the list itself null, or empty.
            entryCursors[k] = entry + 1
            if first < levels.list { return .null }
            if case .map = property.shape { return .object([:]) }
            return .array([])
        }
        var elements: [JSONValue] = []
        var object: JSONObject = [:]
        repeat {
            let value = take(k, property.leaf, at: entry)
            switch property.shape {
            case .scalar, .list: elements.append(value)
            case .map(let leaf, _, _):
                object[value.stringValue ?? ParquetValues.text(value)] = takeOther(k, 0, leaf, at: entry)
            case .structs(let names, let others, _, _, let elementDefinition):
                guard Int(column.definitionLevels[entry]) >= elementDefinition else {
                    elements.append(.null)
                    break
                }
                var member: JSONObject = [:]
                member[names[0]] = value
                for (i, leaf) in others.enumerated() { member[names[i + 1]] = takeOther(k, i, leaf, at: entry) }
                elements.append(.object(member))
            }
            entry += 1
        } while entry < column.repetitionLevels.count && column.repetitionLevels[entry] != 0
        entryCursors[k] = entry
        if case .map = property.shape { return .object(object) }
        return .array(elements)
    }

    /// Property `k`'s own column's value at `entry`: the next value when the entry has one.
    private mutating func take(_ k: Int, _ leaf: ParquetLeaf, at entry: Int) -> JSONValue {
        Self.value(of: columns[k], leaf, at: entry, cursor: &cursors[k])
    }

    /// The value at `entry` of the `i`-th column read beside property `k`'s own.
    private mutating func takeOther(_ k: Int, _ i: Int, _ leaf: ParquetLeaf, at entry: Int) -> JSONValue {
        Self.value(of: otherColumns[k][i], leaf, at: entry, cursor: &otherCursors[k][i])
    }

    /// `column`'s value at `entry`, the next from `cursor` when the entry has one; else null.
    private static func value(
        of column: DecodedColumn, _ leaf: ParquetLeaf, at entry: Int,
        cursor: inout Int
    ) -> JSONValue {
        guard entry < column.present.count, column.present[entry] else { return .null }
        defer { cursor += 1 }
        return ParquetValues.value(column.values, cursor, leaf.element)
    }

    private mutating func load(_ index: Int, _ layout: GeoParquetLayout) throws(GeoConvError) {
        let rowGroup = file.metadata.rowGroups[index]
        let rows = Int(clamping: rowGroup.rowCount)
        columns.removeAll()
        otherColumns.removeAll()
        otherCursors.removeAll()
        cursors = Array(repeating: 0, count: layout.properties.count)
        entryCursors = cursors
        func read(_ leaf: ParquetLeaf) throws(GeoConvError) -> DecodedColumn {
            guard leaf.index < rowGroup.columns.count else {
                throw GeoConvError(
                    .invalidInput,
                    "row group \(index) has \(rowGroup.columns.count) column chunks; the schema has more columns",
                    at: SourceLocation(file: file.name), hint: "check that the file is complete")
            }
            return try ParquetColumnReading(file: file, leaf: leaf).read(rowGroup.columns[leaf.index], rows: rows)
        }
        for property in layout.properties {
            let own = try read(property.leaf)
            columns.append(own)
            var others: [DecodedColumn] = []
            for leaf in property.shape.others {
                let other = try read(leaf)
                // (A map's keys and values, a struct's fields: one entry each, in step.)
                guard other.definitionLevels.count == own.definitionLevels.count else {
                    let ownCount = "\"\(property.leaf.dottedName)\" has \(own.definitionLevels.count)"
                    throw GeoConvError(
                        .invalidInput,
                        "the column \"\(leaf.dottedName)\" has "
                            + "\(other.definitionLevels.count) entries where \(ownCount), "
                            + "in row group \(index)",
                        at: SourceLocation(file: file.name), hint: "check that the file is complete")
                }
                others.append(other)
            }
            otherColumns.append(others)
            otherCursors.append(Array(repeating: 0, count: others.count))
        }
        if let leaf = layout.geometry {
            guard leaf.index < rowGroup.columns.count else {
                throw GeoConvError(
                    .invalidInput, "row group \(index) has no geometry column chunk",
                    at: SourceLocation(file: file.name))
            }
            geometry = try ParquetColumnReading(file: file, leaf: leaf).read(rowGroup.columns[leaf.index], rows: rows)
        }
        if let native = layout.native {
            nativeColumns = GeoArrowGeometry.Columns(
                x: try read(native.x), y: try read(native.y),
                z: try native.z.map { (leaf) throws(GeoConvError) in try read(leaf) })
        }
        geometryCursor = 0
        rowInGroup = 0
        rowsInGroup = rows
        lastLocation = SourceLocation(
            file: file.name,
            byteOffset: Int(clamping: rowGroup.fileOffset ?? rowGroup.columns.first?.dataPageOffset ?? 0))
    }

    private mutating func readGeometry(
        _ column: DecodedColumn, _ layout: GeoParquetLayout
    ) throws(GeoConvError) -> Geometry? {
        guard case .bytes(let data, let ends) = column.values, geometryCursor < ends.count else { return nil }
        let start = geometryCursor == 0 ? 0 : ends[geometryCursor - 1]
        let end = ends[geometryCursor]
        geometryCursor += 1
        let result: WKB.Result
        do throws(GeoConvError) {
            result = try data.withBytes { buffer throws(GeoConvError) in
                try WKB.read(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            }
        } catch {
            throw GeoConvError(
                error.code, "the geometry of row \(rowInGroup - 1) of row group \(group - 1): \(error.message)",
                at: lastLocation, hint: error.hint)
        }
        if result.droppedM {
            try diagnostics.warn(
                GeoParquetCode.mDropped, "M values are dropped: the model has no measures", at: lastLocation)
        }
        if result.linearisedCurves > 0 {
            diagnostics.note(GeoParquetCode.curveLinearised, "curves are read as line segments", at: lastLocation)
        }
        if result.droppedEmptyPoints > 0 {
            try diagnostics.warn(
                GeoParquetCode.emptyPointDropped, "empty points inside a MultiPoint are dropped", at: lastLocation)
        }
        return result.0.geometry
    }
}
