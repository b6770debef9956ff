#if GeoPackage
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO

/// One feature or attribute table of a GeoPackage, as `gpkg_contents` and
/// `gpkg_geometry_columns` describe it, and its rows made into features.
struct GeoPackageTable {
    var name: String
    var identifier: String?
    var description: String?
    /// The geometry column (`nil` for an attribute table).
    var geometryColumn: String?
    /// The CRS as geoconv names it; `nil` for WGS84 or none.
    var crs: String?

    /// The feature and attribute tables `gpkg_contents` lists, in its order.
    static func listed(in database: GeoPackageDatabase) throws(GeoConvError) -> [GeoPackageTable] {
        let known = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'gpkg_contents'")
        guard !known.isEmpty else {
            throw GeoConvError(
                .invalidInput, "'\(database.name)' is an SQLite database without gpkg_contents: not a GeoPackage",
                at: SourceLocation(file: database.name), hint: "give a GeoPackage (.gpkg) file")
        }
        let rows = try database.rows(
            """
            SELECT c.table_name, c.identifier, c.description, g.column_name, COALESCE(g.srs_id, c.srs_id)
            FROM gpkg_contents c LEFT JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
            WHERE c.data_type IN ('features', 'attributes') ORDER BY c.rowid
            """)
        var tables: [GeoPackageTable] = []
        for row in rows {
            guard let name = row[0] else { continue }
            let identifier = row[1].flatMap { $0.isEmpty ? nil : $0 }
            let description = row[2].flatMap { $0.isEmpty ? nil : $0 }
            tables.append(
                GeoPackageTable(
                    name: name, identifier: identifier, description: description, geometryColumn: row[3],
                    crs: try crs(ofSRS: row[4], in: database)))
        }
        return tables
    }

    /// The table's integer primary key (its fid column, the rows' order), `nil` when it has
    /// none or its key has several columns (a table GeoPackage does not allow).
    func keyColumn(in database: GeoPackageDatabase) throws(GeoConvError) -> String? {
        Self.keyColumn(in: try database.rows("PRAGMA table_info(\(GeoPackageSchema.quoted(name)))"))
    }

    /// The integer primary key among `PRAGMA table_info`'s rows (cid, name, type, notnull,
    /// dflt_value, pk), `nil` when there is none or the key has several columns.
    static func keyColumn(in info: [[String?]]) -> String? {
        let keys = info.filter { ($0[5] ?? "0") != "0" }
        guard keys.count == 1, let key = keys.first, (key[2] ?? "").uppercased() == "INTEGER" else { return nil }
        return key[1]
    }

    /// The CRS `gpkg_spatial_ref_sys` gives `srsID`: `ORG:code` (EPSG 4326 is WGS84, none),
    /// else its definition; the undefined ones (0, -1) are none.
    static func crs(ofSRS srsID: String?, in database: GeoPackageDatabase) throws(GeoConvError) -> String? {
        guard let srsID, let id = Int(srsID), id > 0 else { return nil }
        let rows = try database.rows(
            "SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?",
            binding: [srsID])
        guard let row = rows.first else { return nil }
        if let organization = row[0], let code = row[1].flatMap({ Int($0) }), code > 0,
            organization.uppercased() != "NONE"
        {
            if organization.uppercased() == "EPSG", code == 4326 { return nil }
            return "\(organization.uppercased()):\(code)"
        }
        if let definition = row[2], !definition.isEmpty, definition.lowercased() != "undefined" { return definition }
        return nil
    }

