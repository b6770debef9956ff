public import GeoConvCore
public import GeoConvFormatKit
import GeoConvGeometryEncoding
public import GeoConvIO

/// Writes CSV (or TSV): a header line, then a row per feature, LF line breaks (GDAL's
/// default outside Windows), RFC 4180 quoting (a field holding the delimiter, a quote, CR
/// or LF, or starting or ending with a space or tab, is quoted, its quotes doubled).
///
/// The columns are known only once every feature is seen (any property may first appear in
/// the last one), so rows wait in a spool — memory up to a threshold, then an unlinked
/// temporary file — each as the cells it has, and `finish` writes the header and the rows:
/// - geometry: `longitude`,`latitude` (and `altitude` when any point has one) when every
///   geometry is a point; otherwise one `WKT` column for every row, points included. A row
///   without geometry has empty geometry cells.
/// - `id` (when any feature has one), title → `name` and snippet → `description` when no
///   property carries them (`TitleProperties`: a `Name` column read as the title is written
///   back as `Name`, in its place), then every property in the order first seen; a property
///   whose name another column has is renamed `name_2` (reported), and so is one named
///   `altitude` that would stand right after `latitude`, where the reader takes altitudes, and
///   beside longitude and latitude columns one named as a geometry column (`WKT`, `geometry`). Numbers as written, booleans `true`/`false`, null empty, arrays
///   and objects as JSON text (reported).
/// - Style, foreign members and the document's name, description, view and tile layers have
///   no place in CSV (reported).
public struct CSVWriter: LossKeyedWriter {
    private let output: ByteWriter
    private let delimiter: UInt8
    private let precision: Int?
    private let diagnostics: DiagnosticLog
    private let spool: Spool
    /// Property names, by their slot in a spooled row (after `CSVRowSlot.firstProperty`).
    private var propertyNames: [String] = []
    private var propertySlots: [String: Int] = [:]
    private var anyNonPoint = false, anyAltitude = false, anyID = false, anyTitle = false, anySnippet = false
    private var row: [UInt8] = []
    private var cell: [UInt8] = []
    /// Whether the output is discarded (`geoconv info`): the columns and losses are noted as
    /// writing would note them, and no row is built.
    private let counts: Bool

