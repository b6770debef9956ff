import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeometryEncoding
import GeoConvIO
import GeoConvWKT
import GeoConvTestSupport
import Testing

@Suite("WKT and WKB")
struct WKTTests {
    static let samples: [Geometry] = {
        let a = Coordinate(latitude: -33.8568, longitude: 151.2153)
        let b = Coordinate(latitude: -33.87, longitude: 151.21)
        let c = Coordinate(latitude: -33.86, longitude: 151.22)
        let z = Coordinate(latitude: 1.5, longitude: 2.25, altitude: 30.125)
        let ring: Path = [a, b, c, a]
        let hole: Path = [
            Coordinate(latitude: -33.861, longitude: 151.215), Coordinate(latitude: -33.862, longitude: 151.214),
            Coordinate(latitude: -33.861, longitude: 151.214), Coordinate(latitude: -33.861, longitude: 151.215),
        ]
        return [
            .point(a), .point(z), .lineString([a, b, c]), .lineString([z, z]),
            .polygon(PolygonRings(outer: ring, holes: [hole])), .multiPoint([a, b]),
            .multiLineString([[a, b], [b, c]]),
            .multiPolygon([PolygonRings(outer: ring), PolygonRings(outer: ring, holes: [hole])]),
            .geometryCollection([.point(a), .lineString([a, b]), .polygon(PolygonRings(outer: ring))]),
            .empty(.point), .empty(.lineString), .empty(.polygon), .empty(.multiPoint), .empty(.multiLineString),
            .empty(.multiPolygon), .empty(.geometryCollection),
        ]
    }()

    @Test("Model → WKT → model and model → WKB → model are equal for every kind and dimension", arguments: samples)
    func roundTrips(geometry: Geometry) throws {
        let text = try WKTWriter().text(for: geometry)
        #expect(try WKTParser.parse(text).geometry == geometry, "\(text)")
        for flavor in [WKB.Flavor.iso, .extended] {
            var bytes: [UInt8] = []
            try WKB.append(geometry, flavor: flavor, srid: flavor == .extended ? 4326 : nil, to: &bytes)
            let read = try bytes.withUnsafeBytes { try WKB.read($0) }
            #expect(read.0.geometry == geometry)
            #expect(read.0.srid == (flavor == .extended ? 4326 : nil))
        }
    }

    @Test("EWKT SRID, dimension tags, M dropped, glued tags, case and whitespace")
    func forms() throws {
        let ewkt = try WKTParser.parse("SRID=3857;POINT(1 2)")
        #expect(ewkt.srid == 3857 && ewkt.geometry == .point(Coordinate(latitude: 2, longitude: 1)))
        #expect(
            try WKTParser.parse("  linestring  m ( 1 2 3 , 4 5 6 )").geometry
                == .lineString([
                    Coordinate(latitude: 2, longitude: 1), Coordinate(latitude: 5, longitude: 4),
                ]))
        #expect(
            try WKTParser.parse("POINTZ(1 2 3)").geometry == .point(Coordinate(latitude: 2, longitude: 1, altitude: 3)))
        #expect(try WKTParser.parse("MULTIPOINT (1 2, 3 4)") == WKTParser.parse("MULTIPOINT ((1 2), (3 4))"))
        #expect(
            try WKTWriter().text(for: .point(Coordinate(latitude: 2, longitude: 1)), srid: 4326)
                == "SRID=4326;POINT (1 2)")
        // Big-endian WKB from PostGIS docs: POINT(1 2).
        let bigEndian: [UInt8] = [0x00, 0, 0, 0, 1, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0]
        #expect(
            try bigEndian.withUnsafeBytes { try WKB.read($0) }.0.geometry
                == .point(Coordinate(latitude: 2, longitude: 1)))
    }
}

/// A Python with shapely, if one is installed (the bench venv, or the system's).
let shapelyPython: String? = {
    for candidate in [
        "/work/benchdata/venv/bin/python", "bench-out/venv/bin/python", "/usr/bin/python3", "/usr/local/bin/python3",
    ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: candidate)
        process.arguments = ["-c", "import shapely"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { continue }
        process.waitUntilExit()
        if process.terminationStatus == 0 { return candidate }
    }
    return nil
}()

@Suite("Cross-check with shapely", .enabled(if: shapelyPython != nil))
struct ShapelyCheck {

