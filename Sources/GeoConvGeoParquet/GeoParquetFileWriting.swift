import GeoConvCore
import GeoConvIO
import GeoConvParquet
import GeoConvRows
import GeoConvBytes

/// The end of writing: the columns' types settled, the spooled rows written a row group at
/// a time, then the footer with the `geo` metadata.
struct GeoParquetFileWriting {
    let state: GeoParquetWriting
    let chunks: ParquetChunkWriter
    /// The property columns' names as written (a property named `geometry` or `bbox` is renamed).
    let names: [String]
    let types: [ColumnType]
    var position: Int64 = 0
    var rowGroups: [ParquetRowGroup] = []
    /// The row group handed to `SideWork` (written on another thread when the converter
    /// has one to spare).
    private var writing: SideWork.Pending<Result<ParquetRowGroup, GeoConvError>>?

    init(_ state: GeoParquetWriting) {
        self.state = state
        chunks = ParquetChunkWriter(codec: state.codec)
        types = state.rows.columns.map(\.kinds.columnType)
        var taken = Set(state.rows.columns.map(\.name))
        names = state.rows.columns.map { column in
            guard column.name == "geometry" || column.name == "bbox" else { return column.name }
            var n = 2
            while taken.contains("\(column.name)_\(n)") { n += 1 }
            taken.insert("\(column.name)_\(n)")
            return "\(column.name)_\(n)"
        }
    }

    mutating func write() throws(GeoConvError) {
        // On every way out, an error's too, no row group is left writing into the output
        // (which the caller then discards).
        defer { _ = writing?.value() }
        let diagnostics = state.diagnostics
        for (index, column) in state.rows.columns.enumerated() {
            if names[index] != column.name {
                try diagnostics.warn(
                    GeoParquetCode.columnRenamed,
                    "the property \"\(column.name)\" is written as \"\(names[index])\": \"\(column.name)\" is the geometry's column"
                )
            }
            try SpooledRows.reportType(of: column, in: GeoParquetReports.self, diagnostics)
        }
        try emit(Array("PAR1".utf8))
        var builder = RowGroupBuilder(types: types, geometryBytes: state.options.rowGroupBytes)
        var failure: GeoConvError?
        let sortExtent = state.options.sortsRows ? state.rows.bounds : nil
        try Self.forEachRow(of: state.spool, sortedWithin: sortExtent) {
            (row: [UInt8], range: Range<Int>) throws(GeoConvError) in
            builder.add(row: row, range)
            if builder.rows >= state.options.rowGroupRows || builder.bytes >= state.options.rowGroupBytes {
                do throws(GeoConvError) {
                    try flush(&builder)
                } catch {
                    failure = error
                    throw error
                }
            }
        }
        if let failure { throw failure }
        if builder.rows > 0 { try flush(&builder) }
        try finishWritten()
        let crs = try state.crs.map { (crs) throws(GeoConvError) in try GeoParquetCRS.projJSON(for: crs) }
        var crsText: String?
        if let crs {
            var bytes: [UInt8] = []
            JSONText.append(crs, to: &bytes)
            crsText = String(decoding: bytes, as: UTF8.self)
        }
        let footer = ParquetFileMetadata(
            schema: schema(crs: crsText), rowCount: Int64(state.rows.rowCount), rowGroups: rowGroups,
            keyValues: [("geo", geoMetadata(crs: crs))], createdBy: "geoconv")
        let bytes = footer.encoded()
        try emit(bytes)
        var tail: [UInt8] = []
        ParquetChunkWriter.appendUInt32(UInt32(bytes.count), to: &tail)
        tail.append(contentsOf: "PAR1".utf8)
        try emit(tail)
        try state.output.flush()
    }

    /// Calls `body` with each spooled row (the bytes it is in, its range), in the order
    /// written; with `extent`, in the order of the boxes' centres along a Hilbert curve over
    /// it (rows without a box first), sorted with bounded memory (`HilbertSortedRows`).
    static func forEachRow(
        of spool: Spool, sortedWithin extent: (Double, Double, Double, Double)?,
        _ body: ([UInt8], Range<Int>) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        guard let extent else { return try forEachFramedRow(in: spool, body) }
        var sorted = HilbertSortedRows()
        try forEachFramedRow(in: spool) { (bytes: [UInt8], range: Range<Int>) throws(GeoConvError) in
            var cursor = range.lowerBound
            let box = SpooledRow.geometryPart(bytes, &cursor).box
            let hilbert =
                box.map { b in
                    HilbertCurve.index(centerX: (b.0 + b.2) / 2, centerY: (b.1 + b.3) / 2, extent: extent)
                } ?? 0
            try sorted.add(bytes[range], hilbert: hilbert)
        }
        try sorted.finishAdding()
        var row: [UInt8] = []
        while try sorted.next(into: &row) { try body(row, 0..<row.count) }
    }

