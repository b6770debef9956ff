#if Shapefile
public import GeoConvCore
public import GeoConvFormatKit

/// How a shapefile is read.
public struct ShapefileReadOptions: Sendable {
    /// The DBF's encoding, overriding what the files say.
    public var encoding: String?
    /// Skip shapes that cannot be read, counting them, instead of failing.
    public var skipsInvalid: Bool

    /// Creates options.
    public init(encoding: String? = nil, skipsInvalid: Bool = false) {
        self.encoding = encoding
        self.skipsInvalid = skipsInvalid
    }
}

/// How shapefiles are written.
public struct ShapefileWriteOptions: Sendable {
    /// The one kind written; `nil` for a shapefile per kind.
    var kind: ShapeKind?

    /// Creates options; `kind` is `points`, `multipoints`, `lines` or `polygons`.
    public init(kind: String? = nil) throws(GeoConvError) {
        guard let kind else { return }
        guard let known = ShapeKind(rawValue: kind.lowercased()) else {
            throw GeoConvError(
                .usage, "--shp-kind \(kind) is not a shapefile geometry kind",
                hint: "give points, multipoints, lines or polygons")
        }
        self.kind = known
    }
}

extension FileFormat {
    /// Esri Shapefile, through shapelib: a `.shp` with its `.shx`, `.dbf`, `.prj` and `.cpg`,
    /// or a `.zip` of shapefiles (read).
    public static let shapefile = FileFormat(
        name: "shapefile",
        aliases: ["shp", "esri shapefile"],
        extensions: ["shp", "zip"],
        summary: "Esri Shapefile (.shp with .shx, .dbf, .prj, .cpg; a .zip of them read): one geometry kind per file",
        capabilities: FormatCapabilities(
            listsValues: { input throws(GeoConvError) in try ShapefileValueListing.values(of: input) },
            rewindsRings: true, readsAbsentPropertiesAsNull: true, placeholderKey: "FID", mergesGeometryKinds: true,
            idKey: "id", writtenOrder: ShapefileLayout.order(of:), wholeOutputExtension: "zip",
            gdalReading: .init(driver: "ESRI Shapefile", fileExtension: "zip"), holdsHeader: []),
        options: [ShapefileOptions.encoding.declared, ShapefileOptions.kind.declared],
        diagnosticCodes: ShapefileCode.names,
        sniff: { prefix in
            prefix.count >= 4 && prefix[0] == 0 && prefix[1] == 0 && prefix[2] == 0x27 && prefix[3] == 0x0A
        },
        makeReader: .features { (input, options, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try ShapefileReader(
                input,
                options: ShapefileReadOptions(
                    encoding: options.formatOptions[ShapefileOptions.encoding],
                    skipsInvalid: options.skipInvalid),
                diagnostics: diagnostics)
        },
        makeWriter: .keyedFeatures { (output, options, diagnostics) throws(GeoConvError) -> any LossKeyedWriter in
            try ShapefileWriter(
                output, options: ShapefileWriteOptions(kind: options.formatOptions[ShapefileOptions.kind]),
                diagnostics: diagnostics)
        }
    )
}
#endif

#if Shapefile
internal import CShapelib

/// shapelib's file hooks with its error messages silenced: geoconv reports what goes wrong
/// itself, placed and with a hint, instead of shapelib printing to standard error.
enum ShapelibHooks {
    static func quiet() -> SAHooks {
        var hooks = SAHooks()
        SASetupDefaultHooks(&hooks)
        hooks.Error = { _ in }
        return hooks
    }
}
#endif
