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
            var sorted = HilbertSortedRows()
            try forEachRow(of: rowFile) { (x: Double, y: Double, bytes: ArraySlice<UInt8>) throws(GeoConvError) in
                try sorted.add(bytes, hilbert: HilbertCurve.index(centerX: x, centerY: y, extent: extent))
            }
            try sorted.finishAdding()
            while try sorted.next(into: &row) { try writeFeature() }
            try tree?.finish()
        } else {
            try forEachRow(of: rowFile) { (_: Double, _: Double, bytes: ArraySlice<UInt8>) throws(GeoConvError) in
                row.removeAll(keepingCapacity: true)
                row.append(contentsOf: bytes)
                try writeFeature()
            }
        }
        let output = state.output
        try output.write(Self.magic)
        try output.write(FlatBufferBuilder.sizePrefixed(headerTable(count: count)))
        try tree?.write(into: output)
        try features.drain(into: output)
        try output.flush()
    }

    /// Calls `body` with each row's key (its box's centre, NaN without one) and its bytes,
    /// in the order the rows were written: the row file read a megabyte at a time.
    private func forEachRow(
        of rowFile: ScratchFile, _ body: (Double, Double, ArraySlice<UInt8>) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var chunk: [UInt8] = []
        var chunkStart = 0
        var pending: [UInt8] = []
        try state.keys.drain { (keys: [UInt8]) throws(GeoConvError) in
            pending.append(contentsOf: keys)
            var at = 0
            while at + 28 <= pending.count {
                // The key: the centre (two doubles), the row's offset (8 bytes) and length (4).
                let x = SpooledRow.readDouble(pending, &at)
                let y = SpooledRow.readDouble(pending, &at)
                var offset = 0
                var length = 0
                for k in 0..<8 { offset |= Int(pending[at + k]) << (8 * k) }
                for k in 0..<4 { length |= Int(pending[at + 8 + k]) << (8 * k) }
                at += 12
                if offset < chunkStart || offset + length > chunkStart + chunk.count {
                    chunkStart = offset
                    try rowFile.read(min(max(1 << 20, length), rowFile.count - offset), at: offset, into: &chunk)
                }
                try body(x, y, chunk[(offset - chunkStart)..<(offset - chunkStart + length)])
            }
            pending.removeFirst(at)
        }
    }

    /// Writes the row in `row` as the next feature (and its leaf of the tree).
    private mutating func writeFeature() throws(GeoConvError) {
        var at = 0
        _ = SpooledRow.readVarint(row, &at)
        let (wkb, rowBox) = SpooledRow.geometryPart(row, &at)
        if geometryType == 1, !hasZ, let range = wkb, let point = FlatGeobufEncoding.plainPoint(row, range) {
            // The common case of a points file, laid out directly (as the builder would).
            properties.removeAll(keepingCapacity: true)
            FlatGeobufEncoding.appendProperties(row, at: at, types: types, to: &properties)
            FlatGeobufEncoding.pointFeature(x: point.x, y: point.y, properties: properties, into: &feature)
            try features.append(feature)
            try tree?.addLeaf(rowBox ?? FlatGeobufPackedTree.emptyBox, featureOffset: featureOffset)
            featureOffset += feature.count
            return
        }
        var geometry: Geometry?
        var direct: FlatBufferBuilder.Table?
        if !hasZ, let range = wkb {
            direct = FlatGeobufEncoding.lineOrPolygonTable(row, range, typed: geometryType == 0)
        }
        if direct == nil, let range = wkb {
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
        if let direct {
            table.add(0, .table(direct))
        } else if let geometry {
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
