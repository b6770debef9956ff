#if GeoPackage
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvProjection
import GeoConvRows

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The end of writing: the columns' types settled and reported, then the database built from
/// the spooled rows in a temporary folder and copied into the output.
struct GeoPackageFileWriting {
    let state: GeoPackageWriting
    /// Each column's SQL type (unused for the ids when they are the rows' keys).
    private var types: [SQLType]
    /// Each column's name in the table: SQLite's names are one whatever their case, so a
    /// second `Name` beside `name` (or a property `fid` or `geom`) is renamed (reported).
    private var names: [String] = []
    private let geometryColumn = "geom"
    /// Rows per transaction.
    static let batch = 65_536

    /// A column's type in the table, and how its values are bound.
    enum SQLType {
        case boolean, integer, real, text, date, dateTime
        /// JSON text, marked `application/json` in `gpkg_data_columns`.
        case json

        /// The type as the table declares it.
        var declared: String {
            switch self {
            case .boolean: "BOOLEAN"
            case .integer: "INTEGER"
            case .real: "REAL"
            case .text, .json: "TEXT"
            case .date: "DATE"
            case .dateTime: "DATETIME"
            }
        }
    }

    init(_ state: GeoPackageWriting) {
        self.state = state
        types = state.rows.columns.map { column in
            if !column.kinds.isEmpty, column.kinds.isSubset(of: .nested) { return .json }
            switch column.kinds.columnType {
            case .boolean: return .boolean
            case .int64: return .integer
            case .uint64, .double: return .real
            case .text:
                guard column.kinds == .string else { return .text }
                switch column.textForm {
                case .date: return .date
                case .dateTime: return .dateTime
                default: return .text
                }
            }
        }
    }

    mutating func write() throws(GeoConvError) {
        let rows = state.rows
        let diagnostics = state.diagnostics
        diagnostics.currentLocation = nil
        for column in rows.columns {
            try SpooledRows.reportType(of: column, in: GeoPackageReports.self, diagnostics)
            if column.kinds.columnType == .uint64 { try GeoPackageReports.wideIntegersRounded(column, diagnostics) }
        }
        let keyed = state.idsAreKeys && rows.rowCount > 0
        try nameColumns(idsAreKeys: keyed)
        if state.hasIDs, !keyed {
            diagnostics.note(
                GeoPackageCode.idsAsColumn,
                "the features' ids are not all positive integers, each greater than the one before: they are "
                    + "written to an \"id\" column, and each row's fid numbers it")
        }
        guard let rowFile = state.rowFile else { return }  // (the output is discarded: what is lost is known)
        FreedMemory.release()  // (what reading freed, before SQLite's cache and the sort take theirs)
        let directory = try TemporaryDirectory(
            holding: ["out.gpkg"], in: state.output.filePath.map(Self.folder(of:)))
        let path = directory.url.appendingPathComponent("out.gpkg").path
        let database = try GeoPackageDatabase(creating: path, name: state.output.name)
        try build(database, rowFile: rowFile, idsAreKeys: keyed)
        try copy(path, into: state.output)
    }

    /// Names each column in the table, renaming (and reporting) a name another column, the
    /// fid or the geometry column has in another case.
    private mutating func nameColumns(idsAreKeys: Bool) throws(GeoConvError) {
        let rows = state.rows
        var taken: Set<String> = ["fid"]
        if !rows.kindsMet.isEmpty { taken.insert(geometryColumn) }
        names = []
        // (A name made for a NUL-holding column does not take the name of a column written as is.)
        let spelled = Set(rows.columns.lazy.filter { !$0.name.utf8.contains(0) }.map { $0.name.lowercased() })
        for (index, column) in rows.columns.enumerated() {
            if idsAreKeys, column.name == "id" {
                names.append(column.name)
                continue
            }
            // SQLite reads a statement up to its first NUL: a name cannot hold one.
            let holdsNUL = column.name.utf8.contains(0)
            let base = holdsNUL ? column.name.replacing("\u{0}", with: "_") : column.name
            var name = base
            var n = 2
            while taken.contains(name.lowercased()) || (holdsNUL && spelled.contains(name.lowercased())) {
                name = "\(base)_\(n)"
                n += 1
            }
            taken.insert(name.lowercased())
            names.append(name)
            if name != column.name {
                let reason =
                    holdsNUL
                    ? "SQLite's names cannot hold a NUL character, written here as _"
                        + (name == base ? "" : ", and another column has that name")
                    : "SQLite's column names are one whatever their case, and another column (or the table's fid "
                        + "or geom) has that name"
                try state.diagnostics.warn(
                    GeoPackageCode.columnRenamed,
                    "the column \"\(column.name)\" is written as \"\(name)\": \(reason)",
                    at: rows.columns[index].firstLocation,
                    hint: holdsNUL
                        ? "give the properties names without NUL characters"
                        : "give the properties names that differ in more than their case")
            }
        }
    }

