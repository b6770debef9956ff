import GeoConvCore
public import GeoConvFormatKit
import GeoConvGeometryEncoding

/// The options CSV's reader and writer take (`ConversionOptions.formatOptions`).
public enum CSVOptions {
    /// The field delimiter: `,` `;` `tab` (or `\t`) `|`. Reading without it sniffs the header
    /// line; writing without it uses a comma (a tab for `.tsv`).
    public static let delimiter = FormatOption<String>(
        name: "csv-delimiter", key: "SEPARATOR", sides: [.read, .write],
        help: "CSV field delimiter: , ; tab | (default: sniffed from the header when reading; comma, or tab for "
            + ".tsv, when writing).", valueName: "char")
    /// The column holding longitudes (any case); by default lon, lng, long, longitude or x.
    public static let longitude = FormatOption<String>(
        name: "csv-lon", key: "X_POSSIBLE_NAMES", sides: .read,
        help: "The CSV column holding longitudes (default: lon, lng, long, longitude or x, any case).",
        valueName: "column")
    /// The column holding latitudes (any case); by default lat, latitude or y.
    public static let latitude = FormatOption<String>(
        name: "csv-lat", key: "Y_POSSIBLE_NAMES", sides: .read,
        help: "The CSV column holding latitudes (default: lat, latitude or y, any case).", valueName: "column")
    /// The column holding altitudes (any case), with longitude/latitude columns. By default
    /// only the `altitude` column geoconv writes (right after `latitude`): a column named
    /// `elevation` or `Altitude` elsewhere is an attribute (a city's elevation), as GDAL reads it.
    public static let altitude = FormatOption<String>(
        name: "csv-alt", key: "Z_POSSIBLE_NAMES", sides: .read,
        help: "The CSV column holding altitudes (default: only an 'altitude' column right after 'latitude', as "
            + "geoconv writes it).", valueName: "column")
    /// The column holding a WKT or hex-WKB geometry (any case); by default WKT, geometry,
    /// geom or the_geom.
    public static let geometry = FormatOption<String>(
        name: "csv-geometry", key: "GEOM_POSSIBLE_NAMES", sides: .read,
        help: "The CSV column holding WKT or hex WKB geometries (default: WKT, geometry, geom or the_geom, any "
            + "case).", valueName: "column")
    /// The CSV's text encoding when it is not UTF-8 (`CP1252`, `ISO-8859-1`, `latin1`…, any
    /// name iconv knows): the file is decoded to UTF-8 before it is read.
    public static let encoding = FormatOption<String>(
        name: "csv-encoding", key: "ENCODING", sides: .read,
        help: "The CSV's text encoding when it is not UTF-8: CP1252, ISO-8859-1, ISO-8859-15, SHIFT_JIS…"
            + " (default: UTF-8).", valueName: "encoding")
    /// Keep every CSV value as text (no numbers or booleans).
    public static let strings = FormatOption<Bool>(
        name: "csv-strings", key: "STRINGS", sides: .read,
        help: "Keep every CSV value as text instead of typing numbers and booleans.")

    /// The delimiter byte an option value names, or `nil` when it names none.
    public static func delimiterByte(_ text: String) -> UInt8? {
        switch text.lowercased() {
        case ",", "comma": UInt8(ascii: ",")
        case ";", "semicolon": UInt8(ascii: ";")
        case "tab", "\\t", "\t": 0x09
        case "|", "pipe": UInt8(ascii: "|")
        default: nil
        }
    }

    /// The delimiter the options give, a usage error when they name none.
    static func givenDelimiter(_ options: ConversionOptions) throws(GeoConvError) -> UInt8? {
        guard let text = options.formatOptions[delimiter] else { return nil }
        guard let byte = delimiterByte(text) else {
            throw GeoConvError(
                .usage, "--csv-delimiter \(text) is not one of , ; tab |",
                hint: "give --csv-delimiter , or ; or tab or |")
        }
        return byte
    }
}

