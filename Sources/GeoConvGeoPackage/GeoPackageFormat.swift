import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO

/// The options the GeoPackage reader takes (`ConversionOptions.formatOptions`).
public enum GeoPackageOptions {
    /// The one table to read (by default every feature and attribute table, one after another).
    public static let table = FormatOption<String>(
        name: "gpkg-table", key: "TABLE", sides: .read,
        help: "GeoPackage: read only this feature or attribute table (default: every table, one after another).",
        valueName: "name")
}

extension FileFormat {
    /// GeoPackage 1.0–1.3 (SQLite): every feature and attribute table read (not written yet).
    /// Registered with the `GeoPackage` trait.
    public static let geoPackage = FileFormat(
        name: "geopackage",
        aliases: ["gpkg"],
        extensions: ["gpkg"],
        summary: "GeoPackage 1.x (SQLite): feature and attribute tables read, one after another; not written yet",
        capabilities: FormatCapabilities(readsAbsentPropertiesAsNull: true, holdsHeader: [.name, .description]),
        options: [GeoPackageOptions.table.declared],
        diagnosticCodes: GeoPackageCode.names,
        sniff: { prefix in GeoPackageSniffing.isGeoPackage(prefix) },
        makeReader: makeReader,
        makeWriter: nil
    )

    #if GeoPackage
    private static let makeReader: ReaderMaking? = .features {
        (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
        GeoPackageReader(input, table: options.formatOptions[GeoPackageOptions.table], diagnostics: diagnostics)
    }
    #else
    private static let makeReader: ReaderMaking? = nil
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
