import GeoConvCore
import GeoConvGeometryEncoding
import GeoConvIO
import GeoConvRows

/// The end of writing: the columns' types settled, the features sorted along the Hilbert
/// curve (with an index) and made into FlatBuffers, the tree built over them as they are,
/// then the file written: magic bytes, header, tree, features.
struct FlatGeobufFileWriting {
    let state: FlatGeobufWriting
    private let types: [FlatGeobufHeader.ColumnType]
    /// The header's geometry type (0, Unknown, when the features have several).
    private let geometryType: UInt8
    private let hasZ: Bool
    private var tree: FlatGeobufPackedTree?
    private let features = Spool()
    private var featureOffset = 0
    private var row: [UInt8] = []
    private var properties: [UInt8] = []
    private var feature: [UInt8] = []

    /// The magic bytes: "fgb", major version 3, "fgb", patch version 1.
    static let magic: [UInt8] = FlatGeobufHeader.magicPrefix + [1]

    init(_ state: FlatGeobufWriting) {
        self.state = state
        types = state.rows.columns.map { FlatGeobufEncoding.columnType($0.kinds) }
        let kinds = state.rows.kindsMet.map(\.0)
        geometryType =
            kinds.first.map { first in
                kinds.allSatisfy { $0 == first } ? FlatGeobufEncoding.typeNumber(first) : 0
            } ?? 0
        hasZ = state.rows.kindsMet.contains { $0.1 }
    }

    mutating func write() throws(GeoConvError) {
        let rows = state.rows
        let diagnostics = state.diagnostics
        diagnostics.currentLocation = nil
        guard rows.columns.count <= 65_535 else {
            throw GeoConvError(
                .unsupported,
                "the features have \(rows.columns.count) properties: FlatGeobuf numbers columns in two bytes "
                    + "(65,535 at most)",
                hint: "keep fewer properties with --select")
        }
        for column in rows.columns { try SpooledRows.reportType(of: column, in: FlatGeobufReports.self, diagnostics) }
        guard let rowFile = state.rowFile else { return }  // (the output is discarded: what is lost is known)
        let count = rows.rowCount
        if state.spatialIndex, count > 0 {
            tree = FlatGeobufPackedTree(featureCount: count, nodeSize: 16, discards: false)
            let extent = rows.bounds ?? (0, 0, 0, 0)
            var sorted = try HilbertSortedEntries {
                (emit: (HilbertSortEntry) throws(GeoConvError) -> Void) throws(GeoConvError) in
                try forEachKey { (x: Double, y: Double, offset: Int, length: Int) throws(GeoConvError) in
                    let hilbert = HilbertCurve.index(centerX: x, centerY: y, extent: extent)
                    try emit(HilbertSortEntry(hilbert: hilbert, length: UInt32(length), offset: UInt64(offset)))
                }
            }
            while let entry = try sorted.next() {
                try writeFeature(rowFile, offset: Int(entry.offset), length: Int(entry.length))
            }
            try tree?.finish()
        } else {
            try forEachKey { (_: Double, _: Double, offset: Int, length: Int) throws(GeoConvError) in
                try writeFeature(rowFile, offset: offset, length: length)
            }
        }
        let output = state.output
        try output.write(Self.magic)
        try output.write(FlatBufferBuilder.sizePrefixed(headerTable(count: count)))
        try tree?.write(into: output)
        try features.drain(into: output)
        try output.flush()
    }

    /// Calls `body` with each row's key, in the order the rows were written: its box's centre
    /// (NaN without one), where its framed row starts in the row file and its length.
    private func forEachKey(
        _ body: (Double, Double, Int, Int) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var pending: [UInt8] = []
        try state.keys.drain { (chunk: [UInt8]) throws(GeoConvError) in
            pending.append(contentsOf: chunk)
            var at = 0
            while at + 28 <= pending.count {
                var words: [UInt64] = [0, 0, 0, 0]
                for word in 0..<4 {
                    let width = word == 3 ? 4 : 8
                    for k in 0..<width { words[word] |= UInt64(pending[at + 8 * word + k]) << (8 * UInt64(k)) }
                }
                try body(
                    Double(bitPattern: words[0]), Double(bitPattern: words[1]), Int(words[2]), Int(words[3]))
                at += 28
            }
            pending.removeFirst(at)
        }
    }

    /// Reads a row back and writes it as the next feature (and its leaf of the tree).
    private mutating func writeFeature(_ rowFile: ScratchFile, offset: Int, length: Int) throws(GeoConvError) {
        try rowFile.read(length, at: offset, into: &row)
        var at = 0
        _ = SpooledRow.readVarint(row, &at)
        let (wkb, rowBox) = SpooledRow.geometryPart(row, &at)
        var geometry: Geometry?
        if let range = wkb {
            let read = row.withUnsafeBytes { raw -> Result<Geometry, GeoConvError> in
                do throws(GeoConvError) {
                    return .success(try WKB.read(UnsafeRawBufferPointer(rebasing: raw[range])).0.geometry)
                } catch {
                    return .failure(error)
                }
            }
            geometry = try read.get()
        }
        let box = rowBox ?? FlatGeobufPackedTree.emptyBox
        properties.removeAll(keepingCapacity: true)
        FlatGeobufEncoding.appendProperties(row, at: at, types: types, to: &properties)
        var table = FlatBufferBuilder.Table()
        if let geometry {
            table.add(0, .table(FlatGeobufEncoding.table(geometry, hasZ: hasZ, typed: geometryType == 0)))
        }
        table.add(1, .bytes(properties))  // (even empty: the flatgeobuf Python package reads it unasked)
        FlatBufferBuilder.sizePrefixed(table, into: &feature)
        try features.append(feature)
        try tree?.addLeaf(box, featureOffset: featureOffset)
        featureOffset += feature.count
    }

    /// The header: the layer's name and description, the envelope, geometry type, altitudes,
    /// columns, feature count, the index's node size (0 without one) and the CRS.
    private func headerTable(count: Int) -> FlatBufferBuilder.Table {
        var table = FlatBufferBuilder.Table()
        if let name = state.header.name { table.add(0, .string(name)) }
        if let box = state.rows.bounds { table.add(1, .doubles([box.0, box.1, box.2, box.3])) }
        table.add(2, .uint8(geometryType))
        table.add(3, .uint8(hasZ ? 1 : 0))
        var columns: [FlatBufferBuilder.Table] = []
        for (index, column) in state.rows.columns.enumerated() {
            var entry = FlatBufferBuilder.Table()
            entry.add(0, .string(column.name))
            entry.add(1, .uint8(types[index].rawValue))
            columns.append(entry)
        }
        if !columns.isEmpty { table.add(7, .tables(columns)) }
        table.add(8, .uint64(UInt64(count)))
        table.add(9, .uint16(tree == nil ? 0 : UInt16(tree?.nodeSize ?? 0)))
        table.add(10, .table(FlatGeobufEncoding.crsTable(state.crs)))
        if let description = state.header.description { table.add(12, .string(description)) }
        return table
    }
}
