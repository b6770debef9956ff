package import GeoConvCore

/// Decoding the footer and page headers from the compact protocol.
extension ParquetFileMetadata {
    package init(decoding bytes: UnsafeRawBufferPointer, at base: Int) throws(GeoConvError) {
        var r = ThriftReader(bytes, base: base)
        var version: Int32 = 1
        var rowCount: Int64 = 0
        var createdBy: String?
        var schema: [ParquetSchemaElement] = []
        var rowGroups: [ParquetRowGroup] = []
        var keyValues: [(String, String?)] = []
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32): version = try r.i32()
            case (2, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { schema.append(try ParquetSchemaElement(&r)) }
            case (3, .i64): rowCount = try r.i64()
            case (4, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { rowGroups.append(try ParquetRowGroup(&r)) }
            case (5, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count {
                    try r.beginStruct()
                    var key = ""
                    var value: String?
                    while let (field, fieldType) = try r.field() {
                        switch (field, fieldType) {
                        case (1, .binary): key = try r.string()
                        case (2, .binary): value = try r.string()
                        default: try r.skip(fieldType)
                        }
                    }
                    r.endStruct()
                    keyValues.append((key, value))
                }
            case (6, .binary): createdBy = try r.string()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        guard !schema.isEmpty else { throw r.failure("the schema is empty") }
        self.init(
            version: version, schema: schema, rowCount: rowCount, rowGroups: rowGroups, keyValues: keyValues,
            createdBy: createdBy)
    }
}

extension ParquetSchemaElement {
    package init(_ r: inout ThriftReader) throws(GeoConvError) {
        self.init(name: "")
        var logical: ParquetAnnotation?
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32):
                let raw = try r.i32()
                guard let known = ParquetType(rawValue: raw) else { throw r.failure("unknown physical type \(raw)") }
                self.type = known
            case (2, .i32): typeLength = try r.i32()
            case (3, .i32): repetition = ParquetRepetition(rawValue: try r.i32())
            case (4, .binary): name = try r.string()
            case (5, .i32): childCount = try r.i32()
            case (6, .i32): convertedType = try r.i32()
            case (7, .i32): scale = try r.i32()
            case (8, .i32): precision = try r.i32()
            case (10, .structure): logical = try Self.logicalType(&r)
            default: try r.skip(type)
            }
        }
        r.endStruct()
        annotation = logical ?? Self.annotation(converted: convertedType, scale: scale)
    }

    /// The legacy converted type's meaning (parquet-format's `ConvertedType`).
    package static func annotation(converted: Int32?, scale: Int32?) -> ParquetAnnotation {
        switch converted {
        case 0: .string
        case 1, 2: .map  // MAP, MAP_KEY_VALUE
        case 3: .list
        case 4: .enumeration
        case 5: .decimal(scale: scale ?? 0)
        case 6: .date
        case 7: .time(unitsPerSecond: 1000)
        case 8: .time(unitsPerSecond: 1_000_000)
        case 9: .timestamp(unitsPerSecond: 1000, isUTC: true)
        case 10: .timestamp(unitsPerSecond: 1_000_000, isUTC: true)
        case 11: .integer(bits: 8, signed: false)
        case 12: .integer(bits: 16, signed: false)
        case 13: .integer(bits: 32, signed: false)
        case 14: .integer(bits: 64, signed: false)
        case 15: .integer(bits: 8, signed: true)
        case 16: .integer(bits: 16, signed: true)
        case 17: .integer(bits: 32, signed: true)
        case 18: .integer(bits: 64, signed: true)
        case 19: .json
        case 20: .bson
        default: .none
        }
    }

    /// The LogicalType union (field 10).
    package static func logicalType(_ r: inout ThriftReader) throws(GeoConvError) -> ParquetAnnotation? {
        var result: ParquetAnnotation?
        try r.beginStruct()
        while let (id, type) = try r.field() {
            guard type == .structure else {
                try r.skip(type)
                continue
            }
            switch id {
            case 1: result = .string
            case 2: result = .map
            case 3: result = .list
            case 4: result = .enumeration
            case 6: result = .date
            case 11: result = .unknown
            case 12: result = .json
            case 13: result = .bson
            case 14: result = .uuid
            case 15: result = .float16
            case 5:  // DecimalType { 1: scale, 2: precision }
                var scale: Int32 = 0
                try r.beginStruct()
                while let (field, fieldType) = try r.field() {
                    if field == 1, fieldType == .i32 { scale = try r.i32() } else { try r.skip(fieldType) }
                }
                r.endStruct()
                result = .decimal(scale: scale)
                continue
            case 7, 8:  // TimeType, TimestampType { 1: isAdjustedToUTC, 2: unit }
                var utc = false
                var units: Int64 = 1000
                try r.beginStruct()
                while let (field, fieldType) = try r.field() {
                    switch (field, fieldType) {
                    case (1, .boolTrue): utc = true
                    case (1, .boolFalse): utc = false
                    case (2, .structure): units = try timeUnit(&r)
                    default: try r.skip(fieldType)
                    }
                }
                r.endStruct()
                result = id == 7 ? .time(unitsPerSecond: units) : .timestamp(unitsPerSecond: units, isUTC: utc)
                continue
            case 17, 18:  // GeometryType { 1: crs }, GeographyType { 1: crs, 2: algorithm }
                var crs: String?
                try r.beginStruct()
                while let (field, fieldType) = try r.field() {
                    if field == 1, fieldType == .binary { crs = try r.string() } else { try r.skip(fieldType) }
                }
                r.endStruct()
                result = .geometry(crs: crs, isGeography: id == 18)
                continue
            case 10:  // IntType { 1: bitWidth (byte), 2: isSigned }
                var bits = 64
                var signed = true
                try r.beginStruct()
                while let (field, fieldType) = try r.field() {
                    switch (field, fieldType) {
                    case (1, .byte): bits = Int(try r.byte())
                    case (2, .boolTrue): signed = true
                    case (2, .boolFalse): signed = false
                    default: try r.skip(fieldType)
                    }
                }
                r.endStruct()
                result = .integer(bits: bits, signed: signed)
                continue
            default: break
            }
            try r.skip(type)
        }
        r.endStruct()
        return result
    }

    /// TimeUnit union: 1 MILLIS, 2 MICROS, 3 NANOS.
    package static func timeUnit(_ r: inout ThriftReader) throws(GeoConvError) -> Int64 {
        var units: Int64 = 1000
        try r.beginStruct()
        while let (field, fieldType) = try r.field() {
            switch field {
            case 2: units = 1_000_000
            case 3: units = 1_000_000_000
            default: units = 1000
            }
            try r.skip(fieldType)
        }
        r.endStruct()
        return units
    }
}

