import GeoConv
import GeoConvTestSupport
import Testing

/// GeoJSON through the converter: what the reader says of a file and what the pipeline does
/// with it (the reader's own tests are in GeoConvGeoJSONTests).
@Suite("GeoJSON through the converter")
struct GeoJSONConversionTests {
    @Test("An EPSG-code crs is reprojected through PROJ like a named one")
    func legacyEPSGReprojected() throws {
        let text =
            #"{"type":"FeatureCollection","crs":{"type":"EPSG","properties":{"code":3857}},"features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-13627361.0,4547679.0]}}]}"#
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "old.geojson"), to: .memory,
            options: ConversionOptions(outputFormat: .wkt))
        let wkt = String(decoding: report.output, as: UTF8.self)
        #expect(wkt.hasPrefix("SRID=3857;POINT (-13627361 4547679)"), "\(wkt)")  // WKT keeps the CRS
        let geojson = try Converter().convert(
            .memory(Array(text.utf8), name: "old.geojson"), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSONSequence))
        let json = String(decoding: geojson.output, as: UTF8.self)
        #expect(json.contains(#""coordinates":[-122.4"#) && json.contains(",37.7"), "\(json)")
    }
}