    /// The table's rows, read in order; with `box` (west, south, east, north; west > east
    /// across the antimeridian) only those whose R-tree box meets it, when the table has one
    /// (the pipeline still tests each geometry: the tree's boxes are rounded outward); with
    /// `filter`, only those that can meet it (`GeoPackageWhere`; the pipeline still tests
    /// each feature).
    /// With `fids`, only the rows whose fids are in that range (a run of `--jobs`).
    func rows(
        in database: GeoPackageDatabase, box: FeatureSelection.Box? = nil, filter: WhereExpression? = nil,
        fids: ClosedRange<Int64>? = nil, diagnostics: DiagnosticLog? = nil
    ) throws(GeoConvError) -> Rows {
        let quoted = GeoPackageSchema.quoted(name)
        let info = try database.rows("PRAGMA table_info(\(quoted))")
        // (cid, name, type, notnull, dflt_value, pk)
        // (Columns of JSON text, as GDAL marks them: the schema extension's table, when there.)
        var json: Set<String> = []
        if try !database.rows("SELECT 1 FROM sqlite_master WHERE name = 'gpkg_data_columns'").isEmpty {
            let marked = try database.rows(
                "SELECT column_name FROM gpkg_data_columns WHERE table_name = ? AND mime_type = 'application/json'",
                binding: [name])
            json = Set(marked.compactMap { $0[0] })
        }
        var columns: [Rows.Column] = []
        let key = Self.keyColumn(in: info)
        for row in info {
            let columnName = row[1] ?? ""
            let declared = (row[2] ?? "").uppercased()
            let kind: Rows.Column.Kind
            if columnName == geometryColumn {
                kind = .geometry
            } else if columnName == key {
                kind = .fid
            } else if declared == "BOOLEAN" {
                kind = .boolean
            } else if json.contains(columnName) {
                kind = .json
            } else if columnName.uppercased() == GeoPackageStyle.column, declared == "TEXT" {
                kind = .style
            } else {
                kind = .value
            }
            columns.append(Rows.Column(name: columnName, kind: kind))
        }
        // A column `id` holds the ids (as geoconv writes ids that are not all positive
        // integers): the fid is then a row number, not the feature's id.
        let fidIsID = !columns.contains { $0.name == "id" && $0.kind != .fid }
        let list = columns.map { GeoPackageSchema.quoted($0.name) }.joined(separator: ", ")
        var conditions: [String] = []
        var order = ""
        if let box, let geometryColumn, let key = columns.first(where: { $0.kind == .fid })?.name {
            let tree = "rtree_\(name)_\(geometryColumn)"
            let found = try database.rows(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", binding: [tree])
            if !found.isEmpty {
                let across = box.west > box.east
                let x = "maxx >= \(box.west) \(across ? "OR" : "AND") minx <= \(box.east)"
                let y = "maxy >= \(box.south) AND miny <= \(box.north)"
                let match = "FROM \(GeoPackageSchema.quoted(tree)) WHERE (\(x)) AND \(y)"
                conditions.append("\(GeoPackageSchema.quoted(key)) IN (SELECT id \(match))")
                order = " ORDER BY \(GeoPackageSchema.quoted(key))"
                let count = try database.rows("SELECT count(*) \(match)").first?[0] ?? "0"
                diagnostics?.note(
                    GeoPackageCode.indexUsed,
                    "the R-tree \(tree) found \(count) rows whose boxes meet --bbox: only those are read",
                    at: SourceLocation(file: database.name))
            }
        }
        if let filter, let condition = GeoPackageWhere.condition(filter, columns: columns) {
            conditions.append(condition)
            diagnostics?.note(
                GeoPackageCode.whereInSQL,
                "--where is answered in SQL first (WHERE \(condition)): only the rows that can match are read",
                at: SourceLocation(file: database.name))
        }
        if let fids, let key = columns.first(where: { $0.kind == .fid })?.name {
            conditions.append("\(GeoPackageSchema.quoted(key)) BETWEEN \(fids.lowerBound) AND \(fids.upperBound)")
        }
        var sql = "SELECT \(list) FROM \(quoted)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let statement = try database.statement(sql + order)
        return Rows(table: self, statement: statement, columns: columns, fidIsID: fidIsID, file: database.name)
    }

    /// A table's rows made into features, one at a time.
    struct Rows {
        struct Column {
            enum Kind { case fid, geometry, boolean, json, style, value }
            var name: String
            var kind: Kind
        }

        let table: GeoPackageTable
        let statement: GeoPackageDatabase.Statement
        let columns: [Column]
        /// Whether the fid is the feature's id (the table has no `id` column).
        let fidIsID: Bool
        let file: String
        /// The table's name as a message's place begins it (`/parcels`), made once.
        private let pointerPrefix: String
        /// Where the title and snippet are among every row's keys, when every row has the same
        /// keys (no style column, whose string is no property when it reads as a style).
        private let titlePlaces: TitleProperties.Places?
        private var row = 0

        init(
            table: GeoPackageTable, statement: GeoPackageDatabase.Statement, columns: [Column], fidIsID: Bool,
            file: String
        ) {
            self.table = table
            self.statement = statement
            self.columns = columns
            self.fidIsID = fidIsID
            self.file = file
            pointerPrefix = "/" + table.name
            let hasStyle = columns.contains { $0.kind == .style }
            let keys = columns.filter { $0.kind != .fid && $0.kind != .geometry }.map(\.name)
            titlePlaces = hasStyle ? nil : TitleProperties.Places(keys: keys)
        }

        /// The next row's feature and place, `nil` after the last.
        mutating func next(diagnostics: DiagnosticLog) throws(GeoConvError) -> (Feature, SourceLocation)? {
            guard try statement.step() else { return nil }
            row += 1
            var feature = Feature(geometry: nil)
            var fid = row
            var styled = false
            for (index, column) in columns.enumerated() where column.kind == .fid {
                if case .integer(let value) = statement.value(index) {
                    fid = Int(truncatingIfNeeded: value)
                    if fidIsID { feature.id = .number(JSONNumber(value)) }
                }
            }
            let location = SourceLocation(
                file: file, line: nil, column: nil, byteOffset: nil, pointerPrefix: pointerPrefix, index: fid)
            for (index, column) in columns.enumerated() {
                switch column.kind {
                case .fid: continue
                case .geometry:
                    let blob = try statement.withBlob(index) { (bytes) throws(GeoConvError) in
                        try GeoPackageGeometry.read(bytes, at: location)
                    }
                    guard let read = blob else { continue }
                    feature.geometry = read.geometry
                    if read.droppedM {
                        try diagnostics.warn(
                            GeoPackageCode.measuresDropped,
                            "a geometry's M values are not carried over (the model holds x, y and z)", at: location)
                    }
                    if read.linearisedCurves {
                        diagnostics.note(
                            GeoPackageCode.curveLinearised, "curves are read as line segments", at: location)
                    }
                case .boolean:
                    let value = statement.value(index)
                    if case .integer(let flag) = value {
                        feature.properties[column.name] = .bool(flag != 0)
                    } else {
                        feature.properties[column.name] = Self.json(value)
                    }
                case .json:
                    let value = statement.value(index)
                    if case .text(let text) = value, let parsed = JSONText.parse(text) {
                        feature.properties[column.name] = parsed
                    } else {
                        feature.properties[column.name] = Self.json(value)
                    }
                case .style:
                    let value = statement.value(index)
                    if case .text(let text) = value, let style = GeoPackageStyle.style(of: text) {
                        feature.style = style
                        styled = true
                    } else if case .null = value {
                        continue
                    } else {
                        feature.properties[column.name] = Self.json(value)
                    }
                case .value:
                    feature.properties[column.name] = Self.json(statement.value(index))
                }
            }
            if let titlePlaces { titlePlaces.derive(into: &feature) } else { TitleProperties.derive(into: &feature) }
            // Style columns beside the style string (simplestyle's, as a GeoJSON source had
            // them) say their part of the style exactly, where the string has 8-bit colours.
            if styled { StyleProperties.derive(into: &feature) }
            return (feature, location)
        }

        /// A stored value as a property: numbers (a real by its shortest decimal), text, blobs
        /// as lower-case hex, NULL (and a real that is not finite) as null.
        static func json(_ value: GeoPackageDatabase.StoredValue) -> JSONValue {
            switch value {
            case .null: return .null
            case .integer(let n): return .number(JSONNumber(n))
            case .real(let x):
                guard x.isFinite else { return .null }
                return .number(JSONNumber(uncheckedLiteral: DecimalFormatter.shortest(x)))
            case .text(let text): return .string(text)
            case .blob(let bytes): return .string(HexText.lowercase(bytes))
            }
        }
    }
}
#endif
