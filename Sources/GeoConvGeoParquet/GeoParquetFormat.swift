import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO
import GeoConvParquet
import GeoConvProjection

/// The options GeoParquet's writer takes (`ConversionOptions.formatOptions`).
public enum GeoParquetOptions {
    /// The most rows in a row group.
    public static let rowGroupRows = FormatOption<Int>(
        name: "parquet-row-group", key: "ROW_GROUP_SIZE", sides: .write,
        help: "GeoParquet: the most rows in a row group (default 100000, as the GeoParquet guide advises; a row "
            + "group also ends past 8 MB of values).",
        valueName: "rows", allowed: ("a positive integer", { $0 > 0 }))
    /// Which GeoParquet: 1.1, 2.0 or both at once.
    public static let version = FormatOption<String>(
        name: "geoparquet-version", key: "GEOPARQUET_VERSION", sides: .write,
        help: "GeoParquet: 1.1 (plain WKB column and bbox covering), 2.0 (Parquet's GEOMETRY type and "
            + "row-group statistics) or BOTH (default: a 1.1 file whose geometry column also has the type).",
        valueName: "version",
        allowed: ("1.1, 2.0 or BOTH", { GeoParquetVersion(rawValue: $0.uppercased()) != nil }))
    /// Whether the rows are sorted along a Hilbert curve.
    public static let sortByBox = FormatOption<Bool>(
        name: "geoparquet-sort", key: "SORT_BY_BBOX", sides: .write,
        help: "GeoParquet: write the rows in the order of their boxes along a Hilbert curve, so that row groups "
            + "cover small areas (default NO: the input's order).")
    /// The page compression.
    public static let compression = FormatOption<String>(
        name: "parquet-compression", key: "COMPRESSION", sides: .write,
        help: "GeoParquet: page compression, zstd, gzip or none (default zstd; gzip in a build without the Zstd "
            + "trait).", valueName: "codec")
}

extension FileFormat {
    /// GeoParquet 1.1 and 2.0: Parquet with a WKB geometry column (of Parquet's GEOMETRY type in
    /// 2.0), `geo` metadata, and a bbox covering column (1.1) or row-group statistics (2.0).
    public static let geoParquet = FileFormat(
        name: "geoparquet",
        aliases: ["parquet"],
        extensions: ["parquet", "geoparquet"],
        summary: "GeoParquet 1.1 and 2.0 (Parquet, WKB geometry, bbox covering column or GEOMETRY type with "
            + "statistics): columns typed across the file",
        capabilities: FormatCapabilities(
            listsValues: { input throws(GeoConvError) in try GeoParquetValueListing.values(of: input) },
            readsAbsentPropertiesAsNull: true, idKey: "id", holdsHeader: []),
        options: [
            GeoParquetOptions.rowGroupRows.declared, GeoParquetOptions.compression.declared,
            GeoParquetOptions.version.declared, GeoParquetOptions.sortByBox.declared,
        ],
        diagnosticCodes: GeoParquetCode.names,
        sniff: { prefix in prefix.starts(with: Array("PAR1".utf8)) },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try GeoParquetReader(input, skipsInvalid: options.skipInvalid, diagnostics: diagnostics)
        },
        makeWriter: .keyedRecords {
            (output, options, diagnostics) throws(GeoConvError) -> any RecordAppendingWriter & LossKeyedWriter in
            var writeOptions = GeoParquetWriteOptions(
                rowGroupRows: options.formatOptions[GeoParquetOptions.rowGroupRows] ?? 100_000,
                rowGroupBytes: 8 << 20, compression: options.formatOptions[GeoParquetOptions.compression],
                sideWork: options.sideWork)
            if let version = options.formatOptions[GeoParquetOptions.version] {
                writeOptions.version = GeoParquetVersion(rawValue: version.uppercased()) ?? .both
            }
            writeOptions.sortsRows = options.formatOptions[GeoParquetOptions.sortByBox] ?? false
            return try GeoParquetWriter(output, options: writeOptions, diagnostics: diagnostics)
        }
    )
}

/// GeoParquet's CRS member: PROJJSON when the CRS is not WGS84 (omitted, it means OGC:CRS84).
enum GeoParquetCRS {
    static func projJSON(for crs: String) throws(GeoConvError) -> JSONValue {
        let text = try PROJJSONText.of(crs)
        guard let value = JSONText.parse(text) else {
            throw GeoConvError(.unsupported, "PROJ's PROJJSON for '\(crs)' does not parse")
        }
        return value
    }

    /// The CRS a `crs` member names: `EPSG:n` (or another authority) when it has an id, else
    /// the PROJJSON text itself (PROJ reads it); `nil` for WGS84 (absent) and for an
    /// explicit null (unknown, reported by the reader).
    static func name(of value: JSONValue) -> String? {
        guard case .object(let object) = value else { return nil }
        if case .object(let id)? = object["id"], case .string(let authority)? = id["authority"] {
            let code: String
            switch id["code"] {
            case .string(let s)?: code = s
            case .number(let n)?: code = n.literal
            default: return text(value)
            }
            return "\(authority):\(code)"
        }
        return text(value)
    }

    private static func text(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        JSONText.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
