#if GeoPackage
import GeoConvCore
import GeoConvRows

/// Inserts spooled rows into a feature table: the geometry as a GeoPackage blob (its header
/// made from the row's box, the row's WKB after it) and its box to the R-tree, each cell
/// bound in its column's type.
struct RowInserter {
    let insert: GeoPackageDatabase.Statement
    /// The R-tree the geometries' boxes go to (built once every row is in).
    var rtree: GeoPackageRTree?
    let database: GeoPackageDatabase
    let types: [GeoPackageFileWriting.SQLType]
    /// Each column's parameter in the insert (1, the fid, for the ids when they are the keys).
    let parameters: [Int32?]
    let srsID: Int32
    let hasGeometry: Bool
    private var blob: [UInt8] = []
    private var text: [UInt8] = []

    init(
        insert: GeoPackageDatabase.Statement, rtree: GeoPackageRTree?, database: GeoPackageDatabase,
        types: [GeoPackageFileWriting.SQLType], parameters: [Int32?], srsID: Int32, hasGeometry: Bool
    ) {
        self.insert = insert
        self.rtree = rtree
        self.database = database
        self.types = types
        self.parameters = parameters
        self.srsID = srsID
        self.hasGeometry = hasGeometry
    }

    /// Inserts the row starting at `start` of `row`.
    mutating func insert(_ row: [UInt8], at start: Int) throws(GeoConvError) {
        insert.clearBindings()
        var at = start
        let (wkb, box) = SpooledRow.geometryPart(row, &at)
        if hasGeometry, let wkb, wkb.count >= 5 {
            blob.removeAll(keepingCapacity: true)
            // (The WKB's type, little-endian as geoconv writes it: 1 or 1001 for a point.)
            let type = UInt32(row[wkb.lowerBound + 1]) | UInt32(row[wkb.lowerBound + 2]) << 8
            GeoPackageGeometry.appendHeader(srsID: srsID, box: box, isPoint: type % 1000 == 1, to: &blob)
            blob.append(contentsOf: row[wkb])
            blob.withUnsafeBytes { insert.bind(2, blob: $0) }
        }
        let cells = Int(SpooledRow.readVarint(row, &at) ?? 0)
        for _ in 0..<cells {
            let column = Int(SpooledRow.readVarint(row, &at) ?? 0)
            let tag = row[at]
            guard let parameter = parameters[column], tag != SpooledValue.tagNull else {
                at = SpooledRow.valueEnd(row, at)
                continue
            }
            at += 1
            switch types[column] {
            case .boolean: insert.bind(parameter, Int64(tag == SpooledValue.tagTrue ? 1 : 0))
            case .integer: insert.bind(parameter, SpooledRow.integer(row, &at))
            case .real: insert.bind(parameter, SpooledRow.real(tag, row, &at))
            case .text, .date, .dateTime, .json:
                text.removeAll(keepingCapacity: true)
                SpooledRow.appendText(tag, row, &at, to: &text)
                text.withUnsafeBytes { insert.bind(parameter, text: $0) }
            }
        }
        guard try insert.run() else {
            throw GeoConvError(
                .io, "a row of the GeoPackage '\(database.name)' broke a constraint: \(database.message)")
        }
        if let box, wkb != nil { try rtree?.add(database.lastInsertRowID, box) }
    }
}
#endif
