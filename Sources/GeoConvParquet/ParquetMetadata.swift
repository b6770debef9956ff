import GeoConvCore

/// The parts of Parquet's footer and page headers (parquet-format's `parquet.thrift`) that
/// geoconv writes and reads; fields it does not know are skipped when reading.
package enum ParquetType: Int32 {
    case boolean = 0
    case int32 = 1
    case int64 = 2
    case int96 = 3
    case float = 4
    case double = 5
    case byteArray = 6
    case fixedLenByteArray = 7
}

package enum ParquetRepetition: Int32 {
    case required = 0
    case optional = 1
    case repeated = 2
}

package enum ParquetEncoding: Int32 {
    case plain = 0
    case plainDictionary = 2
    case rle = 3
    case bitPacked = 4
    case deltaBinaryPacked = 5
    case deltaLengthByteArray = 6
    case deltaByteArray = 7
    case
        rleDictionary = 8
    case byteStreamSplit = 9
}

package enum ParquetCodec: Int32 {
    case uncompressed = 0
    case snappy = 1
    case gzip = 2
    case lzo = 3
    case brotli = 4
    case lz4 = 5
    case zstd = 6
    case lz4Raw = 7

    package var name: String {
        switch self {
        case .uncompressed: "none"
        case .snappy: "snappy"
        case .gzip: "gzip"
        case .lzo: "lzo"
        case .brotli: "brotli"
        case .lz4: "lz4"
        case .zstd: "zstd"
        case .lz4Raw: "lz4_raw"
        }
    }
}

package enum ParquetPageType: Int32 {
    case dataPage = 0
    case indexPage = 1
    case dictionaryPage = 2
    case dataPageV2 = 3
}

/// The converted (legacy) and logical annotations geoconv reads a column's values by.
package enum ParquetAnnotation: Equatable {
    case none
    case string, json, bson, enumeration
    case date
    /// Milliseconds, microseconds or nanoseconds since the epoch (`isUTC` when adjusted to UTC).
    case timestamp(unitsPerSecond: Int64, isUTC: Bool)
    case time(unitsPerSecond: Int64)
    case decimal(scale: Int32)
    case integer(bits: Int, signed: Bool)
    case uuid
    case float16
    case unknown  // the Null logical type: every value null
    /// Parquet's own GEOMETRY (planar edges) or GEOGRAPHY (spherical edges) logical type: WKB
    /// values in the CRS `crs` says (`nil`: OGC:CRS84; `srid:N`, `projjson:KEY` naming a
    /// key of the file's metadata, or the CRS itself — PROJJSON, WKT2, `EPSG:n`).
    case geometry(crs: String?, isGeography: Bool)
    /// A group of one repeated group or field: a list; of repeated key-value pairs: a map.
    case list, map
}

/// One node of the schema: a leaf column or a group (`childCount` > 0 or no type).
package struct ParquetSchemaElement {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(
        type: ParquetType? = nil, typeLength: Int32? = nil, repetition: ParquetRepetition? = nil,
        name: String, childCount: Int32? = nil, convertedType: Int32? = nil, scale: Int32? = nil,
        precision: Int32? = nil, annotation: ParquetAnnotation = .none
    ) {
        self.type = type
        self.typeLength = typeLength
        self.repetition = repetition
        self.name = name
        self.childCount = childCount
        self.convertedType = convertedType
        self.scale = scale
        self.precision = precision
        self.annotation = annotation
    }

    package var type: ParquetType?
    package var typeLength: Int32?
    package var repetition: ParquetRepetition?
    package var name: String
    package var childCount: Int32?
    package var convertedType: Int32?
    package var scale: Int32?
    package var precision: Int32?
    package var annotation: ParquetAnnotation = .none
}

package struct ParquetStatistics {
    package var nullCount: Int64?
    package var minValue: [UInt8]?
    package var maxValue: [UInt8]?
}

