import GeoConvCore

/// A FlatGeobuf file's header (the `Header` table of `header.fbs`): the layer's name and
/// description, its geometry type and dimensions, its columns, feature count, index node
/// size and CRS.
struct FlatGeobufHeader {
    /// A column (the `Column` table): its name and value type.
    struct Column {
        var name: String
        var type: ColumnType
    }

    /// `ColumnType`, by its number in the schema.
    enum ColumnType: UInt8 {
        case byte = 0, unsignedByte, bool, short, unsignedShort, int, unsignedInt, long, unsignedLong, float, double
        case string, json, dateTime, binary

        /// How many bytes a value takes, `nil` for the ones with a length prefix.
        var fixedSize: Int? {
            switch self {
            case .byte, .unsignedByte, .bool: 1
            case .short, .unsignedShort: 2
            case .int, .unsignedInt, .float: 4
            case .long, .unsignedLong, .double: 8
            case .string, .json, .dateTime, .binary: nil
            }
        }
    }

    var name: String?
    var description: String?
    var title: String?
    /// The features' geometry type (`GeometryType`; 0, Unknown, when each feature says its own).
    var geometryType: UInt8
    var hasZ: Bool
    var hasM: Bool
    var hasT: Bool
    var hasTM: Bool
    var columns: [Column]
    /// How many features the file says it holds (0: unknown, as when written in a stream).
    var featuresCount: UInt64
    /// The packed R-tree's node size; 0 when there is no index.
    var indexNodeSize: Int
    /// The CRS as geoconv names it (`EPSG:25832`, else its WKT), `nil` for none or WGS84.
    var crs: String?
    /// The CRS the header names but geoconv cannot place (a name or organisation without a
    /// code or WKT), to be reported.
    var unplacedCRS: String?

    /// The magic bytes: "fgb", the major version 3, "fgb", the patch version.
    static let magicPrefix: [UInt8] = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62]

    init(_ table: FlatBufferTable) throws(GeoConvError) {
        name = try table.string(0)
        geometryType = try table.uint8(2)
        hasZ = try table.uint8(3) != 0
        hasM = try table.uint8(4) != 0
        hasT = try table.uint8(5) != 0
        hasTM = try table.uint8(6) != 0
        columns = try Self.columns(in: table, field: 7)
        featuresCount = try table.uint64(8, default: 0)
        indexNodeSize = try table.uint16(9, default: 16)
        title = try table.string(11)
        description = try table.string(12)
        if let crs = try table.table(10) {
            let organisation = try crs.string(0)
            let code = try crs.int32(1, default: 0)
            let codeString = try crs.string(5)
            let wkt = try crs.string(4)
            if (organisation == nil || organisation?.uppercased() == "EPSG") && code > 0 {
                self.crs = code == 4326 ? nil : "EPSG:\(code)"
            } else if let organisation, let codeString, !codeString.isEmpty {
                self.crs = "\(organisation):\(codeString)"
            } else if let organisation, code > 0 {
                self.crs = "\(organisation):\(code)"  // (ESRI:102645: PROJ knows it, as GDAL reads it)
            } else if let wkt, !wkt.isEmpty {
                self.crs = wkt
            } else if let name = try crs.string(2) ?? organisation {
                unplacedCRS = name
            }
        }
    }

    /// The `Column` tables of `table`'s vector field `field` (the header's, or a feature's own).
    static func columns(in table: FlatBufferTable, field: Int) throws(GeoConvError) -> [Column] {
        var columns: [Column] = []
        for column in try table.tables(field) {
            let raw = try column.uint8(1)
            guard let type = ColumnType(rawValue: raw) else {
                throw GeoConvError(
                    .invalidInput, "a column has the type number \(raw), which FlatGeobuf does not define",
                    at: SourceLocation(file: table.file, byteOffset: table.base + column.position))
            }
            columns.append(Column(name: try column.string(0) ?? "", type: type))
        }
        return columns
    }

    /// The bytes of the packed Hilbert R-tree that follows the header: 40 bytes a node, the
    /// features' level and every level above it (0 without an index or features); `nil` for a
    /// feature count no file can hold (2^40 features or more).
    var indexSize: Int? {
        guard indexNodeSize > 0, featuresCount > 0 else { return 0 }
        guard featuresCount < 1 << 40 else { return nil }
        let nodeSize = min(max(indexNodeSize, 2), 65_535)
        var count = Int(featuresCount)
        var nodes = count
        repeat {
            count = (count + nodeSize - 1) / nodeSize
            nodes += count
        } while count != 1
        return nodes * 40
    }
}