    /// Calls `body` with each framed row of `spool` (`varint(length)` then the row), in order:
    /// the bytes it is in and its range.
    private static func forEachFramedRow(
        in spool: Spool, _ body: ([UInt8], Range<Int>) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        var pending: [UInt8] = []
        try spool.drain { (chunk: [UInt8]) throws(GeoConvError) in
            pending.append(contentsOf: chunk)
            var start = 0
            while true {
                var at = start
                guard let length = SpooledRow.readVarint(pending, &at), at + Int(length) <= pending.count else { break }
                try body(pending, at..<(at + Int(length)))
                start = at + Int(length)
            }
            pending.removeFirst(start)
        }
    }

    private mutating func emit(_ bytes: [UInt8]) throws(GeoConvError) {
        try state.output.write(bytes)
        position += Int64(bytes.count)
    }

    /// Hands the row group the builder holds to the options' `SideWork` (another thread, with
    /// `--jobs`), which encodes, compresses and writes it, and empties the builder; the group
    /// handed over before is waited for first. One at a time: the next group is built while
    /// one is written, and nothing else writes to the output meanwhile (the group's place in
    /// the file is known when it starts).
    private mutating func flush(_ builder: inout RowGroupBuilder) throws(GeoConvError) {
        try finishWritten()
        let group = builder
        let names = names
        let types = types
        let chunks = chunks
        let output = state.output
        let start = position
        let version = state.options.version
        writing = state.options.sideWork.hand {
            Self.write(group, names: names, types: types, version: version, chunks: chunks, into: output, at: start)
        }
        builder.clear()
    }

    /// Waits for the row group being written, if any, and notes it.
    private mutating func finishWritten() throws(GeoConvError) {
        guard let task = writing else { return }
        writing = nil
        let group = try task.value().get()
        rowGroups.append(group)
        position += group.totalCompressedSize ?? 0
    }

    /// Writes a row group's column chunks, encoded and compressed, into `output` from file
    /// position `start`; its metadata. The builder's arrays are let go as their chunks are
    /// written.
    static func write(
        _ builder: consuming RowGroupBuilder, names: [String], types: [ColumnType], version: GeoParquetVersion,
        chunks: ParquetChunkWriter, into output: ByteWriter, at start: Int64
    ) -> Result<ParquetRowGroup, GeoConvError> {
        var group = builder
        var metadata: [ParquetColumnMetadata] = []
        var written: Int64 = 0
        let emitter: ([UInt8]) throws(GeoConvError) -> Void = { bytes throws(GeoConvError) in
            try output.write(bytes)
            written += Int64(bytes.count)
        }
        do throws(GeoConvError) {
            for index in group.columns.indices {
                let leaf = group.columns[index]
                group.columns[index] = RowGroupBuilder.Column(type: leaf.type)
                metadata.append(
                    try chunks.write(
                        path: [names[index]], values: leaf.values, present: leaf.present,
                        statistics: types[index] != .boolean && types[index] != .uint64, offset: start + written,
                        emit: emitter))
            }
            let geometry = group.geometry
            let ends = group.geometryEnds
            let geospatial = version.isNative ? group.geospatialStatistics : nil
            (group.geometry, group.geometryEnds) = ([], [])
            var geometryChunk = try chunks.write(
                path: ["geometry"], values: .bytes(geometry, ends: ends), present: group.hasGeometry,
                statistics: false, dictionary: false, offset: start + written, emit: emitter)
            geometryChunk.geospatialStatistics = geospatial
            metadata.append(geometryChunk)
            for (k, name) in ["xmin", "ymin", "xmax", "ymax"].enumerated() where version.hasCovering {
                metadata.append(
                    try chunks.write(
                        path: ["bbox", name], values: .double(group.box[k]), present: group.hasBox, statistics: true,
                        offset: start + written, emit: emitter))
            }
        } catch {
            return .failure(error)
        }
        return .success(
            ParquetRowGroup(
                columns: metadata, totalByteSize: metadata.reduce(0) { $0 + $1.uncompressedSize },
                rowCount: Int64(group.rows),
                fileOffset: start, totalCompressedSize: written))
    }