/// A column chunk's geospatial statistics (Parquet 2.11's `GeospatialStatistics`, for a
/// GEOMETRY or GEOGRAPHY column): the box of its values' x and y, and the WKB type codes
/// met (ISO: 1–7, plus 1000 with Z).
package struct ParquetGeospatialStatistics {
    /// West, east, south, north: `xmin`, `xmax`, `ymin`, `ymax`.
    package var box: (Double, Double, Double, Double)?
    package var types: [Int32]

    package init(box: (Double, Double, Double, Double)?, types: [Int32]) {
        self.box = box
        self.types = types
    }

    /// Writes the struct as field `id`.
    package func write(_ id: Int16, to w: inout ThriftWriter) {
        w.beginStruct(id)
        if let box {
            w.beginStruct(1)  // BoundingBox { 1: xmin, 2: xmax, 3: ymin, 4: ymax }
            w.double(1, box.0)
            w.double(2, box.1)
            w.double(3, box.2)
            w.double(4, box.3)
            w.endStruct()
        }
        w.list(2, of: .i32, count: types.count)
        for type in types { w.elementI32(type) }
        w.endStruct()
    }
}

package struct ParquetColumnMetadata {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(
        type: ParquetType, encodings: [ParquetEncoding], path: [String], codec: ParquetCodec,
        valueCount: Int64, uncompressedSize: Int64, compressedSize: Int64, dataPageOffset: Int64,
        dictionaryPageOffset: Int64? = nil, statistics: ParquetStatistics? = nil
    ) {
        self.type = type
        self.encodings = encodings
        self.path = path
        self.codec = codec
        self.valueCount = valueCount
        self.uncompressedSize = uncompressedSize
        self.compressedSize = compressedSize
        self.dataPageOffset = dataPageOffset
        self.dictionaryPageOffset = dictionaryPageOffset
        self.statistics = statistics
    }

    package var type: ParquetType
    package var encodings: [ParquetEncoding]
    package var path: [String]
    package var codec: ParquetCodec
    package var valueCount: Int64
    package var uncompressedSize: Int64
    package var compressedSize: Int64
    package var dataPageOffset: Int64
    package var dictionaryPageOffset: Int64?
    package var statistics: ParquetStatistics?
    /// For a GEOMETRY or GEOGRAPHY column.
    package var geospatialStatistics: ParquetGeospatialStatistics?
}

package struct ParquetRowGroup {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(
        columns: [ParquetColumnMetadata], totalByteSize: Int64, rowCount: Int64, fileOffset: Int64? = nil,
        totalCompressedSize: Int64? = nil
    ) {
        self.columns = columns
        self.totalByteSize = totalByteSize
        self.rowCount = rowCount
        self.fileOffset = fileOffset
        self.totalCompressedSize = totalCompressedSize
    }

    package var columns: [ParquetColumnMetadata]
    package var totalByteSize: Int64
    package var rowCount: Int64
    package var fileOffset: Int64?
    package var totalCompressedSize: Int64?
}

package struct ParquetFileMetadata {
    /// Every stored property, as the memberwise initializer takes them (package-wide).
    package init(
        version: Int32 = 1, schema: [ParquetSchemaElement], rowCount: Int64, rowGroups: [ParquetRowGroup],
        keyValues: [(key: String, value: String?)], createdBy: String? = nil
    ) {
        self.version = version
        self.schema = schema
        self.rowCount = rowCount
        self.rowGroups = rowGroups
        self.keyValues = keyValues
        self.createdBy = createdBy
    }

    package var version: Int32 = 1
    package var schema: [ParquetSchemaElement]
    package var rowCount: Int64
    package var rowGroups: [ParquetRowGroup]
    package var keyValues: [(key: String, value: String?)]
    package var createdBy: String?
}

package struct ParquetPageHeader {
    package var type: ParquetPageType
    package var uncompressedSize: Int32
    package var compressedSize: Int32
    /// Data pages (v1 and v2) and dictionary pages: the number of values (v1, dictionary) or
    /// of rows' level entries (v2) and the encoding of the values.
    package var valueCount: Int32 = 0
    package var encoding: ParquetEncoding = .plain
    /// v2 only: nulls, rows, the byte lengths of the levels (never compressed), and whether
    /// the values are compressed.
    package var nullCount: Int32 = 0
    package var rowCount: Int32 = 0
    package var definitionLevelsLength: Int32 = 0
    package var repetitionLevelsLength: Int32 = 0
    package var valuesCompressed = true
    /// v1 statistics (written for data pages of numeric columns).
    package var statistics: ParquetStatistics?
}

// MARK: Writing

extension ParquetStatistics {
    package func write(_ id: Int16, to w: inout ThriftWriter) {
        w.beginStruct(id)
        if let nullCount { w.i64(3, nullCount) }
        if let maxValue { w.binary(5, maxValue) }
        if let minValue { w.binary(6, minValue) }
        w.endStruct()
    }
}