extension ParquetStatistics {
    package init(_ r: inout ThriftReader) throws(GeoConvError) {
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (3, .i64): nullCount = try r.i64()
            case (5, .binary): maxValue = try r.binary()
            case (6, .binary): minValue = try r.binary()
            default: try r.skip(type)
            }
        }
        r.endStruct()
    }
}

extension ParquetRowGroup {
    package init(_ r: inout ThriftReader) throws(GeoConvError) {
        self.init(columns: [], totalByteSize: 0, rowCount: 0)
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { columns.append(try Self.columnChunk(&r)) }
            case (2, .i64): totalByteSize = try r.i64()
            case (3, .i64): rowCount = try r.i64()
            case (5, .i64): fileOffset = try r.i64()
            case (6, .i64): totalCompressedSize = try r.i64()
            default: try r.skip(type)
            }
        }
        r.endStruct()
    }

    /// A ColumnChunk: its ColumnMetaData (field 3) is what is read; a chunk in another file
    /// (`file_path`) is refused.
    package static func columnChunk(_ r: inout ThriftReader) throws(GeoConvError) -> ParquetColumnMetadata {
        var metadata: ParquetColumnMetadata?
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .binary):
                let path = try r.string()
                throw GeoConvError(
                    .unsupported, "a column chunk is in another file ('\(path)')",
                    hint: "give geoconv that file's data in one Parquet file")
            case (3, .structure): metadata = try columnMetadata(&r)
            default: try r.skip(type)
            }
        }
        r.endStruct()
        guard let metadata else { throw r.failure("a column chunk has no metadata") }
        return metadata
    }

    package static func columnMetadata(_ r: inout ThriftReader) throws(GeoConvError) -> ParquetColumnMetadata {
        var m = ParquetColumnMetadata(
            type: .int32, encodings: [], path: [], codec: .uncompressed, valueCount: 0, uncompressedSize: 0,
            compressedSize: 0, dataPageOffset: 0)
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32): m.type = ParquetType(rawValue: try r.i32()) ?? .int32
            case (2, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { if let e = ParquetEncoding(rawValue: try r.i32()) { m.encodings.append(e) } }
            case (3, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { m.path.append(try r.string()) }
            case (4, .i32):
                let raw = try r.i32()
                guard let codec = ParquetCodec(rawValue: raw) else {
                    throw r.failure("unknown compression codec \(raw)")
                }
                m.codec = codec
            case (5, .i64): m.valueCount = try r.i64()
            case (6, .i64): m.uncompressedSize = try r.i64()
            case (7, .i64): m.compressedSize = try r.i64()
            case (9, .i64): m.dataPageOffset = try r.i64()
            case (11, .i64): m.dictionaryPageOffset = try r.i64()
            case (12, .structure): m.statistics = try ParquetStatistics(&r)
            default: try r.skip(type)
            }
        }
        r.endStruct()
        return m
    }
}

