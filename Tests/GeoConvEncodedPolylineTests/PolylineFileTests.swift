import Foundation
import GeoConvCore
import GeoConvEncodedPolyline
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

@Suite("Polyline files")
struct PolylineFileTests {
    @Test("The line grammar: paths, points, multi-parts, polygons and collections")
    func grammar() throws {
        let text = """
            # a comment, then a blank line

            _p~iF~ps|U_ulLnnqC_mqNvxq`@
            _p~iF~ps|U
            _p~iF~ps|U\t_ulLnnqC
            _p~iF~ps|U_ulLnnqC _mqNvxq`@_ulLnnqC
            (_p~iF~ps|U_ulLnnqC_mqNvxq`@~bn{@~hgv@)
            (???_ibE_ibE??~hbE~hbE?) (_p~iF~ps|U_ulLnnqC_mqNvxq`@~bn{@~hgv@)
            _p~iF~ps|U (???_ibE_ibE??~hbE~hbE?)\r
            """
        let (features, diagnostics) = try readPolylineFeatures(text)
        #expect(diagnostics.isEmpty)
        #expect(
            features.map { $0.geometry?.kind } == [
                .lineString, .point, .multiPoint, .multiLineString, .polygon,
                .multiPolygon, .geometryCollection,
            ])
        #expect(features[1].geometry == .point(Coordinate(latitude: 38.5, longitude: -120.2)))
        guard case .multiPolygon(let polygons)? = features[5].geometry else {
            Issue.record("not a multipolygon")
            return
        }
        #expect(polygons[0].outer.count == 5 && polygons[0].holes.isEmpty)
        #expect(polygons[0].outer[2] == Coordinate(latitude: 1, longitude: 1))
    }

    @Test("The Hyde Park fixture is a polygon with two holes near (-33.873, 151.211)")
    func hydePark() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("polyline/hyde-park.polyline"), encoding: .utf8)
        let (features, _) = try readPolylineFeatures(text)
        #expect(features.count == 1)
        guard case .polygon(let rings)? = features.first?.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(rings.holes.count == 2)
        let bounds = try #require(Geometry.polygon(rings).bounds)
        #expect(bounds.contains(Coordinate(latitude: -33.873, longitude: 151.211)))
        for hole in rings.holes { for vertex in hole { #expect(ringContains(rings.outer, vertex)) } }
    }

    @Test("Errors name the line and column")
    func errorLocation() throws {
        let text = "_p~iF~ps|U\n\n_p~iF~ps|U _ulL!nqC\n"
        do {
            _ = try readPolylineFeatures(text)
            Issue.record("read an invalid file")
        } catch {
            #expect(error.location?.file == "test.polyline")
            #expect(error.location?.line == 3)
            #expect(error.location?.column == 16)
            #expect(error.description.hasPrefix("test.polyline:3:16: error: character '!' (33)"))
        }
    }

    @Test("Grammar errors", arguments: ["(_p~iF~ps|U", "_p~iF~ps|U)", "()", "((_p~iF~ps|U))", "_ibE_seK_seK"])
    func grammarErrors(line: String) {
        #expect(throws: GeoConvError.self) { _ = try readPolylineFeatures(line) }
    }

    @Test("--skip-invalid skips and counts bad lines")
    func skipping() throws {
        let (features, diagnostics) = try readPolylineFeatures("_p~iF~ps|U\nbad!\n_ulLnnqC\n(((\n", skipInvalid: true)
        #expect(features.count == 2)
        #expect(diagnostics.count == 2)
        #expect(diagnostics.entries["polyline.invalid-line-skipped"]?.first.location?.line == 2)
    }

    @Test("Coordinates beyond ±90/±180 are flagged, suggesting a precision mismatch")
    func outOfRange() throws {
        // A precision-6 string read at precision 5 decodes ten times too large.
        let route = try EncodedPolyline.encode([Coordinate(latitude: 20.5, longitude: 11.5)], precision: 6)
        let (features, diagnostics) = try readPolylineFeatures(route, precision: 5)
        #expect(features.count == 1)
        let warning = try #require(diagnostics.entries["polyline.out-of-range"])
        #expect(warning.first.message.contains("--polyline-precision 6"))
    }

    func write(_ features: [Feature], precision: Int = 5, strict: Bool = false) throws -> (String, DiagnosticLog) {
        let output = try ByteWriter(.memory)
        let diagnostics = DiagnosticLog(strict: strict)
        var writer = PolylineFileWriter(
            output, options: PolylineFileOptions(precision: precision), diagnostics: diagnostics)
        try writer.begin(DocumentHeader())
        for feature in features { try writer.write(feature) }
        try writer.finish()
        return (String(decoding: output.memoryContents, as: UTF8.self), diagnostics)
    }

    @Test("Reading then writing gives the same lines")
    func roundTrip() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("polyline/sydney.polyline"), encoding: .utf8)
        let (features, _) = try readPolylineFeatures(text)
        #expect(features.count == 7)
        let (written, diagnostics) = try write(features)
        #expect(diagnostics.isEmpty)
        let expected = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
        #expect(written == expected)
        let (again, _) = try readPolylineFeatures(written)
        #expect(again == features)
    }

    @Test("Everything a polyline cannot hold is reported, never dropped silently")
    func losses() throws {
        var feature = Feature(
            id: .string("a"),
            geometry: .lineString([
                Coordinate(latitude: 1.123456, longitude: 2, altitude: 5),
                Coordinate(latitude: 1, longitude: 2),
            ]),
            title: "Walk", style: Style(strokeColor: .red), properties: ["k": "v"])
        feature.foreignMembers = ["x": 1]
        let circle = Feature(geometry: .circle(center: Coordinate(latitude: 0, longitude: 0), radius: 10))
        let empty = Feature(geometry: nil)
        let (text, diagnostics) = try write([feature, circle, empty])
        #expect(text == "slzE_seKrbW?\n")
        let codes = Set(diagnostics.entries.keys)
        #expect(
            codes == [
                "polyline.properties-dropped", "polyline.info-dropped", "polyline.style-dropped", "polyline.id-dropped",
                "polyline.foreign-members-dropped", "polyline.altitude-dropped", "polyline.coordinates-rounded",
                "polyline.circle-dropped", "polyline.empty-geometry-dropped",
            ])
        #expect(throws: GeoConvError.self) { _ = try write([feature], strict: true) }
        // At precision 6 the coordinates fit: no rounding warning.
        let (_, six) = try write(
            [Feature(geometry: .point(Coordinate(latitude: 1.123456, longitude: 2)))], precision: 6)
        #expect(six.isEmpty)
    }
}