    /// Creates a writer into `output`.
    public init(
        _ output: ByteWriter, delimiter: UInt8 = UInt8(ascii: ","), precision: Int? = nil, diagnostics: DiagnosticLog
    ) {
        self.output = output
        self.delimiter = delimiter
        self.precision = precision
        self.diagnostics = diagnostics
        spool = Spool(discards: output.discards)
        counts = output.discards
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: "CSV", diagnostics: diagnostics)
        _ = try header.droppingParts(unheldBy: .csv, diagnostics: diagnostics)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "CSV", at: diagnostics.currentLocation)
        row.removeAll(keepingCapacity: true)
        if let geometry = feature.geometry { try appendGeometry(geometry) }
        if let id = feature.id {
            anyID = true
            if !counts { appendCell(CSVRowSlot.id, id.description) }
        }
        if !feature.style.isEmpty {
            try diagnostics.warn(
                CSVCode.styleDropped, "styles have no place in CSV and are not written",
                hint: "write GeoJSON or KML to keep them")
        }
        if !feature.foreignMembers.isEmpty {
            try diagnostics.warn(
                CSVCode.foreignMembersDropped,
                "a feature's members beyond its properties have no place in CSV and are not written")
        }
        var titleCarried = false
        var snippetCarried = false
        for (key, value) in feature.properties {
            // A property that says what the title or snippet says (GeoJSON's `name`, a CSV's
            // `Name`) carries it: written in its place, under its key.
            switch TitleProperties.carries(key, value, of: feature) {
            case .title?: titleCarried = true
            case .snippet?: snippetCarried = true
            case nil: break
            }
            let slot: Int
            if let known = propertySlots[key] {
                slot = known
            } else {
                slot = CSVRowSlot.firstProperty + propertyNames.count
                propertySlots[key] = slot
                propertyNames.append(key)
            }
            cell.removeAll(keepingCapacity: true)
            switch value {
            case .null: continue
            case .bool where counts, .number where counts: continue
            case .bool(let flag): cell.append(contentsOf: (flag ? "true" : "false").utf8)
            case .number(let number): cell.append(contentsOf: number.literal.utf8)
            case .string(let text):
                try reportTyped(text, column: key)
                if counts { continue }
                cell.append(contentsOf: text.utf8)
            case .array, .object:
                try diagnostics.warn(
                    CSVCode.nestedValueAsJSON,
                    "the property \"\(key)\" holds an \(value.typeName): it is written as JSON text",
                    hint: "CSV cells hold text; read it back with a JSON parser")
                if counts { continue }
                JSONText.append(value, to: &cell)
            }
            CSVRowSlot.append(slot, cell, to: &row)
        }
        if let title = feature.title, !titleCarried {
            anyTitle = true
            try reportTyped(title, column: TitleProperties.Role.title.columnName)
            if !counts { appendCell(CSVRowSlot.title, title) }
        }
        if let snippet = feature.snippet, !snippetCarried {
            anySnippet = true
            try reportTyped(snippet, column: TitleProperties.Role.snippet.columnName)
            if !counts { appendCell(CSVRowSlot.snippet, snippet) }
        }
        if counts { return }
        var framed: [UInt8] = []
        framed.reserveCapacity(row.count + 5)
        CSVRowSlot.appendVarint(row.count, to: &framed)
        framed.append(contentsOf: row)
        try spool.append(framed)
    }

    /// Into nowhere, what a feature loses and the columns it adds follow from its shape (its
    /// keys add no column a feature of its shape did not) and the flags of what was met,
    /// unless a text reads back as a number or a boolean, or a title or snippet may be
    /// carried by a property of the same text: those are written, as are circles and
    /// collections (which may hold one).
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        let facts = shape.facts
        guard counts, facts.contains(.isAllFinite), !facts.contains(.containsCircle),
            facts.isDisjoint(with: [.hasTitle, .hasSnippet])
        else { return nil }
        switch feature.geometry {
        case .geometryCollection?, .circle?, .empty(.circle)?: return nil
        default: break
        }
        if facts.contains(.hasText) {
            for case .string(let text) in feature.properties.values where CSVValues.readsAsTyped(text) { return nil }
        }
        return shape.key(
            state: (anyID ? 1 : 0) | (anyAltitude ? 2 : 0) | (anyNonPoint ? 4 : 0),
            followsShape: !facts.contains(.hasText))
    }

    /// Reports text that reads back as a number or a boolean: a CSV cell has no type, and
    /// geoconv's reader, and GDAL's with AUTODETECT_TYPE, give it back as what it spells.
    private func reportTyped(_ text: String, column: String) throws(GeoConvError) {
        guard CSVValues.readsAsTyped(text) else { return }
        try diagnostics.warn(
            CSVCode.textReadsAsTyped,
            "the property \"\(column)\" holds text that reads back as a number or a boolean "
                + "(\"\(text.prefix(20))\")",
            at: diagnostics.currentLocation, hint: "write GeoJSON or GeoParquet to keep it text")
    }

    private mutating func appendCell(_ slot: Int, _ text: String) {
        CSVRowSlot.append(slot, Array(text.utf8), to: &row)
    }

    private mutating func appendGeometry(_ geometry: Geometry) throws(GeoConvError) {
        if case .point(let c) = geometry {
            if counts {
                if c.altitude != nil { anyAltitude = true }
                return
            }
            cell.removeAll(keepingCapacity: true)
            DecimalFormatter.append(c.longitude, digits: precision, to: &cell)
            CSVRowSlot.append(CSVRowSlot.longitude, cell, to: &row)
            cell.removeAll(keepingCapacity: true)
            DecimalFormatter.append(c.latitude, digits: precision, to: &cell)
            CSVRowSlot.append(CSVRowSlot.latitude, cell, to: &row)
            if let altitude = c.altitude {
                anyAltitude = true
                cell.removeAll(keepingCapacity: true)
                DecimalFormatter.append(altitude, digits: precision, to: &cell)
                CSVRowSlot.append(CSVRowSlot.altitude, cell, to: &row)
            }
            return
        }
        anyNonPoint = true
        if geometry.mixesAltitudes {
            try diagnostics.warn(
                CSVCode.missingZAsZero,
                "a geometry mixes positions with and without an altitude: WKT gives every position one, so those without are written at altitude 0",
                hint: "give every position an altitude, or write 2D with --dim 2")
        }
        cell.removeAll(keepingCapacity: true)
        try WKTWriter(precision: precision).append(geometry, to: &cell)
        CSVRowSlot.append(CSVRowSlot.wkt, cell, to: &row)
    }

    public mutating func finish() throws(GeoConvError) {
        let layout = CSVLayout(
            wkt: anyNonPoint, altitude: anyAltitude, id: anyID, title: anyTitle, snippet: anySnippet,
            properties: propertyNames)
        if !layout.renamed.isEmpty {
            try diagnostics.warn(
                CSVCode.columnRenamed,
                "properties named as another column, or as a column the reader takes as coordinates (\(layout.renamed.joined(separator: ", "))), are written as name_2…"
            )
        }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        for (index, name) in layout.names.enumerated() {
            if index > 0 { out.append(delimiter) }
            CSVQuoting.append(Array(name.utf8), delimiter: delimiter, header: true, to: &out)
        }
        // A header of one column ends with the delimiter, as GDAL writes it: GDAL opens no
        // CSV whose first line has no delimiter (both readers ignore the empty last name).
        if layout.names.count == 1 { out.append(delimiter) }
        out.append(0x0A)
        var pending: [UInt8] = []
        var cells = [Range<Int>?](repeating: nil, count: CSVRowSlot.firstProperty + propertyNames.count)
        let delimiter = self.delimiter
        try spool.drain { (chunk: [UInt8]) throws(GeoConvError) in
            pending.append(contentsOf: chunk)
            var start = 0
            while let (length, body) = CSVRowSlot.readVarint(pending, at: start), body + length <= pending.count {
                for index in cells.indices { cells[index] = nil }
                CSVRowSlot.decode(pending, body..<(body + length), into: &cells)
                layout.appendRow(pending, cells, delimiter: delimiter, to: &out)
                start = body + length
                if out.count >= 1 << 20 {
                    try output.write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            pending.removeFirst(start)
        }
        try output.write(out)
        try output.flush()
    }
}
