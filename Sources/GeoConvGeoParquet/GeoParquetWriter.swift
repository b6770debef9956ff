public import GeoConvCore

/// How GeoParquet is written.
public struct GeoParquetWriteOptions: Hashable, Sendable {
    /// The most rows in a row group (a row group also ends past `rowGroupBytes`).
    public var rowGroupRows: Int
    /// About the most bytes of values a row group holds before it is written, which bounds
    /// the memory writing takes.
    public var rowGroupBytes: Int
    /// The page compression: `none`, `gzip` or `zstd` (with the `Zstd` trait).
    public var compression: String?

    /// Creates options.
    public init(rowGroupRows: Int = 65_536, rowGroupBytes: Int = 4 << 20, compression: String? = nil) {
        self.rowGroupRows = rowGroupRows
        self.rowGroupBytes = rowGroupBytes
        self.compression = compression
    }
}

/// Writes GeoParquet 1.1: a Parquet file whose `geometry` column holds each feature's
/// geometry as WKB (ISO, little-endian), described by the file's `geo` metadata (encoding,
/// geometry types, bounding box, CRS as PROJJSON when it is not WGS84), with a `bbox`
/// struct column (`xmin`, `ymin`, `xmax`, `ymax`) named as its covering so that readers
/// can skip row groups, and every property as a typed column.
///
/// A column's type is the widest its values need across the whole file (integers INT64,
/// numbers DOUBLE, booleans BOOLEAN, anything else UTF-8 text; arrays and objects as JSON
/// text, reported; a mix of kinds as text, reported), so it is known only at the end: the
/// rows wait in a spool (memory up to 2 MB, then an unlinked temporary file), and `finish`
/// writes them a row group at a time. Memory holds one feature while writing, and one row
/// group (at most `rowGroupRows` rows and about `rowGroupBytes` of values) at the end.
public struct GeoParquetWriter: FeatureWriter {
    private let state: GeoParquetWriting

    /// Prepares to write into `output`; a usage error for a codec that is not built in.
    public init(_ output: ByteWriter, options: GeoParquetWriteOptions = GeoParquetWriteOptions(), diagnostics: DiagnosticLog) throws(GeoConvError) {
        state = try GeoParquetWriting(output: output, options: options, diagnostics: diagnostics)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) { try state.begin(header) }
    public mutating func write(_ feature: Feature) throws(GeoConvError) { try state.write(feature) }
    public mutating func finish() throws(GeoConvError) { try state.finish() }
}

/// The writer's state: the spool of rows and what the columns have held.
final class GeoParquetWriting {
    let output: ByteWriter
    let diagnostics: DiagnosticLog
    let options: GeoParquetWriteOptions
    let codec: ParquetCodec
    let spool: Spool
    var columns: [PropertyColumn] = []
    var slots: [String: Int] = [:]
    var bounds: (Double, Double, Double, Double)?
    var rowCount = 0
    var crs: String?
    private var row: [UInt8] = []
    private var framed: [UInt8] = []
    private var wkb: [UInt8] = []
    /// The geometry kinds met (with Z or not), in the order met.
    private var kindsMet: [(GeometryKind, Bool)] = []
    private var cells: [(slot: Int, value: JSONValue)] = []
    /// The names the feature before had, in its order, and their columns.
    private var recentNames: [String] = []
    private var recentSlots: [Int] = []
    /// The row each column last had a value in (a second value in one row is renamed).
    private var lastRow: [Int] = []

    init(output: ByteWriter, options: GeoParquetWriteOptions, diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        if let name = options.compression {
            guard let codec = ParquetCompression.writable[name.lowercased()] else {
                throw GeoConvError(.usage, "--parquet-compression \(name) is not one of \(ParquetCompression.writable.keys.sorted().joined(separator: ", "))",
                                   hint: "give --parquet-compression zstd, gzip or none")
            }
            self.codec = codec
        } else {
            codec = ParquetCompression.defaultCodec
        }
        guard options.rowGroupRows > 0 else {
            throw GeoConvError(.usage, "--parquet-row-group \(options.rowGroupRows): a row group holds at least one row", hint: "give a positive number of rows, e.g. 65536")
        }
        spool = Spool(discards: output.discards)
    }