    /// The schema, depth first: the root, the properties, `geometry` (optional binary, of the
    /// GEOMETRY type in 2.0, its CRS given as `crs`, PROJJSON text) and `bbox` (an optional
    /// group of four required doubles; not in 2.0).
    func schema(crs: String?) -> [ParquetSchemaElement] {
        let version = state.options.version
        var elements = [
            ParquetSchemaElement(name: "schema", childCount: Int32(names.count + (version.hasCovering ? 2 : 1)))
        ]
        for (index, name) in names.enumerated() {
            var element = ParquetSchemaElement(repetition: .optional, name: name)
            switch types[index] {
            case .boolean: element.type = .boolean
            case .int64: element.type = .int64
            case .uint64:
                element.type = .int64
                element.convertedType = 14  // UINT_64
                element.annotation = .integer(bits: 64, signed: false)
            case .double: element.type = .double
            case .text:
                element.type = .byteArray
                element.convertedType = 0  // UTF8
                element.annotation = .string
            }
            elements.append(element)
        }
        var geometry = ParquetSchemaElement(type: .byteArray, repetition: .optional, name: "geometry")
        if version.isNative { geometry.annotation = .geometry(crs: crs, isGeography: false) }
        elements.append(geometry)
        guard version.hasCovering else { return elements }
        elements.append(ParquetSchemaElement(repetition: .optional, name: "bbox", childCount: 4))
        for name in ["xmin", "ymin", "xmax", "ymax"] {
            elements.append(ParquetSchemaElement(type: .double, repetition: .required, name: name))
        }
        return elements
    }