    /// The folder of `path` (`.` for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Builds the database: the tables, the rows, the R-tree and its triggers.
    private mutating func build(
        _ database: GeoPackageDatabase, rowFile: ScratchFile, idsAreKeys: Bool
    ) throws(GeoConvError) {
        let rows = state.rows
        let table = state.table
        let hasGeometry = !rows.kindsMet.isEmpty
        try database.execute("PRAGMA application_id = \(GeoPackageSchema.applicationID)")
        try database.execute("PRAGMA user_version = \(GeoPackageSchema.userVersion)")
        try database.execute("BEGIN")
        try database.execute(GeoPackageSchema.required)
        let srsID = try insertSRS(database)
        let idColumn = rows.columns.firstIndex { $0.name == "id" }
        var definitions = ["\"fid\" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL"]
        if hasGeometry { definitions.append("\(GeoPackageSchema.quoted(geometryColumn)) \(geometryTypeName)") }
        var parameters: [Int32?] = []
        var next: Int32 = hasGeometry ? 3 : 2
        for index in rows.columns.indices {
            if idsAreKeys, index == idColumn {
                parameters.append(1)
                continue
            }
            definitions.append("\(GeoPackageSchema.quoted(names[index])) \(types[index].declared)")
            parameters.append(next)
            next += 1
        }
        let quotedTable = GeoPackageSchema.quoted(table)
        try database.execute("CREATE TABLE \(quotedTable) (\(definitions.joined(separator: ", ")))")
        let identifier = state.header.name ?? table
        let bounds = rows.bounds
        let contents = try database.statement(
            "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, "
                + "srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        contents.bind(1, table)
        contents.bind(2, hasGeometry ? "features" : "attributes")
        contents.bind(3, identifier)
        contents.bind(4, state.header.description ?? "")
        if let bounds {
            for (index, value) in [bounds.0, bounds.1, bounds.2, bounds.3].enumerated() {
                contents.bind(Int32(5 + index), value)
            }
        }
        if hasGeometry { contents.bind(9, Int64(srsID)) }
        _ = try contents.run()
        if hasGeometry {
            let z = rows.kindsMet.allSatisfy(\.1) ? 1 : rows.kindsMet.contains(where: \.1) ? 2 : 0
            try database.execute(
                "INSERT INTO gpkg_geometry_columns VALUES (\(GeoPackageSchema.literal(table)), "
                    + "\(GeoPackageSchema.literal(geometryColumn)), '\(geometryTypeName)', \(srsID), \(z), 0)")
            try database.execute(GeoPackageSchema.rtree(table, geometryColumn))
        }
        let jsonColumns = rows.columns.indices.filter { types[$0] == .json }
        if !jsonColumns.isEmpty {
            try database.execute(GeoPackageSchema.dataColumns)
            for index in jsonColumns {
                try database.execute(
                    "INSERT INTO gpkg_data_columns (table_name, column_name, mime_type) VALUES ("
                        + "\(GeoPackageSchema.literal(table)), \(GeoPackageSchema.literal(names[index])), "
                        + "'application/json')")
            }
        }
        let inserted =
            ["\"fid\""] + (hasGeometry ? [GeoPackageSchema.quoted(geometryColumn)] : [])
            + rows.columns.indices.filter { !(idsAreKeys && $0 == idColumn) }.map {
                GeoPackageSchema.quoted(names[$0])
            }
        let marks = Array(repeating: "?", count: inserted.count).joined(separator: ", ")
        let insert = try database.statement(
            "INSERT INTO \(quotedTable) (\(inserted.joined(separator: ", "))) VALUES (\(marks))")
        let rtree =
            try hasGeometry
            ? GeoPackageRTree(database, name: "rtree_\(table)_\(geometryColumn)", extent: bounds ?? (0, 0, 0, 0))
            : nil
        var inserter = RowInserter(
            insert: insert, rtree: rtree, database: database, types: types, parameters: parameters,
            srsID: Int32(srsID), hasGeometry: hasGeometry)
        var count = 0
        try Self.forEachRow(in: rowFile) { (row: [UInt8], start: Int) throws(GeoConvError) -> Bool in
            try inserter.insert(row, at: start)
            count += 1
            if count % Self.batch == 0 { try database.execute("COMMIT; BEGIN") }
            return true
        }
        try inserter.rtree?.build()
        if hasGeometry { try database.execute(GeoPackageSchema.rtreeTriggers(table, geometryColumn)) }
        try database.execute("COMMIT")
    }

    /// The column's geometry type: the features' one kind, `GEOMETRY` for several.
    private var geometryTypeName: String {
        let kinds = Set(state.rows.kindsMet.map(\.0))
        guard kinds.count == 1, let kind = kinds.first else { return "GEOMETRY" }
        return kind == .circle ? "POLYGON" : kind.rawValue.uppercased()
    }

    /// Adds the CRS to `gpkg_spatial_ref_sys` (WGS84 is there already) and returns its id:
    /// an EPSG code is its own id, any other CRS 100000; its definition is PROJ's WKT 1 of
    /// it (the text given when it is WKT and PROJ is not linked, else `undefined`).
    private func insertSRS(_ database: GeoPackageDatabase) throws(GeoConvError) -> Int {
        guard let crs = state.crs else { return 4326 }
        var organization = "NONE"
        var code = 100_000
        var srsID = 100_000
        if let (authority, text) = CRSNames.authorityAndCode(crs), let number = Int(text) {
            organization = authority.uppercased()
            code = number
            if organization == "EPSG" { srsID = number }
        }
        let upper = crs.uppercased()
        let isWKT = ["GEOGCS[", "PROJCS[", "GEOGCRS[", "PROJCRS[", "GEODCRS[", "COMPD_CS[", "COMPOUNDCRS["].contains {
            upper.hasPrefix($0)
        }
        let defined = ESRIWKTText.ogcWKT1(crs)
        let definition = defined?.wkt ?? (isWKT ? crs : "undefined")
        let statement = try database.statement("INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, NULL)")
        statement.bind(1, defined?.name ?? crs)
        statement.bind(2, Int64(srsID))
        statement.bind(3, organization)
        statement.bind(4, Int64(code))
        statement.bind(5, definition)
        _ = try statement.run()
        return srsID
    }

    /// Calls `body` with each framed row of `rowFile`, in order (the buffer and where the row
    /// starts, past its length), until it returns `false`.
    static func forEachRow(
        in rowFile: ScratchFile, _ body: ([UInt8], Int) throws(GeoConvError) -> Bool
    ) throws(GeoConvError) {
        var position = 0
        var chunk: [UInt8] = []
        while position < rowFile.count {
            try rowFile.read(min(1 << 20, rowFile.count - position), at: position, into: &chunk)
            var consumed = 0
            while true {
                var at = consumed
                guard let length = SpooledRow.readVarint(chunk, &at), at + Int(length) <= chunk.count else { break }
                guard try body(chunk, at) else { return }
                consumed = at + Int(length)
            }
            if consumed == 0 {
                // A row longer than the chunk: read whole.
                var at = 0
                let length = Int(SpooledRow.readVarint(chunk, &at) ?? 0)
                try rowFile.read(at + length, at: position, into: &chunk)
                guard try body(chunk, at) else { return }
                consumed = at + length
            }
            position += consumed
        }
    }

    /// Copies the database file at `path` into `output`.
    private func copy(_ path: String, into output: ByteWriter) throws(GeoConvError) {
        let input = try ByteReader(.file(path))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let n = try input.read(into: chunk)
            if n == 0 { break }
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            try output.write(bytes)
        }
        try output.flush()
    }
}
#endif
