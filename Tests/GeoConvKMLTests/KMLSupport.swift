import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvKML

// KML read and written in memory through the module's reader and writer.

func readKML(
    path: String
) throws(GeoConvError) -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
    let diagnostics = DiagnosticLog()
    let input = try ByteReader(.file(path))
    var header = DocumentHeader()
    var features: [Feature] = []
    if path.hasSuffix(".kmz") {
        var reader = try KMZReader(input, diagnostics: diagnostics)
        header = try reader.readHeader()
        while let feature = try reader.next() { features.append(feature) }
    } else {
        var reader = try KMLReader(input, diagnostics: diagnostics)
        header = try reader.readHeader()
        while let feature = try reader.next() { features.append(feature) }
    }
    return (header, features, diagnostics)
}

func writeKML(
    _ features: [Feature], header: DocumentHeader = DocumentHeader()
) throws(GeoConvError) -> (text: String, diagnostics: DiagnosticLog) {
    let output = try ByteWriter(.memory)
    let diagnostics = DiagnosticLog()
    var writer = KMLWriter(output, diagnostics: diagnostics)
    try writer.begin(header)
    for feature in features { try writer.write(feature) }
    try writer.finish()
    return (String(decoding: output.memoryContents, as: UTF8.self), diagnostics)
}

func readKML(text: String) throws(GeoConvError) -> [Feature] {
    let diagnostics = DiagnosticLog()
    var reader = try KMLReader(try ByteReader(.memory(Array(text.utf8), name: "written.kml")), diagnostics: diagnostics)
    _ = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return features
}
