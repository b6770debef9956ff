// Reads a KML file, measures every line and polygon on the WGS84 ellipsoid, adds the
import Foundation
// results as properties, and writes GeoJSON — streaming, through geoconv's public API.
import GeoConv

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: trail-report IN.kml OUT.geojson")
    exit(64)
}

/// A transform of our own: the pipeline calls it for each feature between reader and writer.
struct AddMeasurements: FeatureTransform {
    let measurer = Measurer(kind: .geodesic, model: .wgs84)
    var total = 0.0

    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard let geometry = feature.geometry else { return [feature] }
        let (length, area) = measurer.measure(geometry)
        var copy = feature
        if length > 0 { copy.properties["length_m"] = .number(JSONNumber(Double(Int(length * 10)) / 10)!) }
        if area > 0 { copy.properties["area_m2"] = .number(JSONNumber(Double(Int(area)))!) }
        total += length
        return [copy]
    }
}

do {
    // 1. The whole-file pipeline, with our transform.
    let report = try Converter().convert(.file(arguments[1]), to: .file(arguments[2]), transforms: [AddMeasurements()])
    print(
        "\(report.statistics.featuresRead) features read as \(report.inputFormat), \(report.statistics.featuresWritten) written as \(report.outputFormat)"
    )
    for warning in report.diagnostics.summary { print("  " + warning) }

    // 2. The streaming API by hand: read the GeoJSON back and list the trails.
    let log = DiagnosticLog()
    var reader = GeoJSONReader(try ByteReader(.file(arguments[2])), diagnostics: log)
    let header = try reader.readHeader()
    print("document: \(header.name ?? "(unnamed)")")
    while let feature = try reader.next() {
        guard let length = feature.properties["length_m"]?.doubleValue else { continue }
        let colour = feature.style.strokeColor.map { " in \($0)" } ?? ""
        print("  \(feature.title ?? "(untitled)"): \(String(format: "%.2f", length / 1000)) km\(colour)")
    }

    // 3. Model helpers: a Maps SDK polyline and its encoded path.
    let echoPoint = Coordinate(latitude: -33.7320, longitude: 150.3120)
    let bridge = Spherical.offset(from: echoPoint, distance: 800, heading: 135)
    var line = Polyline(path: [echoPoint, bridge])
    line.spans = StyleSpans.pattern(
        path: line.path, styles: [.solid(.white), .solid(.black)], lengths: [100, 50], kind: .geodesic)
    print("encoded: \(try EncodedPolyline.encode(line.path)), \(line.spans.count) spans")

    // 4. Swift-native: the written file as an AsyncSequence of features, read on a background
    //    queue, and a geometry as Codable GeoJSON.
    var longest: Feature?
    for try await feature in FeatureSequence(.file(arguments[2])) {
        let length = feature.properties["length_m"]?.doubleValue ?? 0
        if length > (longest?.properties["length_m"]?.doubleValue ?? 0) { longest = feature }
    }
    if let longest, let geometry = longest.geometry {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(geometry), as: UTF8.self)
        print("longest: \(longest.title ?? "(untitled)"), \(json.prefix(48))…")
        let decoded = try JSONDecoder().decode(Geometry.self, from: Data(json.utf8))
        print("decoded back: \(decoded == geometry ? "the same geometry" : "a different geometry")")
    }
} catch {
    print(error)
    exit(1)
}
