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
        help: "GeoParquet: the most rows in a row group (default 65536; a row group also ends past 2 MB of values).",
        valueName: "rows", allowed: ("a positive integer", { $0 > 0 }))
    /// The page compression.
    public static let compression = FormatOption<String>(
        name: "parquet-compression", key: "COMPRESSION", sides: .write,
        help: "GeoParquet: page compression, zstd, gzip or none (default zstd; gzip in a build without the Zstd "
            + "trait).", valueName: "codec")
}

extension FileFormat {
    /// GeoParquet 1.1: Parquet with a WKB geometry column, `geo` metadata and a bbox covering column.
    public static let geoParquet = FileFormat(
        name: "geoparquet",
        aliases: ["parquet"],
        extensions: ["parquet", "geoparquet"],
        summary: "GeoParquet 1.1 (Parquet, WKB geometry, bbox covering column): columns typed across the file",
        capabilities: FormatCapabilities(
            listsValues: { input throws(GeoConvError) in try GeoParquetValueListing.values(of: input) },
            readsAbsentPropertiesAsNull: true, idKey: "id", holdsHeader: []),
        options: [GeoParquetOptions.rowGroupRows.declared, GeoParquetOptions.compression.declared],
        diagnosticCodes: GeoParquetCode.names,
        sniff: { prefix in prefix.starts(with: Array("PAR1".utf8)) },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try GeoParquetReader(input, skipsInvalid: options.skipInvalid, diagnostics: diagnostics)
        },
        makeWriter: .records { (output, options, diagnostics) throws(GeoConvError) -> any RecordAppendingWriter in
            let writeOptions = GeoParquetWriteOptions(
                rowGroupRows: options.formatOptions[GeoParquetOptions.rowGroupRows] ?? 65_536,
                compression: options.formatOptions[GeoParquetOptions.compression], sideWork: options.sideWork)
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
