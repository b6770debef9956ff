import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// Reprojection keeps a polygon's rings where they were: each ring of the output is PROJ's own
/// transform of the same ring of the input, in order (issue 43: the holes came out as the shell
/// and the shell as a hole, because positions were handed back by a running index in another
/// order than they were taken).
@Suite("Reprojection keeps rings, parts and members in place")
struct ReprojectionRingTests {
    /// A square ring of `size` around (x, y), counter-clockwise, closed; clockwise when `hole`.
    static func square(_ x: Double, _ y: Double, _ size: Double, hole: Bool = false) -> Path {
        var points = [
            Coordinate(latitude: y, longitude: x), Coordinate(latitude: y, longitude: x + size),
            Coordinate(latitude: y + size, longitude: x + size), Coordinate(latitude: y + size, longitude: x),
        ]
        if hole { points.reverse() }
        return Path(points + [points[0]])
    }

    /// A polygon with a shell of `size` around (x, y) and `holes` holes of different sizes in it.
    static func polygon(_ x: Double, _ y: Double, _ size: Double, holes: Int) -> PolygonRings {
        let step = size / Double(holes + 1)
        var inner: [Path] = []
        for i in 0..<holes {
            let offset = Double(i)
            let left: Double = x + step * offset + step * 0.25
            let bottom: Double = y + step * 0.5 + step * 0.1 * offset
            let side: Double = step * (0.3 + 0.1 * Double(i % 3))
            inner.append(square(left, bottom, side, hole: true))
        }
        return PolygonRings(outer: square(x, y, size), holes: inner)
    }

    /// Geometries in a CRS whose coordinates are around (x, y) with extent `size`: a polygon with
    /// three holes, a multipolygon of two such polygons, and a collection holding both and a line.
    static func shapes(_ x: Double, _ y: Double, _ size: Double) -> [Geometry] {
        let a = polygon(x, y, size, holes: 3)
        let b = polygon(x + size * 1.5, y, size / 2, holes: 2)
        let line = Path([
            Coordinate(latitude: y, longitude: x), Coordinate(latitude: y + size, longitude: x + size / 3),
        ])
        return [
            .polygon(a), .multiPolygon([a, b, PolygonRings(outer: square(x, y + size * 2, size / 3))]),
            .geometryCollection([
                .lineString(line), .polygon(b), .multiPolygon([b, a]), .point(Coordinate(latitude: y, longitude: x)),
            ]),
        ]
    }

    /// Every path of a geometry in order, with where it is (`member 2 / part 1 / ring 0`).
    static func paths(_ geometry: Geometry, at place: String = "") -> [(place: String, path: [Coordinate])] {
        switch geometry {
        case .point(let c): return [(place + "point", [c])]
        case .lineString(let path): return [(place + "line", path.coordinates)]
        case .polygon(let rings):
            return rings.rings.enumerated().map { (place + "ring \($0.offset)", $0.element.coordinates) }
        case .multiPoint(let points): return [(place + "points", points)]
        case .multiLineString(let lines):
            return lines.enumerated().map { (place + "line \($0.offset)", $0.element.coordinates) }
        case .multiPolygon(let polygons):
            return polygons.enumerated().flatMap { part in
                part.element.rings.enumerated().map {
                    (place + "part \(part.offset) / ring \($0.offset)", $0.element.coordinates)
                }
            }
        case .geometryCollection(let members):
            return members.enumerated().flatMap { paths($0.element, at: place + "member \($0.offset) / ") }
        case .circle(let center, _): return [(place + "circle", [center])]
        case .empty: return []
        }
    }