    /// The `geo` key's JSON: GeoParquet 1.1 metadata with its covering, or 2.0's without;
    /// `crs` the CRS as PROJJSON (`nil` for WGS84).
    func geoMetadata(crs: JSONValue?) -> String {
        let version = state.options.version
        var column: [(String, JSONValue)] = [("encoding", .string("WKB"))]
        column.append(("geometry_types", .array(state.rows.geometryTypes.map { .string($0) })))
        if let crs { column.append(("crs", crs)) }
        if let b = state.rows.bounds {
            column.append(("bbox", .array([b.0, b.1, b.2, b.3].compactMap { JSONNumber($0).map(JSONValue.number) })))
        }
        let covering: JSONValue = .object(
            JSONObject(
                uniqueKeysWithValues: ["xmin", "ymin", "xmax", "ymax"].map {
                    ($0, JSONValue.array([.string("bbox"), .string($0)]))
                }))
        if version.hasCovering { column.append(("covering", .object(["bbox": covering]))) }
        let geo: JSONValue = .object([
            "version": .string(version.hasCovering ? "1.1.0" : "2.0.0"),
            "primary_column": .string("geometry"),
            "columns": .object(["geometry": .object(JSONObject(uniqueKeysWithValues: column))]),
        ])
        var text: [UInt8] = []
        JSONText.append(geo, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}

/// One row group's values, column by column, decoded from the spooled rows.
struct RowGroupBuilder {
    struct Column {
        let type: ColumnType
        var present: [Bool] = []
        var integers: [Int64] = []
        var reals: [Double] = []
        var flags: [Bool] = []
        var text: [UInt8] = []
        var ends: [Int] = []

        var values: LeafValues {
            switch type {
            case .boolean: .boolean(flags)
            case .int64, .uint64: .int64(integers)
            case .double: .double(reals)
            case .text: .bytes(text, ends: ends)
            }
        }
    }

    let types: [ColumnType]
    var columns: [Column]
    var geometry: [UInt8] = []
    var geometryEnds: [Int] = []
    var hasGeometry: [Bool] = []
    var box: [[Double]] = [[], [], [], []]
    var hasBox: [Bool] = []
    /// The WKB type codes of the group's geometries (for its geospatial statistics).
    var geometryTypes: [Int32] = []
    var rows = 0
    /// About the bytes of values held.
    var bytes = 0
    private var rowCells: [Range<Int>?]

    /// The geometry bytes a row group holds about at most (past half of it, room is reserved for
    /// them, so that growing the array does not double it past the limit).
    let geometryBytes: Int

    /// A builder whose arrays have room for `expectedRows` rows (the group before's: the
    /// next is filled without growing them).
    init(types: [ColumnType], geometryBytes: Int, expectedRows: Int = 0) {
        self.types = types
        self.geometryBytes = geometryBytes
        columns = types.map { Column(type: $0) }
        rowCells = Array(repeating: nil, count: types.count)
        guard expectedRows > 0 else { return }
        geometryEnds.reserveCapacity(expectedRows)
        hasGeometry.reserveCapacity(expectedRows)
        hasBox.reserveCapacity(expectedRows)
        for k in box.indices { box[k].reserveCapacity(expectedRows) }
        for index in columns.indices {
            columns[index].present.reserveCapacity(expectedRows)
            switch columns[index].type {
            case .boolean: columns[index].flags.reserveCapacity(expectedRows)
            case .int64, .uint64: columns[index].integers.reserveCapacity(expectedRows)
            case .double: columns[index].reals.reserveCapacity(expectedRows)
            case .text: columns[index].ends.reserveCapacity(expectedRows)
            }
        }
    }

    /// Notes the type code of the WKB starting at `at` (1–7, plus 1000 with Z).
    private mutating func noteType(_ bytes: [UInt8], at: Int) {
        let little = bytes[at] == 1
        var code: UInt32 = 0
        for k in 0..<4 {
            let byte = UInt32(bytes[at + 1 + k])
            code |= little ? byte << (8 * UInt32(k)) : byte << (8 * UInt32(3 - k))
        }
        let type = Int32(truncatingIfNeeded: code)
        if geometryTypes.last != type, !geometryTypes.contains(type) { geometryTypes.append(type) }
    }

    /// The group's geospatial statistics: the box around its geometries and their types.
    var geospatialStatistics: ParquetGeospatialStatistics {
        var bounds: (Double, Double, Double, Double)?
        var index = 0
        for boxed in hasBox where boxed {
            let (w, s, e, n) = (box[0][index], box[1][index], box[2][index], box[3][index])
            bounds = bounds.map { (min($0.0, w), max($0.1, e), min($0.2, s), max($0.3, n)) } ?? (w, e, s, n)
            index += 1
        }
        return ParquetGeospatialStatistics(box: bounds, types: geometryTypes.sorted())
    }

    /// Empties the builder for the next group (of about as many rows).
    mutating func clear() {
        self = RowGroupBuilder(types: types, geometryBytes: geometryBytes, expectedRows: rows)
    }

    /// Adds the spooled row `range` of `bytes` (its framing checked when it was written).
    mutating func add(row bytes: [UInt8], _ range: Range<Int>) {
        var at = range.lowerBound
        rows += 1
        let wkbLength = Int(SpooledRow.readVarint(bytes, &at) ?? 0)
        if wkbLength > 0 {
            // Past half the limit, the array is given what it needs, not doubled: to the limit,
            // then exactly room for the row that crosses it (the group's last).
            let needed = geometry.count + wkbLength
            if needed > geometry.capacity, needed > geometryBytes / 2 {
                geometry.reserveCapacity(max(needed, geometryBytes))
            }
            geometry.append(contentsOf: bytes[at..<(at + wkbLength - 1)])
            if wkbLength > 5 { noteType(bytes, at: at) }
            geometryEnds.append(geometry.count)
            hasGeometry.append(true)
            at += wkbLength - 1
            self.bytes += wkbLength
        } else {
            hasGeometry.append(false)
        }
        let boxed = bytes[at] == 1
        at += 1
        hasBox.append(boxed)
        if boxed {
            for k in 0..<4 { box[k].append(SpooledRow.readDouble(bytes, &at)) }
            self.bytes += 32
        }
        for index in rowCells.indices { rowCells[index] = nil }
        let cellCount = Int(SpooledRow.readVarint(bytes, &at) ?? 0)
        for _ in 0..<cellCount {
            let slot = Int(SpooledRow.readVarint(bytes, &at) ?? 0)
            let start = at
            at = SpooledRow.valueEnd(bytes, at)
            rowCells[slot] = start..<at
        }
        for index in columns.indices {
            guard let cell = rowCells[index], bytes[cell.lowerBound] != SpooledValue.tagNull else {
                columns[index].present.append(false)
                continue
            }
            columns[index].present.append(true)
            append(bytes, cell, to: index)
        }
    }

    private mutating func append(_ bytes: [UInt8], _ cell: Range<Int>, to index: Int) {
        var at = cell.lowerBound + 1
        let tag = bytes[cell.lowerBound]
        switch columns[index].type {
        case .boolean:
            columns[index].flags.append(tag == SpooledValue.tagTrue)
            self.bytes += 1
        case .int64:
            columns[index].integers.append(SpooledRow.integer(bytes, &at))
            self.bytes += 8
        case .uint64:
            columns[index].integers.append(Int64(bitPattern: SpooledRow.unsignedInteger(tag, bytes, &at)))
            self.bytes += 8
        case .double:
            columns[index].reals.append(SpooledRow.real(tag, bytes, &at))
            self.bytes += 8
        case .text:
            let before = columns[index].text.count
            SpooledRow.appendText(tag, bytes, &at, to: &columns[index].text)
            columns[index].ends.append(columns[index].text.count)
            self.bytes += 4 + columns[index].text.count - before
        }
    }
}
