import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO

extension FileFormat {
    /// FlatGeobuf 3: FlatBuffers features after a header and a packed Hilbert R-tree (read).
    public static let flatGeobuf = FileFormat(
        name: "flatgeobuf",
        aliases: ["fgb"],
        extensions: ["fgb"],
        summary: "FlatGeobuf 3 (header, columns, CRS, features in FlatBuffers), read streaming; not written yet",
        capabilities: FormatCapabilities(
            readsAbsentPropertiesAsNull: true, gdalReading: .init(driver: "FlatGeobuf", fileExtension: "fgb"),
            holdsHeader: [.name, .description]),
        diagnosticCodes: FlatGeobufCode.names,
        sniff: { prefix in prefix.starts(with: FlatGeobufHeader.magicPrefix) },
        makeReader: .features { (input, _, diagnostics) throws(GeoConvError) -> any FeatureReader in
            FlatGeobufReader(input, diagnostics: diagnostics)
        },
        makeWriter: nil
    )
}
