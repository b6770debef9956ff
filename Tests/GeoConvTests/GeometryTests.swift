import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("Geometry utilities")
struct GeometryTests {
    let white = StrokeStyle.solid(.white), black = StrokeStyle.solid(.black)

    @Test("android-maps-utils check values on the 6,371,009 m sphere")
    func sphere() {
        let length = Spherical.length([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 90, longitude: 0),
            Coordinate(latitude: 0, longitude: 90),
        ])
        #expect(abs(length - 20_015_115.0704) / 20_015_115.0704 < 1e-6)
        #expect(abs(length - .pi * Spherical.radius) < 1e-6)
        let area = Spherical.area([
            Coordinate(latitude: 0, longitude: 90), Coordinate(latitude: 90, longitude: 0),
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: -90, longitude: 0),
            Coordinate(latitude: 0, longitude: 90),
        ])
        #expect(abs(area - 1.27516478249e14) / 1.27516478249e14 < 1e-6)
        #expect(
            abs(
                Spherical.heading(
                    from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: 90)) - 90)
                < 1e-9)
        let offset = Spherical.offset(
            from: Coordinate(latitude: 0, longitude: 0), distance: .pi * Spherical.radius / 2, heading: 0)
        #expect(abs(offset.latitude - 90) < 1e-9)
        let middle = Spherical.interpolate(
            from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: 90), fraction: 0.5)
        #expect(abs(middle.longitude - 45) < 1e-9 && abs(middle.latitude) < 1e-9)
    }

    @Test("Geodesic JFK → CDG on WGS84 is 5,853,226 m (geodtest.c)")
    func jfkToCDG() {
        let d = Geodesic.wgs84.inverse(
            Coordinate(latitude: 40.6, longitude: -73.8), Coordinate(latitude: 49.01666667, longitude: 2.55)
        ).distance
        #expect(abs(d - 5_853_226) < 0.5)
    }

    @Test("WGS84 geodesic lengths within 1 µm of GeodSolve, rhumb within 1 mm of RhumbSolve (3,000 pairs)")
    func accuracy() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("geodesic/reference.tsv"), encoding: .utf8)
        var checked = 0
        var worstGeodesic = 0.0
        var worstRhumb = 0.0
        var worstRhumbLine = ""
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count == 6 else { continue }
            let a = Coordinate(latitude: v[0], longitude: v[1])
            let b = Coordinate(latitude: v[2], longitude: v[3])
            worstGeodesic = max(worstGeodesic, abs(Geodesic.wgs84.inverse(a, b).distance - v[4]))
            let rhumbError = abs(Rhumb.distance(a, b, model: .wgs84) - v[5])
            if rhumbError > worstRhumb { worstRhumbLine = String(line) }
            worstRhumb = max(worstRhumb, rhumbError)
            checked += 1
        }
        #expect(checked == 3000)
        #expect(worstGeodesic < 1e-6, "worst geodesic error \(worstGeodesic) m")
        #expect(worstRhumb < 1e-3, "worst rhumb error \(worstRhumb) m at \(worstRhumbLine)")
    }

    @Test("Contains-location: the South Pole is outside, a vertex is inside, geodesic vs rhumb edges")
    func containsLocation() {
        let square: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 10),
            Coordinate(latitude: 10, longitude: 10), Coordinate(latitude: 10, longitude: 0),
        ]
        #expect(Spherical.contains(Coordinate(latitude: 5, longitude: 5), in: square, geodesic: true))
        #expect(Spherical.contains(Coordinate(latitude: 0, longitude: 0), in: square, geodesic: true))
        #expect(!Spherical.contains(Coordinate(latitude: -90, longitude: 0), in: square, geodesic: true))
        #expect(!Spherical.contains(Coordinate(latitude: 20, longitude: 5), in: square, geodesic: false))
        // Just above the top edge's midpoint: inside with a great-circle edge (it bulges north), outside with a rhumb edge.
        let probe = Coordinate(latitude: 10.03, longitude: 5)
        #expect(Spherical.contains(probe, in: square, geodesic: true))
        #expect(!Spherical.contains(probe, in: square, geodesic: false))
        #expect(
            Spherical.isOnPath(
                Coordinate(latitude: 0.00001, longitude: 5), Path(Array(square.prefix(2))), geodesic: true, tolerance: 5
            ))
        #expect(
            !Spherical.isOnPath(
                Coordinate(latitude: 0.001, longitude: 5), Path(Array(square.prefix(2))), geodesic: true, tolerance: 5))
    }

    @Test("The appendix span example: [white × 1.0, black × 0.5, white × 0.5]")
    func spanExample() {
        // Two 100 km geodesic segments along the equator on the 6,371,009 m sphere.
        let step = 100_000 / Spherical.radius * 180 / .pi
        let path: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: step),
            Coordinate(latitude: 0, longitude: 2 * step),
        ]
        let spans = StyleSpans.pattern(
            path: path, styles: [white, black], lengths: [100_000, 50_000], kind: .geodesic)
        #expect(spans.map(\.style) == [white, black, white])
        #expect(spans.count == 3)
        for (span, expected) in zip(spans, [1.0, 0.5, 0.5]) { #expect(abs(span.segments - expected) < 1e-9) }
        // An offset shifts the pattern; the period is sum × styles / gcd = 150 km × 2 / 2.
        let shifted = StyleSpans.pattern(
            path: path, styles: [white, black], lengths: [100_000, 50_000], kind: .geodesic, offset: 100_000)
        #expect(shifted.first?.style == black && abs((shifted.first?.segments ?? 0) - 0.5) < 1e-9)
        #expect(
            StyleSpans.pattern(
                path: path, styles: [white, black], lengths: [100_000, 50_000], kind: .geodesic, offset: 250_000)
                == shifted)
        let rhumb = StyleSpans.pattern(path: path, styles: [white], lengths: [50_000], kind: .rhumb)
        #expect(abs(rhumb.reduce(0) { $0 + $1.segments } - 2) < 1e-9)
    }

    @Test("The exploded GeoJSON of the span example has three lines with those colours and lengths")
    func explodedSpans() throws {
        let step = 100_000 / Spherical.radius * 180 / .pi
        var feature = Polyline(path: [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: step),
            Coordinate(latitude: 0, longitude: 2 * step),
        ]).feature
        feature.style.spans = StyleSpans.pattern(
            path: Path([
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: step),
                Coordinate(latitude: 0, longitude: 2 * step),
            ]),
            styles: [white, black], lengths: [100_000, 50_000], kind: .geodesic)
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("spans.geojson").path
        let (text, _) = try writeGeoJSON([feature])
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        let output = directory.appendingPathComponent("exploded.geojson").path
        let result = try CLI.run([input, output, "--explode-spans"])
        #expect(result.status == 0, "\(result.stderr)")
        let (_, lines, _) = try readGeoJSON(String(contentsOfFile: output, encoding: .utf8))
        #expect(lines.count == 3)
        #expect(lines.map(\.style.strokeColor) == [.white, .black, .white])
        let lengths = lines.map {
            Spherical.length($0.geometry.flatMap { if case .lineString(let p) = $0 { p } else { nil } } ?? [])
        }
        for (length, expected) in zip(lengths, [100_000.0, 50_000, 50_000]) {
            #expect(abs(length - expected) < 0.01, "\(lengths)")
        }
        // Computing the pattern during conversion gives the same spans.
        let plain = directory.appendingPathComponent("plain.geojson").path
        var bare = feature
        bare.style.spans = []
        try writeGeoJSON([bare]).text.write(toFile: plain, atomically: false, encoding: .utf8)
        let patterned = directory.appendingPathComponent("patterned.geojson").path
        #expect(
            try CLI.run([plain, patterned, "--span-pattern", "white:100000,black:50000", "--length-kind", "geodesic"])
                .status == 0)
        let (_, withSpans, _) = try readGeoJSON(String(contentsOfFile: patterned, encoding: .utf8))
        #expect(withSpans.first?.style.spans.map(\.style) == [white, black, white])
    }

    @Test("Circles become geodesic polygons and are recognised back")
    func circleRoundTrip() throws {
        let center = Coordinate(latitude: 51.5007, longitude: -0.1246)
        for radius in [25.0, 1_000, 250_000] {
            let ring = CirclePolygon.ring(center: center, radius: radius)
            let found = try #require(CirclePolygon.recognize(ring))
            #expect(abs(found.radius - radius) / radius < 1e-6)
            #expect(Geodesic.wgs84.inverse(found.center, center).distance < radius * 1e-6 + 1e-6)
        }
        // A square is not a circle; neither is a half circle.
        let square: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
            Coordinate(latitude: 1, longitude: 1),
            Coordinate(latitude: 1, longitude: 0), Coordinate(latitude: 0, longitude: 0),
        ]
        #expect(CirclePolygon.recognize(square) == nil)
        let half = Path(
            Array(CirclePolygon.ring(center: center, radius: 1000).prefix(40)) + [
                CirclePolygon.ring(center: center, radius: 1000)[0]
            ])
        #expect(CirclePolygon.recognize(half) == nil)
    }

    @Test("Douglas–Peucker in metres keeps shape and ring validity")
    func simplify() throws {
        var points: [Coordinate] = []
        for i in 0...100 {
            points.append(
                Coordinate(latitude: -33.86 + Double(i) * 0.0001, longitude: 151.21 + (i % 2 == 0 ? 0 : 0.000001)))
        }
        var transform = Simplify(tolerance: 1)
        let out = try transform.transform(Feature(geometry: .lineString(Path(points))), diagnostics: DiagnosticLog())
        guard case .lineString(let simplified)? = out.first?.geometry else {
            Issue.record("not a line")
            return
        }
        #expect(simplified.count == 2)  // the zig-zag is 0.1 m wide, under 1 m
        let ring = Path(CirclePolygon.ring(center: Coordinate(latitude: 0, longitude: 0), radius: 10).coordinates)
        let polygon = try transform.transform(
            Feature(geometry: .polygon(PolygonRings(outer: ring))), diagnostics: DiagnosticLog())
        guard case .polygon(let rings)? = polygon.first?.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(rings.outer.count >= 4 && rings.outer.isClosed)
    }

    @Test("An EPSG:3857 GeoJSON converts to KML in the right place; a swapped file gets the warning")
    func reprojection() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("mercator.geojson").path
        try
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features":[{"type":"Feature","properties":{"name":"Opera House"},"geometry":{"type":"Point","coordinates":[16833210.196,-4009589.934]}}]}"#
            .write(toFile: input, atomically: false, encoding: .utf8)
        let output = directory.appendingPathComponent("opera.kml").path
        let result = try CLI.run([input, output])
        #expect(result.status == 0, "\(result.stderr)")
        let features = try readKML(path: output).features
        guard case .point(let c)? = features.first?.geometry else {
            Issue.record("no point")
            return
        }
        #expect(abs(c.latitude - -33.8568) < 0.0005 && abs(c.longitude - 151.2153) < 0.0005, "\(c)")
        let swapped = directory.appendingPathComponent("swapped.geojson").path
        try #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-33.8568,151.2153]}}"#
            .write(toFile: swapped, atomically: false, encoding: .utf8)
        let warned = try CLI.run([swapped, directory.appendingPathComponent("s.kml").path])
        #expect(warned.stderr.contains("latitude and longitude look swapped"))
        #expect(try CLI.run([swapped, directory.appendingPathComponent("t.kml").path, "--strict"]).status == 1)
        // --s-srs / --t-srs with WKT.
        let kept = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "wkt", "--s-srs", "EPSG:32633"], stdin: "POINT (500000 4649776)\n")
        #expect(
            kept.stdout == "SRID=32633;POINT (500000 4649776)\n",
            "WKT keeps the input's CRS unless --t-srs asks: \(kept.stderr)")
        #expect(
            try CLI.run(["-", "-", "--from", "wkt", "--to", "geojson", "--t-srs", "EPSG:3857"], stdin: "POINT (1 2)\n")
                .status == 64)
    }

    @Test(
        "--s-srs EPSG:32633 --t-srs EPSG:4326 moves a UTM point to longitude/latitude; an unknown EPSG code is PROJ's error",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func utmThroughPROJ() throws {
        let utm = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "wkt", "--s-srs", "EPSG:32633", "--t-srs", "EPSG:4326"],
            stdin: "POINT (500000 4649776)\n")
        let point = try WKTParser.parse(utm.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).geometry
        guard case .point(let p) = point else {
            Issue.record("\(utm.stdout)")
            return
        }
        #expect(abs(p.longitude - 15) < 1e-6 && abs(p.latitude - 42) < 1e-4)
        let bad = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "wkt", "--s-srs", "EPSG:999999"], stdin: "POINT (1 2)\n")
        #expect(bad.status == 1 && bad.stderr.contains("PROJ does not know the CRS"))
    }

    @Test("measure --json")
    func measure() throws {
        let result = try CLI.run([
            "measure", "--json", "--model", "sphere", Fixtures.testdata("polyline/hyde-park.polyline"),
        ])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["model"] as? String == "sphere" && json["kind"] as? String == "geodesic")
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(features.count == 1 && features[0]["index"] as? Int == 0)
        let area = try #require(features[0]["area_m2"] as? Double)
        #expect(area > 150_000 && area < 200_000)  // Hyde Park, Sydney: about 16 ha, less the pools
        #expect(json["total_area_m2"] as? Double == area)
    }
}