extension ParquetSchemaElement {
    package func write(to w: inout ThriftWriter) {
        w.beginElement()
        if let type { w.i32(1, type.rawValue) }
        if let typeLength { w.i32(2, typeLength) }
        if let repetition { w.i32(3, repetition.rawValue) }
        w.string(4, name)
        if let childCount { w.i32(5, childCount) }
        if let convertedType { w.i32(6, convertedType) }
        switch annotation {
        case .string:
            w.beginStruct(10)
            w.beginStruct(1)  // LogicalType.STRING: StringType {}
            w.endStruct()
            w.endStruct()
        case .json:
            w.beginStruct(10)
            w.beginStruct(12)  // LogicalType.JSON
            w.endStruct()
            w.endStruct()
        case .integer(let bits, let signed):
            w.beginStruct(10)
            w.beginStruct(10)  // LogicalType.INTEGER: IntType { 1: byte bitWidth, 2: bool isSigned }
            w.byte(1, UInt8(bits))
            w.bool(2, signed)
            w.endStruct()
            w.endStruct()
        case .geometry(let crs, let isGeography):
            w.beginStruct(10)
            w.beginStruct(isGeography ? 18 : 17)  // LogicalType.GEOMETRY / GEOGRAPHY { 1: crs }
            if let crs { w.string(1, crs) }
            w.endStruct()
            w.endStruct()
        default: break
        }
        w.endStruct()
    }
}

extension ParquetFileMetadata {
    /// The footer's bytes.
    package func encoded() -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, version)
        w.list(2, of: .structure, count: schema.count)
        for element in schema { element.write(to: &w) }
        w.i64(3, rowCount)
        w.list(4, of: .structure, count: rowGroups.count)
        for group in rowGroups {
            w.beginElement()
            w.list(1, of: .structure, count: group.columns.count)
            for column in group.columns {
                w.beginElement()
                w.i64(2, column.dictionaryPageOffset ?? column.dataPageOffset)  // file_offset: where the chunk starts
                w.beginStruct(3)
                w.i32(1, column.type.rawValue)
                w.list(2, of: .i32, count: column.encodings.count)
                for encoding in column.encodings { w.elementI32(encoding.rawValue) }
                w.list(3, of: .binary, count: column.path.count)
                for part in column.path { w.elementString(part) }
                w.i32(4, column.codec.rawValue)
                w.i64(5, column.valueCount)
                w.i64(6, column.uncompressedSize)
                w.i64(7, column.compressedSize)
                w.i64(9, column.dataPageOffset)
                if let offset = column.dictionaryPageOffset { w.i64(11, offset) }
                column.statistics?.write(12, to: &w)
                column.geospatialStatistics?.write(17, to: &w)
                w.endStruct()
                w.endStruct()
            }
            w.i64(2, group.totalByteSize)
            w.i64(3, group.rowCount)
            if let offset = group.fileOffset { w.i64(5, offset) }
            if let size = group.totalCompressedSize { w.i64(6, size) }
            w.endStruct()
        }
        if !keyValues.isEmpty {
            w.list(5, of: .structure, count: keyValues.count)
            for (key, value) in keyValues {
                w.beginElement()
                w.string(1, key)
                if let value { w.string(2, value) }
                w.endStruct()
            }
        }
        if let createdBy { w.string(6, createdBy) }
        // column_orders: every leaf by its type's order (TypeDefinedOrder), without which
        // readers do not trust min_value/max_value.
        let leafCount = schema.filter { $0.type != nil }.count
        w.list(7, of: .structure, count: leafCount)
        for _ in 0..<leafCount {
            w.beginElement()
            w.beginStruct(1)
            w.endStruct()
            w.endStruct()
        }
        return w.finish()
    }
}

extension ParquetPageHeader {
    package func encoded() -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, type.rawValue)
        w.i32(2, uncompressedSize)
        w.i32(3, compressedSize)
        switch type {
        case .dictionaryPage:
            w.beginStruct(7)
            w.i32(1, valueCount)
            w.i32(2, ParquetEncoding.plain.rawValue)
            w.endStruct()
        default:
            w.beginStruct(5)
            w.i32(1, valueCount)
            w.i32(2, encoding.rawValue)
            w.i32(3, ParquetEncoding.rle.rawValue)
            w.i32(4, ParquetEncoding.rle.rawValue)
            statistics?.write(5, to: &w)
            w.endStruct()
        }
        return w.finish()
    }
}