extension FileFormat {
    /// Comma-, semicolon-, tab- or pipe-separated values: a header line, one feature per row,
    /// its geometry from longitude/latitude columns or a WKT / hex-WKB column.
    public static let csv = FileFormat(
        name: "csv",
        extensions: ["csv", "tsv"],
        summary: "CSV/TSV (RFC 4180): a row per feature, geometry from lon/lat or WKT columns",
        capabilities: FormatCapabilities(
            isWGS84Only: true,
            impliedOptions: { path, _, options in
                // A .tsv file is tab-separated unless the caller named a delimiter.
                guard let path, path.hasSuffix(".tsv"), options.formatOptions[CSVOptions.delimiter] == nil else {
                    return
                }
                options.formatOptions[CSVOptions.delimiter] = "tab"
            },
            listsValues: { input throws(GeoConvError) in try CSVValueListing.values(of: input) },
            readsAbsentPropertiesAsNull: true, idKey: "id", gdalReading: .init(driver: "CSV", fileExtension: "csv"),
            holdsHeader: []
        ),
        options: [
            CSVOptions.delimiter, CSVOptions.longitude, CSVOptions.latitude, CSVOptions.altitude,
            CSVOptions.geometry, CSVOptions.encoding,
        ].map(\.declared)
            + [CSVOptions.strings.declared, WKTParser.arcStepOption.declared],
        diagnosticCodes: CSVCode.names,
        sniff: { prefix in CSVHeaderSniffing.looksLikeCSV(prefix) },
        makeReader: .runs { (input, options, diagnostics) throws(GeoConvError) -> any FeatureRunReader in
            let settled = try CSVReadOptions(options)
            return try CSVReader(
                CSVEncoding.open(input, options: options, diagnostics: diagnostics), options: settled,
                diagnostics: diagnostics)
        },
        makeWriter: .keyedFeatures { (output, options, diagnostics) throws(GeoConvError) -> any LossKeyedWriter in
            CSVWriter(
                output, delimiter: try CSVOptions.givenDelimiter(options) ?? UInt8(ascii: ","),
                precision: options.coordinatePrecision, diagnostics: diagnostics)
        }
    )
}

/// Recognising a CSV file from its first bytes (standard input without `--from`): a header
/// line whose delimited names include a longitude and a latitude, or a geometry column.
enum CSVHeaderSniffing {
    static func looksLikeCSV(_ prefix: [UInt8]) -> Bool {
        var start = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard let newline = prefix[start...].firstIndex(of: 0x0A) else { return false }
        let line = Array(prefix[start..<newline])
        let delimiter = CSVDelimiterSniffing.delimiter(ofHeader: line)
        let names = line.split(separator: delimiter, omittingEmptySubsequences: false).map {
            CSVColumns.normalised(String(decoding: $0.filter { $0 != UInt8(ascii: "\"") && $0 != 0x0D }, as: UTF8.self))
        }
        guard names.count >= 2 else { return false }
        let hasLongitude = names.contains { CSVColumns.longitudeNames.contains($0) }
        let hasLatitude = names.contains { CSVColumns.latitudeNames.contains($0) }
        return (hasLongitude && hasLatitude) || names.contains { CSVColumns.geometryNames.contains($0) }
    }
}

/// Picking the delimiter from a header line.
enum CSVDelimiterSniffing {
    /// The candidates, in the order a tie is decided.
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// The candidate that occurs most often outside quotes in `line` (a comma when none does).
    static func delimiter(ofHeader line: some Collection<UInt8>) -> UInt8 {
        var counts = [0, 0, 0, 0]
        var quoted = false
        for byte in line {
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
                continue
            }
            guard !quoted, let index = candidates.firstIndex(of: byte) else { continue }
            counts[index] += 1
        }
        var best = 0
        for index in 1..<counts.count where counts[index] > counts[best] { best = index }
        return candidates[best]
    }
}
