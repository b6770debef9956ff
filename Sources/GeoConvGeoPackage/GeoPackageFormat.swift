import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO

/// The options the GeoPackage reader and writer take (`ConversionOptions.formatOptions`).
public enum GeoPackageOptions {
    /// The one table to read (by default every feature and attribute table, one after
    /// another); the table to write (by default named after the output file).
    public static let table = FormatOption<String>(
        name: "gpkg-table", key: "TABLE", sides: [.read, .write],
        help: "GeoPackage: read only this feature or attribute table (default: every table, one after another); "
            + "write the features to a table of this name (default: the output file's name).",
        valueName: "name")
}

extension FileFormat {
    /// GeoPackage 1.0–1.3 (SQLite): every feature and attribute table read, one feature table
    /// written with its R-tree index. Registered with the `GeoPackage` trait.
    public static let geoPackage = FileFormat(
        name: "geopackage",
        aliases: ["gpkg"],
        extensions: ["gpkg"],
        summary: "GeoPackage 1.x (SQLite): feature and attribute tables read, one after another; one feature table "
            + "written, with an R-tree index",
        capabilities: FormatCapabilities(
            readsAbsentPropertiesAsNull: true, holdsStyleAsElements: true, idKey: "id",
            gdalReading: .init(driver: "GPKG", fileExtension: "gpkg"),
            holdsHeader: [.name, .description]),
        options: [GeoPackageOptions.table.declared],
        diagnosticCodes: GeoPackageCode.names,
        sniff: { prefix in GeoPackageSniffing.isGeoPackage(prefix) },
        makeReader: makeReader,
        makeWriter: makeWriter
    )

    #if GeoPackage
    private static let makeWriter: WriterMaking? = .keyedFeatures {
        (output, options, diagnostics) throws(GeoConvError) -> any LossKeyedWriter in
        try GeoPackageWriter(output, table: options.formatOptions[GeoPackageOptions.table], diagnostics: diagnostics)
    }
    private static let makeReader: ReaderMaking? = .runs {
        (input, options, diagnostics) throws(GeoConvError) -> any FeatureRunReader in
        // (`--bbox` in another CRS than the file's is put into it by the pipeline, after reading.)
        try GeoPackageReader(
            input, table: options.formatOptions[GeoPackageOptions.table],
            boundingBox: options.selection.boundingBoxCRS == nil ? options.selection.boundingBox : nil,
            whereClause: options.selection.whereClause, diagnostics: diagnostics)
    }
    #else
    private static let makeReader: ReaderMaking? = nil
    private static let makeWriter: WriterMaking? = nil
    #endif
}

/// How a GeoPackage is known by its first bytes: SQLite's header ("SQLite format 3") with the
/// GeoPackage application id at byte 68 ("GPKG", or 1.0's "GP10" and 1.1's "GP11").
enum GeoPackageSniffing {
    static func isGeoPackage(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 72, prefix.starts(with: Array("SQLite format 3".utf8) + [0]) else { return false }
        let id = Array(prefix[68..<72])
        return [Array("GPKG".utf8), Array("GP10".utf8), Array("GP11".utf8)].contains(id)
    }
}