    func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: "GeoParquet", diagnostics: diagnostics)
        crs = WGS84Names.contains(header.crs) ? nil : header.crs
        if header.name != nil || header.description != nil || header.camera != nil || !header.tileLayers.isEmpty || !header.foreignMembers.isEmpty {
            try diagnostics.warn("geoparquet.document-info-dropped",
                                 "the document's name, description, view, tile layers and other members have no place in GeoParquet and are not written")
        }
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "GeoParquet", at: diagnostics.currentLocation)
        if !feature.style.isEmpty {
            try diagnostics.warn("geoparquet.style-dropped", "styles have no place in GeoParquet and are not written", hint: "write GeoJSON or KML to keep them")
        }
        if !feature.foreignMembers.isEmpty {
            try diagnostics.warn("geoparquet.foreign-members-dropped", "a feature's members beyond its properties have no place in GeoParquet and are not written")
        }
        row.removeAll(keepingCapacity: true)
        if let geometry = feature.geometry {
            wkb.removeAll(keepingCapacity: true)
            try WKB.append(geometry, to: &wkb)
            SpooledRow.appendVarint(UInt64(wkb.count + 1), to: &row)
            row.append(contentsOf: wkb)
            noteType(of: geometry)
            var box: (Double, Double, Double, Double)?
            geometry.forEachCoordinate { c in
                if let b = box {
                    box = (min(b.0, c.longitude), min(b.1, c.latitude), max(b.2, c.longitude), max(b.3, c.latitude))
                } else {
                    box = (c.longitude, c.latitude, c.longitude, c.latitude)
                }
            }
            if let box {
                row.append(1)
                for v in [box.0, box.1, box.2, box.3] { SpooledRow.appendDouble(v, to: &row) }
                bounds = bounds.map { (min($0.0, box.0), min($0.1, box.1), max($0.2, box.2), max($0.3, box.3)) } ?? box
            } else {
                row.append(0)
            }
        } else {
            row.append(contentsOf: [0, 0])  // no WKB, no bounding box
        }
        // The columns: id, title as `name`, snippet as `description`, then the properties
        // (one saying what the title or snippet column says is that column).
        cells.removeAll(keepingCapacity: true)
        if let id = feature.id {
            switch id {
            case .string(let s): try add("id", .string(s))
            case .number(let n): try add("id", .number(n))
            }
        }
        if let title = feature.title { try add("name", .string(title)) }
        if let snippet = feature.snippet { try add("description", .string(snippet)) }
        for (key, value) in feature.properties {
            if case .string(let text) = value, (text == feature.title && (key == "name" || key == "title"))
                || (text == feature.snippet && (key == "description" || key == "snippet")) { continue }
            try add(key, value)
        }
        SpooledRow.appendVarint(UInt64(cells.count), to: &row)
        for (slot, value) in cells { try append(slot, value) }
        framed.removeAll(keepingCapacity: true)
        SpooledRow.appendVarint(UInt64(row.count), to: &framed)
        framed.append(contentsOf: row)
        try spool.append(framed)
        rowCount += 1
    }

    /// Adds a cell, to the column of its name; a name a column of this feature already has
    /// (a property `name` beside a title) goes to `name_2`, reported.
    private func add(_ name: String, _ value: JSONValue) throws(GeoConvError) {
        // Features mostly repeat the one before's names in its order: its slots are tried first.
        let position = cells.count
        var slot: Int
        if position < recentNames.count, recentNames[position] == name {
            slot = recentSlots[position]
        } else {
            slot = column(named: name)
            if position < recentNames.count {
                recentNames[position] = name
                recentSlots[position] = slot
            } else {
                recentNames.append(name)
                recentSlots.append(slot)
            }
        }
        if lastRow[slot] == rowCount {
            var n = 2
            while lastRow[column(named: "\(name)_\(n)")] == rowCount { n += 1 }
            slot = column(named: "\(name)_\(n)")
            try diagnostics.warn("geoparquet.column-renamed", "a feature has two values for the column \"\(name)\": the second is written to \"\(name)_\(n)\"")
        }
        lastRow[slot] = rowCount
        cells.append((slot, value))
    }

    private func column(named name: String) -> Int {
        if let slot = slots[name] { return slot }
        let slot = columns.count
        slots[name] = slot
        columns.append(PropertyColumn(name: name))
        lastRow.append(-1)
        return slot
    }

    private func noteWideInteger(_ slot: Int) {
        columns[slot].wideIntegers += 1
        if columns[slot].firstWideInteger == nil { columns[slot].firstWideInteger = diagnostics.currentLocation }
    }

    private func append(_ slot: Int, _ value: JSONValue) throws(GeoConvError) {
        SpooledRow.appendVarint(UInt64(slot), to: &row)
        if columns[slot].firstLocation == nil, value != .null { columns[slot].firstLocation = diagnostics.currentLocation }
        switch value {
        case .null: row.append(SpooledValue.tagNull)
        case .bool(let flag):
            columns[slot].kinds.insert(.bool)
            row.append(flag ? SpooledValue.tagTrue : SpooledValue.tagFalse)
        case .number(let number):
            switch NumberKind.value(number) {
            case .integer(let n):
                columns[slot].kinds.formUnion(ColumnKinds.of(n))
                if n.magnitude > 1 << 53 { noteWideInteger(slot) }
                row.append(SpooledValue.tagInteger)
                ByteEncoding.appendZigzag(n, to: &row)
            default:
                if !number.literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                    // An integer beyond Int64: exact in a UINT64 or text column, rounded in a DOUBLE one (reported).
                    columns[slot].kinds.insert(UInt64(number.literal) != nil ? .bigUnsigned : .real)
                    noteWideInteger(slot)
                    row.append(SpooledValue.tagBigInteger)
                    SpooledRow.appendVarint(UInt64(number.literal.utf8.count), to: &row)
                    row.append(contentsOf: number.literal.utf8)
                } else {
                    columns[slot].kinds.insert(.real)
                    row.append(SpooledValue.tagReal)
                    SpooledRow.appendDouble(number.doubleValue, to: &row)
                }
            }
        case .string(let text):
            columns[slot].kinds.insert(.string)
            row.append(SpooledValue.tagText)
            SpooledRow.appendVarint(UInt64(text.utf8.count), to: &row)
            row.append(contentsOf: text.utf8)
        case .array, .object:
            try diagnostics.warn("geoparquet.nested-value-as-json", "the property \"\(columns[slot].name)\" holds an \(value.typeName): it is written as JSON text",
                                 hint: "GeoParquet columns here are flat; read the text back with a JSON parser")
            columns[slot].kinds.insert(.nested)
            var text: [UInt8] = []
            JSONText.append(value, to: &text)
            row.append(SpooledValue.tagJSON)
            SpooledRow.appendVarint(UInt64(text.count), to: &row)
            row.append(contentsOf: text)
        }
    }

    private func noteType(of geometry: Geometry) {
        var kind: GeometryKind
        switch geometry {
        case .empty(let k): kind = k
        default: kind = geometry.kind
        }
        if kind == .circle { kind = .polygon }
        let z = geometry.hasAltitude
        if let last = kindsMet.last, last.0 == kind, last.1 == z { return }
        guard !kindsMet.contains(where: { $0.0 == kind && $0.1 == z }) else { return }
        kindsMet.append((kind, z))
    }

    /// Geometry types met, in the order met (`Point`, `Polygon Z`…).
    var geometryTypes: [String] { kindsMet.map { $0.1 ? $0.0.rawValue + " Z" : $0.0.rawValue } }

    func finish() throws(GeoConvError) {
        var writing = GeoParquetFileWriting(self)
        try writing.write()
    }
}
