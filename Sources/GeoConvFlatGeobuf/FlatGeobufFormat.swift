import GeoConvCore
public import GeoConvFormatKit
import GeoConvIO
import GeoConvRows

extension FileFormat {
    /// FlatGeobuf 3: FlatBuffers features after a header and a packed Hilbert R-tree.
    public static let flatGeobuf = FileFormat(
        name: "flatgeobuf",
        aliases: ["fgb"],
        extensions: ["fgb"],
        summary: "FlatGeobuf 3 (header, typed columns, CRS, features in FlatBuffers), read streaming; written "
            + "along a packed Hilbert R-tree",
        capabilities: FormatCapabilities(
            readsAbsentPropertiesAsNull: true, idKey: "id",
            writtenOrder: { geometries in HilbertCurve.order(of: geometries) },
            gdalReading: .init(driver: "FlatGeobuf", fileExtension: "fgb"), holdsHeader: [.name, .description]),
        options: [FlatGeobufOptions.spatialIndex.declared],
        diagnosticCodes: FlatGeobufCode.names,
        sniff: { prefix in prefix.starts(with: FlatGeobufHeader.magicPrefix) },
        makeReader: .runs { (input, options, diagnostics) throws(GeoConvError) -> any FeatureRunReader in
            // (`--bbox` in another CRS than the file's is put into it by the pipeline, after reading.)
            let box = options.selection.boundingBoxCRS == nil ? options.selection.boundingBox : nil
            return FlatGeobufReader(input, boundingBox: box, diagnostics: diagnostics)
        },
        makeWriter: .keyedFeatures { (output, options, diagnostics) throws(GeoConvError) -> any LossKeyedWriter in
            try FlatGeobufWriter(
                output, spatialIndex: options.formatOptions[FlatGeobufOptions.spatialIndex] ?? true,
                diagnostics: diagnostics)
        }
    )
}