    @Test("geoconv's WKT and WKB parse in shapely to the same geometry, and shapely's in geoconv")
    func crossCheck() throws {
        var generator = SplitMix64(seed: 7)
        func coordinate(_ z: Bool) -> Coordinate {
            Coordinate(
                latitude: Double.random(in: -80...80, using: &generator),
                longitude: Double.random(in: -170...170, using: &generator),
                altitude: z ? Double.random(in: 0...500, using: &generator) : nil)
        }
        var geometries: [Geometry] = []
        for i in 0..<200 {
            let z = i % 3 == 0
            let p = (0..<5).map { _ in coordinate(z) }
            let ring = Path([p[0], p[1], p[2], p[0]])
            switch i % 7 {
            case 0: geometries.append(.point(p[0]))
            case 1: geometries.append(.lineString(Path(p)))
            case 2: geometries.append(.polygon(PolygonRings(outer: ring)))
            case 3: geometries.append(.multiPoint(p))
            case 4: geometries.append(.multiLineString([Path(Array(p[0...1])), Path(Array(p[2...4]))]))
            case 5: geometries.append(.multiPolygon([PolygonRings(outer: ring), PolygonRings(outer: ring)]))
            default: geometries.append(.geometryCollection([.point(p[0]), .lineString(Path(p))]))
            }
        }
        let directory = try Fixtures.temporaryDirectory()
        let wktFile = directory.appendingPathComponent("ours.wkt")
        let hexFile = directory.appendingPathComponent("ours.wkbhex")
        try geometries.map { try WKTWriter().text(for: $0) }.joined(separator: "\n").write(
            to: wktFile, atomically: false, encoding: .utf8)
        try geometries.map { g -> String in
            var bytes: [UInt8] = []
            try WKB.append(g, to: &bytes)
            var hex: [UInt8] = []
            WKB.appendHex(bytes, to: &hex)
            return String(decoding: hex, as: UTF8.self)
        }.joined(separator: "\n").write(to: hexFile, atomically: false, encoding: .utf8)
        // shapely reads ours, checks WKT and WKB agree, and writes its own WKT and WKB back.
        let script = """
            import shapely, sys
            wkts = open(sys.argv[1]).read().split("\\n"); hexes = open(sys.argv[2]).read().split("\\n")
            out_wkt, out_hex = [], []
            for w, h in zip(wkts, hexes):
                a = shapely.from_wkt(w); b = shapely.from_wkb(bytes.fromhex(h))
                assert shapely.equals_exact(a, b, tolerance=0) or (a.is_empty and b.is_empty), (w, h)
                out_wkt.append(shapely.to_wkt(a, rounding_precision=-1)); out_hex.append(shapely.to_wkb(a, hex=True))
            open(sys.argv[1] + ".shapely", "w").write("\\n".join(out_wkt)); open(sys.argv[2] + ".shapely", "w").write("\\n".join(out_hex))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(shapelyPython))
        process.arguments = ["-c", script, wktFile.path, hexFile.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirWKT = try String(contentsOfFile: wktFile.path + ".shapely", encoding: .utf8).split(separator: "\n")
        let theirHex = try String(contentsOfFile: hexFile.path + ".shapely", encoding: .utf8).split(separator: "\n")
        #expect(theirWKT.count == geometries.count && theirHex.count == geometries.count)
        for (i, geometry) in geometries.enumerated() where i < theirWKT.count && i < theirHex.count {
            // shapely (GEOS) prints 16 significant digits, which do not always read back as the
            // same double; geoconv prints the shortest exact form. Compare within that rounding.
            let theirs = try WKTParser.parse(String(theirWKT[i])).geometry
            var a: [Double] = []
            var b: [Double] = []
            theirs.forEachCoordinate { a += [$0.latitude, $0.longitude, $0.altitude ?? 0] }
            geometry.forEachCoordinate { b += [$0.latitude, $0.longitude, $0.altitude ?? 0] }
            #expect(theirs.kind == geometry.kind && a.count == b.count)
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= abs($1) * 1e-15 }, "\(theirWKT[i])")
            var hex = String(theirHex[i])
            let fromHex = try hex.withUTF8 { try WKB.read(hex: $0) }
            #expect(fromHex.0.geometry == geometry)
        }
    }
}

/// Curves (PostGIS, GEOS, SQL/MM) read and linearised as GDAL does.
@Suite("WKT and WKB curves")
struct WKTCurveTests {
    /// WKT read with `arcStep` and written back: the text and what the reader said.
    static func wkt(
        _ text: String, arcStep: Double? = nil
    ) throws(GeoConvError) -> (output: [UInt8], diagnostics: DiagnosticLog) {
        var options = ConversionOptions()
        options.formatOptions[WKTOptions.arcStep] = arcStep
        let read = try FormatIO.read(text, as: .wkt, name: "c.wkt", options: options)
        return (try FormatIO.write(read.features, header: read.header, as: .wkt).bytes, read.diagnostics)
    }

    @Test("A CIRCULARSTRING becomes GDAL's 4° segments: on the circle, from its first point to its last exactly")
    func circularString() throws {
        let parsed = try WKTParser.parse("CIRCULARSTRING (0 0, 1 1, 2 0)")
        guard case .lineString(let path) = parsed.geometry else {
            Issue.record("\(parsed.geometry)")
            return
        }
        let points = path.coordinates
        #expect(points.count == 46)  // 180° in 45 steps of 4°, as ogr2ogr -nlt CONVERT_TO_LINEAR
        #expect(
            points.first == Coordinate(latitude: 0, longitude: 0)
                && points.last == Coordinate(latitude: 0, longitude: 2))
        // ogr2ogr's second point: 0.002435949740176 0.069756473744125.
        #expect(
            abs(points[1].longitude - 0.002435949740176) < 1e-12 && abs(points[1].latitude - 0.069756473744125) < 1e-12)
        #expect(
            points.allSatisfy {
                abs(((($0.longitude - 1) * ($0.longitude - 1)) + $0.latitude * $0.latitude).squareRoot() - 1) < 1e-12
            })
        #expect(points.allSatisfy { $0.latitude >= 0 }, "the arc goes through (1 1), above the chord")
        let report = try Self.wkt("CIRCULARSTRING (0 0, 1 1, 2 0)\n", arcStep: 45)
        #expect(String(decoding: report.output, as: UTF8.self).split(separator: ",").count == 5)
        let warning = try #require(report.diagnostics.entries["wkt.curve-linearised"])
        #expect(warning.first.location?.line == 1 && warning.first.message.contains("at most 45°"))
    }

    @Test(
        "Every curve type, with Z, EMPTY and LINEARRING",
        arguments: [
            ("COMPOUNDCURVE (CIRCULARSTRING (0 0, 1 1, 2 0), (2 0, 3 0))", GeometryKind.lineString, 47),
            ("CURVEPOLYGON (CIRCULARSTRING (0 0, 2 0, 0 0))", .polygon, 91),
            (
                "CURVEPOLYGON (COMPOUNDCURVE (CIRCULARSTRING (0 0, 1 1, 2 0), (2 0, 0 0)), (0.5 0.1, 1.5 0.1, 1 0.5, 0.5 0.1))",
                .polygon, 51
            ),
            ("MULTICURVE ((0 0, 1 1), CIRCULARSTRING (0 0, 1 1, 2 0), EMPTY)", .multiLineString, 48),
            ("MULTISURFACE (CURVEPOLYGON (CIRCULARSTRING (0 0, 2 0, 0 0)), ((5 5, 6 5, 6 6, 5 5)))", .multiPolygon, 95),
            ("CIRCULARSTRING Z (0 0 1, 1 1 2, 2 0 3)", .lineString, 46),
            ("CIRCULARSTRINGZ (0 0 1, 1 1 2, 2 0 3)", .lineString, 46),
            ("COMPOUNDCURVE Z (CIRCULARSTRING Z (0 0 1, 1 1 2, 2 0 3), (2 0 3, 3 0 3))", .lineString, 47),
            ("LINEARRING (0 0, 1 0, 1 1, 0 0)", .lineString, 4),
            ("CIRCULARSTRING EMPTY", .lineString, 0),
        ] as [(String, GeometryKind, Int)])
    func curveTypes(text: String, kind: GeometryKind, positions: Int) throws {
        let geometry = try WKTParser.parse(text).geometry
        var count = 0
        geometry.forEachCoordinate { _ in count += 1 }
        #expect(geometry.kind == kind && count == positions, "\(text): \(geometry.kind), \(count) positions")
        if text.contains(" Z ") || text.contains("ZM") || text.contains("Z (") {
            var altitudes: [Double] = []
            geometry.forEachCoordinate { altitudes.append($0.altitude ?? .nan) }
            #expect(altitudes.first == 1 && altitudes.allSatisfy { $0 >= 1 && $0 <= 3 }, "Z interpolated along the arc")
        }
    }

    @Test("A CIRCULARSTRING needs an odd number of points, 3 or more")
    func badCircularString() {
        #expect {
            try WKTParser.parse("CIRCULARSTRING (0 0, 1 1)")
        } throws: { error in
            (error as? GeoConvError)?.code == .invalidInput
                && (error as? GeoConvError)?.message.contains("odd number of points") == true
        }
    }

}
