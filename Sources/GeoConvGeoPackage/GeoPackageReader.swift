#if GeoPackage
public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// Reads a GeoPackage (1.0–1.3): every feature and attribute table `gpkg_contents` lists, in
/// its order, one after the other as one collection (as a zip of shapefiles is read), or the
/// one table `--oo TABLE=name` names.
///
/// - Rows in the table's order; the integer primary key (`fid`) is the feature's id, the
///   geometry column's blob (GeoPackage header, then ISO WKB) its geometry, every other
///   column a property in column order. `BOOLEAN` columns as booleans, integers and reals as
///   numbers, text (`DATE`, `DATETIME` too) as text, blobs as lower-case hex; a NULL is null.
///   The title and snippet are derived as for every table of columns (`TitleProperties`).
/// - The CRS from `gpkg_spatial_ref_sys`: `ORG:code` where it has one (EPSG 4326 is
///   WGS84), else its definition (WKT); srs_id 0 and -1 (undefined) are none. Tables in
///   different CRSs are refused together: one is read with `--oo TABLE=`.
/// - A message's place is the table and the row's fid (`parcels.gpkg (at /parcels/17)`).
public struct GeoPackageReader: FeatureReader {
    let input: ByteReader
    private let tableName: String?
    let boundingBox: FeatureSelection.Box?
    let filter: WhereExpression?
    private let diagnostics: DiagnosticLog
    var database: GeoPackageDatabase?
    /// The database's file (the input's, or its copy when it is not a file).
    var path: String?
    private var spool: SpooledInput?
    var tables: [GeoPackageTable] = []
    var nextTable = 0
    var rows: GeoPackageTable.Rows?
    /// Cutting runs (`GeoPackageReaderRuns`): the table being cut, the fid its next run
    /// starts at, and each table's fid column.
    var cut = RunCut()
    /// Each table's fid column (its integer primary key), `nil` where it has none.
    var keyColumns: [String?] = []

    /// Where the last feature is: its table and fid.
    public private(set) var lastLocation: SourceLocation?

    /// Creates a reader of `input`; `table` reads that table alone; `boundingBox` (in the
    /// file's CRS) reads only the rows whose R-tree boxes meet it, where a table has a tree;
    /// `whereClause` (`FeatureSelection.whereClause`) passes over the rows SQL can tell do
    /// not match it. Both only narrow what is read: the caller still tests each feature.
    ///
    /// - Throws: `usage` for an expression that does not parse (at its column).
    public init(
        _ input: ByteReader, table: String? = nil, boundingBox: FeatureSelection.Box? = nil,
        whereClause: String? = nil, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        self.input = input
        self.tableName = table
        self.boundingBox = boundingBox
        self.filter = try whereClause.map { (text) throws(GeoConvError) in try WhereExpression(text) }
        self.diagnostics = diagnostics
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        let path: String
        if let file = input.filePath {
            path = file
        } else {
            let copy = try SpooledInput(copying: input)
            spool = copy
            path = copy.path
        }
        let database = try GeoPackageDatabase(path: path, name: input.name)
        self.database = database
        self.path = path
        var listed = try GeoPackageTable.listed(in: database)
        if let tableName {
            guard let table = listed.first(where: { $0.name == tableName }) else {
                throw GeoConvError(
                    .usage, "'\(input.name)' has no feature or attribute table \"\(tableName)\"",
                    hint: "give one of: \(listed.map(\.name).joined(separator: ", "))")
            }
            listed = [table]
        }
        tables = listed
        keyColumns = try listed.map { (table) throws(GeoConvError) in try table.keyColumn(in: database) }
        var header = DocumentHeader()
        header.crs = tables.first?.crs
        if let other = tables.first(where: { $0.crs != header.crs }), let first = tables.first {
            throw GeoConvError(
                .unsupported,
                "the tables of '\(input.name)' are in different CRSs (\(first.name): \(first.crs ?? "WGS84"), "
                    + "\(other.name): \(other.crs ?? "WGS84")), and geoconv reads one CRS per input",
                hint: "read one table at a time with --oo TABLE=name")
        }
        if tables.count == 1, let table = tables.first {
            header.name = table.identifier ?? table.name
            header.description = table.description
        } else if tables.count > 1 {
            diagnostics.note(
                GeoPackageCode.tablesMerged,
                "the \(tables.count) tables of '\(input.name)' are read one after the other as one collection "
                    + "(\(tables.map(\.name).joined(separator: ", ")))")
        }
        return header
    }

    public mutating func next() throws(GeoConvError) -> Feature? {
        guard let database else { return nil }
        while true {
            if rows == nil {
                guard nextTable < tables.count else { return nil }
                rows = try tables[nextTable].rows(
                    in: database, box: boundingBox, filter: filter, diagnostics: diagnostics)
                nextTable += 1
            }
            // (Stepped in place: a copy of the rows would retain and release them per row.)
            guard let (feature, location) = try rows?.next(diagnostics: diagnostics) else {
                rows = nil
                continue
            }
            lastLocation = location
            return feature
        }
    }
}
#endif