extension ParquetPageHeader {
    /// Decodes a page header at the start of `bytes`; also returns its length.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer,
        at base: Int
    ) throws(GeoConvError) -> (ParquetPageHeader, length: Int) {
        var r = ThriftReader(bytes, base: base)
        var header = ParquetPageHeader(type: .dataPage, uncompressedSize: 0, compressedSize: 0)
        var sawType = false
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32):
                let raw = try r.i32()
                guard let page = ParquetPageType(rawValue: raw) else { throw r.failure("unknown page type \(raw)") }
                header.type = page
                sawType = true
            case (2, .i32): header.uncompressedSize = try r.i32()
            case (3, .i32): header.compressedSize = try r.i32()
            case (5, .structure), (7, .structure), (8, .structure):
                try r.beginStruct()
                while let (field, fieldType) = try r.field() {
                    switch (id, field, fieldType) {
                    case (_, 1, .i32): header.valueCount = try r.i32()
                    case (5, 2, .i32), (7, 2, .i32):
                        let raw = try r.i32()
                        guard let encoding = ParquetEncoding(rawValue: raw) else {
                            throw r.failure("unknown encoding \(raw)")
                        }
                        header.encoding = encoding
                    case (8, 2, .i32): header.nullCount = try r.i32()
                    case (8, 3, .i32): header.rowCount = try r.i32()
                    case (8, 4, .i32):
                        let raw = try r.i32()
                        guard let encoding = ParquetEncoding(rawValue: raw) else {
                            throw r.failure("unknown encoding \(raw)")
                        }
                        header.encoding = encoding
                    case (8, 5, .i32): header.definitionLevelsLength = try r.i32()
                    case (8, 6, .i32): header.repetitionLevelsLength = try r.i32()
                    case (8, 7, .boolFalse): header.valuesCompressed = false
                    case (8, 7, .boolTrue): header.valuesCompressed = true
                    default: try r.skip(fieldType)
                    }
                }
                r.endStruct()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        guard sawType, header.compressedSize >= 0, header.uncompressedSize >= 0, header.valueCount >= 0,
            header.nullCount >= 0, header.rowCount >= 0,
            header.definitionLevelsLength >= 0, header.repetitionLevelsLength >= 0
        else { throw r.failure("a page header without a type, or with a negative size or count") }
        return (header, r.offset)
    }
}
