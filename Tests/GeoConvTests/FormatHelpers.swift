import GeoConv
import GeoConvTestSupport

// GeoJSON and KML read and written in memory through the formats' registrations, for the
// pipeline's and the cross-format tests (a codec's own tests use its reader and writer).

/// Reads GeoJSON (or a sequence) from text, returning header, features and warnings.
func readGeoJSON(
    _ text: String, sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
    try readGeoJSON(bytes: Array(text.utf8), sequence: sequence, skipInvalid: skipInvalid, name: name)
}

/// Reads GeoJSON (or a sequence) from bytes.
func readGeoJSON(
    bytes: [UInt8], sequence: Bool = false, skipInvalid: Bool = false, name: String = "test.geojson"
) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
    var options = ConversionOptions()
    options.skipInvalid = skipInvalid
    return try FormatIO.read(bytes: bytes, as: sequence ? .geoJSONSequence : .geoJSON, name: name, options: options)
}

/// Writes features as GeoJSON into memory.
func writeGeoJSON(
    _ features: [Feature], header: DocumentHeader = DocumentHeader(), options: ConversionOptions = ConversionOptions(),
    strict: Bool = false
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let written = try FormatIO.write(features, header: header, as: .geoJSON, options: options, strict: strict)
    return (String(decoding: written.bytes, as: UTF8.self), written.diagnostics)
}

/// Reads a KML or KMZ file.
func readKML(
    path: String
) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
    try FormatIO.read(try ByteReader(.file(path)), as: path.hasSuffix(".kmz") ? .kmz : .kml)
}

/// Writes features as KML into memory.
func writeKML(
    _ features: [Feature], header: DocumentHeader = DocumentHeader()
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let written = try FormatIO.write(features, header: header, as: .kml)
    return (String(decoding: written.bytes, as: UTF8.self), written.diagnostics)
}

/// Reads KML text into features.
func readKML(text: String) throws(GeoConvError) -> [Feature] {
    try FormatIO.read(text, as: .kml, name: "written.kml").features
}
