import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvShapefile
import GeoConvTestSupport
import Testing

#if Shapefile
/// Shapefiles read through the format's reader alone (shapelib), held to the fixtures' sources
/// (`testdata/shapefile/source/`, made into shapefiles by GDAL: `scripts/make-shapefile-fixtures.sh`).
/// Conversions, the CLI and GDAL reading what geoconv writes: `GeoConvTests` (Shapefile*Tests).
@Suite("Shapefile")
struct ShapefileTests {
    /// What the Shapefile reader makes of a file (no pipeline: no reprojection).
    static func read(
        path: String, options: ConversionOptions = ConversionOptions()
    ) throws -> (header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog) {
        try FormatIO.read(try ByteReader(.file(path)), as: .shapefile, options: options)
    }

    static func load(
        _ name: String, options: ConversionOptions = ConversionOptions()
    ) throws -> (document: (header: DocumentHeader, features: [Feature]), log: DiagnosticLog) {
        let read = try read(path: Fixtures.testdata("shapefile/\(name)"), options: options)
        return ((read.header, read.features), read.diagnostics)
    }

    static func c(_ lon: Double, _ lat: Double, _ z: Double? = nil) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon, altitude: z)
    }

    static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool) -> Path {
        clockwise
            ? [c(x0, y0), c(x0, y1), c(x1, y1), c(x1, y0), c(x0, y0)]
            : [c(x0, y0), c(x1, y0), c(x1, y1), c(x0, y1), c(x0, y0)]
    }

    @Test(
        "Polygons: clockwise rings are outer ones, holes go to the ring around them; values typed as GDAL types them; a null shape"
    )
    func polygons() throws {
        let (document, _) = try Self.load("parcels.shp")
        #expect(document.header.crs == nil)  // the .prj says WGS84
        #expect(document.features.count == 3)
        let lot = document.features[0]
        #expect(
            lot.geometry
                == .polygon(
                    PolygonRings(
                        outer: Self.square(0, 0, 10, 10, clockwise: true),
                        holes: [Self.square(4, 4, 6, 6, clockwise: false)])))
        #expect(
            lot.properties == [
                "name": "Lot with a pond", "area": .number(JSONNumber(1250.75)!), "lots": 3, "public": 1,
                "note": "Zürich – café",
            ])
        #expect(lot.title == "Lot with a pond")
        guard case .multiPolygon(let islands)? = document.features[1].geometry else {
            Issue.record("not a MultiPolygon: \(String(describing: document.features[1].geometry))")
            return
        }
        #expect(islands.count == 2 && islands[0].holes.count == 1 && islands[1].holes.isEmpty)
        #expect(islands[1].outer.coordinates.contains(Self.c(25, 5)) == false && islands[1].outer.count == 5)
        #expect(document.features[1].properties["note"] == .null)
        #expect(document.features[2].geometry == nil && document.features[2].properties["area"] == .null)
    }

    @Test("PolyLineZ: one part a LineString, several a MultiLineString, with altitudes")
    func lines() throws {
        let (document, _) = try Self.load("roads.shp")
        #expect(
            document.features.map(\.geometry) == [
                .lineString([Self.c(7.1, 46.2, 410.5), Self.c(7.2, 46.3, 420.25), Self.c(7.3, 46.35, 433)]),
                .multiLineString([
                    [Self.c(7, 46, 400), Self.c(7.05, 46.05, 401)], [Self.c(7.5, 46.5, 500), Self.c(7.6, 46.6, 510)],
                ]),
            ])
        #expect(document.features[1].properties == ["ref": "B22", "lanes": 2])
    }

    @Test(
        "Text decoded from the .cpg's code page, from the DBF's language driver id, or as --shp-encoding says",
        arguments: ["stops.shp", "stops-ldid.shp"])
    func encodings(file: String) throws {
        let (document, log) = try Self.load(file)
        #expect(document.features.map(\.title) == ["Gare de Lyon", "Besançon Viotte", "Señora de la Peña"])
        #expect(log.isEmpty)
        var options = ConversionOptions()
        options.formatOptions[ShapefileOptions.encoding] = "UTF-8"
        let (wrong, wrongLog) = try Self.load(file, options: options)
        #expect(wrong.features[1].title == "Besan\u{FFFD}on Viotte")
        #expect(wrongLog.entries["shapefile.invalid-text"] != nil)
    }

    @Test(
        "A .cpg naming no known encoding (QGIS's \"System\") is read as GDAL reads it, with a warning",
        arguments: ["stops-ldid", "stops"])
    func unknownCodePage(base: String) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoconv-cpg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for part in ["shp", "shx", "dbf", "prj"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.testdata("shapefile/\(base).\(part)"),
                toPath: directory.appendingPathComponent("s.\(part)").path)
        }
        try "System".write(to: directory.appendingPathComponent("s.cpg"), atomically: true, encoding: .utf8)
        let (_, features, log) = try Self.read(path: directory.appendingPathComponent("s.shp").path)
        let document = (features: features, log: log)
        // The language driver's CP1252 (stops-ldid), or UTF-8 else ISO-8859-1 (stops: no driver id).
        #expect(document.features.map(\.title) == ["Gare de Lyon", "Besançon Viotte", "Señora de la Peña"])
        let warning = try #require(log.entries["shapefile.unknown-code-page"])
        #expect(!warning.first.isNote && warning.first.message.contains(#"the .cpg says "System""#))
        let readAs = base == "stops-ldid" ? "CP1252 (the DBF's language driver id 3)" : "ISO-8859-1"
        #expect(warning.first.message.contains(readAs))
    }

    @Test("A .zip of shapefiles is read whole, one after the other, from a file or from bytes in memory")
    func zipped() throws {
        let (document, log) = try Self.load("both.zip")
        #expect(document.features.count == 5)
        #expect(document.features[3].properties["ref"] == "A1")
        #expect(log.entries["shapefile.layers-merged"] != nil)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("shapefile/both.zip"))))
        let piped = try FormatIO.read(bytes: bytes, as: .shapefile, name: "-")
        #expect(piped.features == document.features)
    }

    /// A dBASE III table with these text fields and rows (what GeoTools writes when two
    /// attributes share a name), made byte by byte.
    static func dbf(fields: [String], rows: [[String]], width: Int = 10) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let headerLength = 32 + 32 * fields.count + 1
        let recordLength = 1 + width * fields.count
        var out: [UInt8] = [3, 126, 1, 1] + [UInt8(rows.count), 0, 0, 0] + le16(headerLength) + le16(recordLength)
        out += [UInt8](repeating: 0, count: 20)
        for name in fields {
            let bytes = Array(name.utf8.prefix(10))
            out +=
                bytes + [UInt8](repeating: 0, count: 11 - bytes.count) + [
                    UInt8(ascii: "C"), 0, 0, 0, 0, UInt8(width), 0,
                ]
            out += [UInt8](repeating: 0, count: 14)
        }
        out.append(0x0D)
        for row in rows {
            out.append(0x20)
            for value in row { out += Array(value.utf8) + [UInt8](repeating: 0x20, count: width - value.utf8.count) }
        }
        out.append(0x1A)
        return out
    }

    @Test("Two fields of one name: both kept, the second renamed as GDAL renames it, with a warning")
    func duplicateFieldNames() throws {
        let directory = try Fixtures.temporaryDirectory()
        let shp = directory.appendingPathComponent("dup.shp").path
        let points = [Feature(geometry: .point(Self.c(1, 2))), Feature(geometry: .point(Self.c(3, 4)))]
        try FormatIO.write(points, as: .shapefile, toFile: shp)
        let table = Self.dbf(
            fields: ["TestColumn", "TestColumn", "testcolumn"], rows: [["a", "b", "c"], ["d", "e", "f"]])
        try Data(table).write(to: directory.appendingPathComponent("dup.dbf"))
        let (_, features, log) = try Self.read(path: shp)
        let document = (features: features, log: log)
        #expect(
            document.features.map { Array($0.properties.keys) }
                == Array(repeating: ["TestColumn", "TestColumn2", "testcolumn"], count: 2))
        #expect(document.features.map { $0.properties["TestColumn2"] } == ["b", "e"])
        #expect(document.features.map { $0.properties["testcolumn"] } == ["c", "f"])
        #expect(
            log.entries["shapefile.duplicate-field-renamed"]?.first.message.contains("TestColumn → TestColumn2") == true
        )
    }
}

#else
@Suite("Shapefile")
struct ShapefileTests {
    @Test("Shapefiles read and written (needs the Shapefile trait)", .disabled("built without the Shapefile trait"))
    func needsTheTrait() {}
}
#endif