    /// Reprojects each shape through `Reproject` and compares every ring, in order, with the same
    /// ring transformed on its own.
    func check(from crs: String, x: Double, y: Double, size: Double) throws {
        var transform = Reproject(sourceCRS: crs)
        let diagnostics = DiagnosticLog()
        _ = try transform.transform(DocumentHeader(), diagnostics: diagnostics)
        for shape in Self.shapes(x, y, size) {
            let output = try transform.transform(Feature(geometry: shape), diagnostics: diagnostics)
            let reprojected = try #require(output.first?.geometry)
            let got = Self.paths(reprojected)
            let given = Self.paths(shape)
            #expect(got.map(\.place) == given.map(\.place), "\(crs): the structure changed")
            for (input, result) in zip(given, got) {
                var expected = input.path
                try Reprojection(from: crs).transform(&expected)  // this ring alone
                #expect(result.path.count == expected.count, "\(crs) \(input.place)")
                for (a, b) in zip(result.path, expected) {
                    #expect(
                        abs(a.longitude - b.longitude) < 1e-9 && abs(a.latitude - b.latitude) < 1e-9,
                        "\(crs) \(input.place): \(a) is not PROJ's \(b)")
                }
            }
        }
    }

    @Test("Web Mercator (native in every build): each ring is its own ring's transform")
    func webMercator() throws {
        try check(from: "EPSG:3857", x: 0, y: 0, size: 1_000_000)
    }

    @Test(
        "UTM 33N, Swiss LV95 (EPSG:2056), ETRS89 (latitude first) and LAEA Europe (northing first) through PROJ",
        .enabled(if: BuiltTraits.proj))
    func throughPROJ() throws {
        try check(from: "EPSG:32633", x: 400_000, y: 5_000_000, size: 50_000)
        try check(from: "EPSG:2056", x: 2_600_000, y: 1_200_000, size: 20_000)
        try check(from: "EPSG:4258", x: 10, y: 50, size: 1)  // axis order latitude, longitude
        try check(from: "EPSG:3035", x: 4_300_000, y: 3_000_000, size: 100_000)  // axis order northing, easting
    }

    @Test("The issue's EWKT square with a hole: the shell is 9°, the hole 1.8° inside it")
    func ewktSquareWithHole() throws {
        let wkt =
            "SRID=3857;POLYGON((0 0,1000000 0,1000000 1000000,0 1000000,0 0),"
            + "(200000 200000,200000 400000,400000 400000,400000 200000,200000 200000))\n"
        let report = try Converter().convert(
            .memory(Array(wkt.utf8), name: "hole.wkt"), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSON))
        let features = try readGeoJSON(String(decoding: report.output, as: UTF8.self)).features
        guard case .polygon(let rings)? = features.first?.geometry else {
            Issue.record("not a polygon: \(String(describing: features.first?.geometry))")
            return
        }
        #expect(rings.holes.count == 1)
        let shell = rings.outer.coordinates
        let hole = rings.holes.first?.coordinates ?? []
        #expect(shell.map(\.longitude).max().map { abs($0 - 8.983152841195214) < 1e-9 } == true, "\(shell)")
        #expect(hole.map(\.longitude).max().map { abs($0 - 3.5932611364780858) < 1e-9 } == true, "\(hole)")
        #expect(hole.map(\.longitude).min().map { abs($0 - 1.7966305682390429) < 1e-9 } == true, "\(hole)")
    }

    @Test("A projected polygon across the antimeridian keeps its hole inside its shell")
    func holeAcrossTheAntimeridian() throws {
        // Web Mercator x beyond the map's edge: a shell from 170° to 190°, a hole from 184° to 187°.
        let metresPerDegree = 20_037_508.342_789_244 / 180
        func ring(_ west: Double, _ east: Double, _ south: Double, _ north: Double) -> Path {
            let corners = [(west, south), (east, south), (east, north), (west, north), (west, south)]
            return Path(corners.map { Coordinate(latitude: $0.1, longitude: $0.0 * metresPerDegree) })
        }
        let polygon = PolygonRings(outer: ring(170, 190, 0, 2_000_000), holes: [ring(184, 187, 500_000, 1_500_000)])
        var transform = Reproject(sourceCRS: "EPSG:3857")
        let diagnostics = DiagnosticLog()
        _ = try transform.transform(DocumentHeader(), diagnostics: diagnostics)
        for geometry in [Geometry.polygon(polygon), .multiPolygon([polygon])] {
            let output = try transform.transform(Feature(geometry: geometry), diagnostics: diagnostics)
            let rings = Self.paths(try #require(output.first?.geometry))
            let shell = rings[0].path.map(\.longitude)
            let hole = rings[1].path.map(\.longitude)
            let (west, east) = (try #require(shell.min()), try #require(shell.max()))
            #expect(abs(west - 170) < 1e-6 && abs(east - 190) < 1e-6, "shell \(shell)")
            #expect(hole.allSatisfy { $0 > west && $0 < east }, "the hole \(hole) is outside its shell \(west)…\(east)")
        }
    }
}

/// A circle carried into a projected CRS: drawn on the ellipsoid in longitude and latitude
/// first, then each vertex reprojected (it used to be drawn around the reprojected centre,
/// metres taken for degrees, and the geodesic code trapped on the NaN that made).
@Suite("Circles into a projected CRS")
struct CircleReprojectionTests {
    static let circle = Array(
        (#"{"type":"Feature","properties":{"geoconv:radius":1000},"#
            + #""geometry":{"type":"Point","coordinates":[151.2,-33.9]}}"#)
            .utf8)

    @Test("A 1 km circle into Web Mercator is a ring of vertices 1 km (at its scale) from its centre")
    func drawnFirst() throws {
        var options = ConversionOptions()
        options.inputFormat = .geoJSON
        options.outputFormat = .wkt
        options.targetCRS = "EPSG:3857"
        let report = try Converter().convert(.memory(Self.circle, name: "c.geojson"), to: .memory, options: options)
        let text = String(decoding: report.output, as: UTF8.self)
        // (The coordinates, past `SRID=3857;POLYGON ((`.)
        let ring = text.split(separator: "((", maxSplits: 1).last ?? ""
        let numbers = ring.split { !"0123456789.-".contains($0) }.compactMap { Double($0) }
        #expect(numbers.count >= 2 * 16, "\(text.prefix(200))")
        // Web Mercator's centre, and its scale at 33.9° S (1 / cos φ).
        let cx = 151.2 * .pi / 180 * 6_378_137
        let cy = log(tan(.pi / 4 + 33.9 * .pi / 360)) * -6_378_137
        let scale = 1 / cos(33.9 * .pi / 180)
        for k in stride(from: 0, to: numbers.count - 1, by: 2) {
            let d = ((numbers[k] - cx) * (numbers[k] - cx) + (numbers[k + 1] - cy) * (numbers[k + 1] - cy)).squareRoot()
            #expect(abs(d / scale - 1000) < 5, "vertex \(k / 2): \(d / scale) m")
        }
    }

    @Test("A circle whose centre is not a longitude and latitude is a located error, not a trap")
    func notDegrees() throws {
        var options = ConversionOptions()
        options.inputFormat = .geoJSON
        options.outputFormat = .wkt
        options.sourceCRS = "EPSG:3857"
        options.targetCRS = "EPSG:3857"
        let far = Array(
            (#"{"type":"Feature","properties":{"geoconv:radius":10},"#
                + #""geometry":{"type":"Point","coordinates":[1.5e7,-4e6]}}"#)
                .utf8)
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(.memory(far, name: "far.geojson"), to: .memory, options: options)
        }
        #expect(error?.message.contains("not a longitude and latitude") == true, "\(String(describing: error))")
    }
}
