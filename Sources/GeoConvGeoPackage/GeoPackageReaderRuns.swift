#if GeoPackage
public import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO

/// `--jobs` on a GeoPackage: each table's rows cut into runs of consecutive fids, found
/// through the table's primary key (a query on its B-tree: no row is read), and each run read
/// on another core through a connection of its own. The rows come out in the tables' order,
/// as one thread reads them. Runs are cut when the rows are read whole: with `--bbox` or
/// `--where` answered in SQL, one thread reads them.
extension GeoPackageReader: FeatureRunReader {
    /// Where the cutting is.
    struct RunCut {
        /// The table the next run is cut from, and the fid it starts at (`nil`: the first).
        var table = 0
        var from: Int64?
        /// Whether every table has been cut.
        var done = false
        /// The rows per run, once worked out.
        var rowsPerRun: Int64?
    }

    /// Whether the rows can be cut: the header is read, no row was read, nothing narrows the
    /// rows in SQL, and every table has an integer primary key.
    public var cutsFeatureRuns: Bool {
        database != nil && rows == nil && nextTable == 0 && !cut.done && boundingBox == nil
            && filter == nil && !keyColumns.contains(nil)
    }

    /// Finding a run costs a query on the primary key, whatever the rows' size: runs of big
    /// features are worth taking too.
    public var findsRunsWhileReading: Bool { true }

    /// The rows per run: four times `size` bytes of the file's average row (its pages over the
    /// tables' rows), so that a run of big geometries holds a few MB as one of points does.
    /// (Four times: a run costs a connection and a query, and a row's bytes in the file are
    /// fewer than its feature's.)
    private mutating func rowsPerRun(size: Int) throws(GeoConvError) -> Int64 {
        if let known = cut.rowsPerRun { return known }
        guard let database else { return 1 }
        func number(_ sql: String) throws(GeoConvError) -> Int {
            try database.rows(sql).first?[0].flatMap { Int($0) } ?? 0
        }
        let bytes = try number("PRAGMA page_count") * number("PRAGMA page_size")
        var rows = 0
        for table in tables { rows += try number("SELECT count(*) FROM \(GeoPackageSchema.quoted(table.name))") }
        let average = max(1, bytes / max(1, rows))
        let perRun = Int64(min(max(4 * size / average, 16), 1 << 16))
        cut.rowsPerRun = perRun
        return perRun
    }

    /// The next run's row count, without taking it; `nil` when no row is left.
    public mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard cutsFeatureRuns, let run = try findRun(size: size) else { return nil }
        return (0, run.count)
    }

    public mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard cutsFeatureRuns, let path else { return nil }
        guard let found = try findRun(size: size) else {
            cut.done = true
            nextTable = tables.count  // (every row was handed out in runs)
            return nil
        }
        cut.table = found.table
        cut.from = found.next
        if found.next == nil {
            cut.table += 1
            cut.from = nil
        }
        let table = tables[found.table]
        let fids = found.fids
        let name = input.name
        var run = FeatureRun(bytes: [], line: 1, byteOffset: 0, recordsBefore: 0)
        run.makeReader = { _, diagnostics in
            GeoPackageRunReader(path: path, name: name, table: table, fids: fids, diagnostics: diagnostics)
        }
        return run
    }

    /// The next run from where the cutting is: its table, fids, row count (at most the rows
    /// per run) and the fid the run after it starts at (`nil`: its table ends with it).
    private mutating func findRun(
        size: Int
    ) throws(GeoConvError) -> (table: Int, fids: ClosedRange<Int64>, count: Int, next: Int64?)? {
        guard let database else { return nil }
        let perRun = try rowsPerRun(size: size)
        var index = cut.table
        var from = cut.from ?? Int64.min
        while index < tables.count {
            guard let key = keyColumns[index] else { return nil }
            let table = GeoPackageSchema.quoted(tables[index].name)
            let column = GeoPackageSchema.quoted(key)
            let first = try database.rows(
                "SELECT \(column) FROM \(table) WHERE \(column) >= \(from) ORDER BY \(column) LIMIT 1")
            guard let text = first.first?[0], let start = Int64(text) else {
                index += 1
                from = Int64.min
                continue
            }
            let after = try database.rows(
                "SELECT \(column) FROM \(table) WHERE \(column) >= \(start) ORDER BY \(column) "
                    + "LIMIT 1 OFFSET \(perRun)")
            if let text = after.first?[0], let next = Int64(text) {
                return (index, start...(next - 1), Int(perRun), next)
            }
            let left = try database.rows("SELECT count(*) FROM \(table) WHERE \(column) >= \(start)")
            return (index, start...Int64.max, left.first?[0].flatMap { Int($0) } ?? 0, nil)
        }
        return nil
    }
}

/// The reader of one run of a GeoPackage: the rows of one table whose fids are in a range,
/// read through a connection of its own, placed in the table as the file's reader places
/// them.
struct GeoPackageRunReader: FeatureReader {
    let path: String
    let name: String
    let table: GeoPackageTable
    let fids: ClosedRange<Int64>
    let diagnostics: DiagnosticLog
    private var database: GeoPackageDatabase?
    private var rows: GeoPackageTable.Rows?
    private var finished = false
    private(set) var lastLocation: SourceLocation?

    init(path: String, name: String, table: GeoPackageTable, fids: ClosedRange<Int64>, diagnostics: DiagnosticLog) {
        self.path = path
        self.name = name
        self.table = table
        self.fids = fids
        self.diagnostics = diagnostics
    }

    mutating func readHeader() throws(GeoConvError) -> DocumentHeader { DocumentHeader() }

    mutating func next() throws(GeoConvError) -> Feature? {
        // (Not stepped again after its end: SQLite would start the statement over.)
        guard !finished else { return nil }
        if rows == nil {
            let database = try GeoPackageDatabase(path: path, name: name)
            self.database = database
            rows = try table.rows(in: database, fids: fids)
        }
        guard let (feature, location) = try rows?.next(diagnostics: diagnostics) else {
            finished = true
            return nil
        }
        lastLocation = location
        return feature
    }
}
#endif
