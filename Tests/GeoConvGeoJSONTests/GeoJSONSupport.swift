import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoJSON
import GeoConvIO

// GeoJSON read and written in memory through the module's reader and writer.

/// Reads GeoJSON (or a sequence) from text, returning header, features and warnings.
func readGeoJSON(
    _ text: String, sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError)
    -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog)
{
    try readGeoJSON(bytes: Array(text.utf8), sequence: sequence, skipInvalid: skipInvalid, name: name)
}

func readGeoJSON(
    bytes: [UInt8], sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError)
    -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog)
{
    let diagnostics = DiagnosticLog()
    var reader = GeoJSONReader(
        try ByteReader(.memory(bytes, name: name)),
        options: GeoJSONReadOptions(isSequence: sequence, skipsInvalidFeatures: skipInvalid),
        diagnostics: diagnostics)
    let header = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return (header, features, diagnostics)
}

/// Writes features as GeoJSON (or a sequence) into memory.
func writeGeoJSON(
    _ features: [Feature], header: DocumentHeader = DocumentHeader(),
    options: GeoJSONWriteOptions = GeoJSONWriteOptions(),
    strict: Bool = false
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let output = try ByteWriter(.memory)
    let diagnostics = DiagnosticLog(strict: strict)
    var writer = GeoJSONWriter(output, options: options, diagnostics: diagnostics)
    try writer.begin(header)
    for feature in features { try writer.write(feature) }
    try writer.finish()
    return (String(decoding: output.memoryContents, as: UTF8.self), diagnostics)
}
