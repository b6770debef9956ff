import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("geoconv with GeoJSON (runs the built binary)")
struct GeoJSONCLITests {
    @Test("polyline → GeoJSON: Hyde Park is a polygon with two holes")
    func polylineToGeoJSON() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("hyde-park.geojson").path
        let result = try CLI.run([Fixtures.testdata("polyline/hyde-park.polyline"), output])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Polygon")
        let rings = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(rings.count == 3)
        #expect(rings[0][0] == [151.20982, -33.87675])
    }

    @Test("GeoJSON → polyline lists every loss; --strict refuses and writes nothing")
    func geoJSONToPolyline() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("walks.polyline").path
        let result = try CLI.run([Fixtures.testdata("geojson/faithful.geojson"), output])
        #expect(result.status == 0)
        for code in [
            "polyline.properties-dropped", "polyline.info-dropped", "polyline.style-dropped", "polyline.id-dropped",
            "polyline.altitude-dropped", "circle.approximated", "polyline.empty-geometry-dropped",
            "document.parts-dropped",
        ] {
            #expect(result.stderr.contains(code), "\(code) missing in \(result.stderr)")
        }
        #expect(
            result.stderr.contains("faithful.geojson:6:5 (at /features/0): warning: feature properties are dropped"))
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 9)  // 10 features less the null geometry (the circle became a polygon)
        // the Opera House
        #expect(try EncodedPolyline.decode(String(lines[1])) == [Coordinate(latitude: -33.85678, longitude: 151.2153)])
        let strictOutput = directory.appendingPathComponent("strict.polyline").path
        let strict = try CLI.run([Fixtures.testdata("geojson/faithful.geojson"), strictOutput, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("error: the document's name and member generator have no place in polyline"))
        #expect(!FileManager.default.fileExists(atPath: strictOutput))
    }

    @Test("GeoJSON → GeoJSONSeq → GeoJSON returns the same features, properties and coordinates")
    func sequenceRoundTrip() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.testdata("geojson/faithful.geojson")
        let sequence = directory.appendingPathComponent("walks.geojsons").path
        let back = directory.appendingPathComponent("walks.geojson").path
        #expect(try CLI.run([input, sequence]).status == 0)
        let rs = try Data(contentsOf: URL(fileURLWithPath: sequence))
        #expect(rs.first == 0x1E)
        #expect(try CLI.run([sequence, back]).status == 0)
        let original = try readGeoJSON(String(contentsOfFile: input, encoding: .utf8)).features
        let returned = try readGeoJSON(String(contentsOfFile: back, encoding: .utf8)).features
        #expect(returned.count == original.count)
        for (a, b) in zip(original, returned) {
            #expect(a.properties == b.properties)
            #expect(Array(a.properties.keys) == Array(b.properties.keys))
            #expect(a.id == b.id && a.title == b.title && a.style == b.style)
            var coordinatesA: [UInt64] = []
            var coordinatesB: [UInt64] = []
            a.geometry?.forEachCoordinate { coordinatesA += [$0.latitude.bitPattern, $0.longitude.bitPattern] }
            b.geometry?.forEachCoordinate { coordinatesB += [$0.latitude.bitPattern, $0.longitude.bitPattern] }
            #expect(coordinatesA == coordinatesB)
        }
        // Newline-delimited for .geojsonl, and standard output keeps the input's format.
        let lines = try CLI.run([input, "-", "--to", "geojsonseq"])
        #expect(lines.stdout.split(separator: "\n").count == 10 && !lines.stdout.contains("\u{1E}"))
        let rsOut = try CLI.run([input, "-", "--to", "geojsonseq", "--rs"])
        #expect(rsOut.stdout.hasPrefix("\u{1E}{"))
        let same = try CLI.run(["-", "-"], stdin: try String(contentsOfFile: input, encoding: .utf8))
        #expect(same.stdout.hasPrefix(#"{"type":"FeatureCollection","name":"Harbour walks","#))
    }

    @Test("Generated benchmark-style data round-trips through GeoJSONSeq", .enabled(if: Self.python != nil))
    func generatedRoundTrip() throws {
        let directory = try Fixtures.temporaryDirectory()
        let generator = Fixtures.shared.appendingPathComponent("bench/gen_data.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = [generator, "--out", directory.path, "--only", "features", "--scale", "0.02"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let input = directory.appendingPathComponent("features_10mb.geojson").path
        let sequence = directory.appendingPathComponent("f.geojsonl").path
        let back = directory.appendingPathComponent("f.geojson").path
        #expect(try CLI.run([input, sequence]).status == 0)
        #expect(try CLI.run([sequence, back]).status == 0)
        let original = try readGeoJSON(String(contentsOfFile: input, encoding: .utf8)).features
        let returned = try readGeoJSON(String(contentsOfFile: back, encoding: .utf8)).features
        #expect(original.count > 10)
        #expect(original == returned)
    }

    static let python = Tools.python

    @Test("info --json counts, bounds and losses")
    func info() throws {
        let result = try CLI.run(["info", "--json", Fixtures.testdata("geojson/faithful.geojson")])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["features"] as? Int == 10)
        let kinds = try #require(json["geometries"] as? [String: Int])
        #expect(
            kinds == [
                "LineString": 1, "Point": 2, "Polygon": 1, "MultiPoint": 1, "MultiLineString": 1, "MultiPolygon": 1,
                "GeometryCollection": 1, "null": 1, "Circle": 1,
            ])
        #expect(json["bbox"] as? [Double] == [0.1, -33.9, 151.4, -0.0000001])
        let properties = try #require(json["properties"] as? [String: [String: Any]])
        #expect(properties["osm_id"]?["types"] as? [String] == ["number"])
        let losses = try #require(json["losses"] as? [String: [String]])
        #expect(losses["geojsonseq"]?.contains { $0.contains("document.parts-dropped") } == true)
        // As the conversion does: the circle becomes a geodesic polygon for a polyline (reported as such).
        #expect(losses["polyline"]?.contains { $0.contains("circle.approximated") } == true)
        #expect(losses["polyline"]?.contains { $0.contains("polyline.circle-dropped") } == false)
        let text = try CLI.run(["info", Fixtures.testdata("polyline/sydney.polyline")])
        #expect(text.stdout.contains("features: 7 (3 LineString, 1 Point, 1 MultiLineString, 1 MultiPoint, 1 Polygon)"))
    }

    @Test("validate: exit 0 when valid, else every problem with file:line:column and JSON Pointer")
    func validate() throws {
        let good = try CLI.run(["validate", Fixtures.testdata("geojson/faithful.geojson")])
        #expect(good.status == 0)
        let badFile = Fixtures.conformance.appendingPathComponent("geojson/geojsonhint/bad/multiple_problems.geojson")
            .path
        let bad = try CLI.run(["validate", badFile])
        #expect(bad.status == 1)
        let lines = bad.stdout.split(separator: "\n")
        try #require(lines.count >= 3)  // (lines[0] below: a failure here stops the test, not the run)
        #expect(
            lines[0].hasPrefix(
                "\(badFile):12:11 (at /features/0/geometry/coordinates/1): error: each element of a position must be a number"
            ))
        #expect(lines.contains { $0.contains("(at /features/2/type): error:") })
        let winding = Fixtures.conformance.appendingPathComponent(
            "geojson/geojsonhint/bad/polygon_winding_order.geojson"
        ).path
        let warned = try CLI.run(["validate", winding])
        #expect(warned.status == 0)
        #expect(warned.stdout.contains("warning: an exterior ring should run counter-clockwise"))
        let polyline = try CLI.run(["validate", Fixtures.testdata("polyline/sydney.polyline")])
        #expect(polyline.status == 0)
    }
}
