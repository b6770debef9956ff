import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

#if Shapefile
/// Shapefiles read and written through shapelib, held to the fixtures' sources
/// (`testdata/shapefile/source/`, made into shapefiles by GDAL: `scripts/make-shapefile-fixtures.sh`)
/// and to GDAL reading what geoconv writes.
@Suite("Shapefile")
struct ShapefileTests {
    static func load(
        _ name: String, options: ConversionOptions = ConversionOptions()
    ) throws -> (OverlayDocument, DiagnosticLog) {
        let log = DiagnosticLog()
        let document = try OverlayDocument.load(
            .file(Fixtures.testdata("shapefile/\(name)")), options: options, diagnostics: log)
        return (document, log)
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
        let log = DiagnosticLog()
        let document = try OverlayDocument.load(.file(directory.appendingPathComponent("s.shp").path), diagnostics: log)
        // The language driver's CP1252 (stops-ldid), or UTF-8 else ISO-8859-1 (stops: no driver id).
        #expect(document.features.map(\.title) == ["Gare de Lyon", "Besançon Viotte", "Señora de la Peña"])
        let warning = try #require(log.entries["shapefile.unknown-code-page"])
        #expect(!warning.first.isNote && warning.first.message.contains(#"the .cpg says "System""#))
        let readAs = base == "stops-ldid" ? "CP1252 (the DBF's language driver id 3)" : "ISO-8859-1"
        #expect(warning.first.message.contains(readAs))
    }

    @Test(
        "A .prj PROJ cannot read: carried shapefile → shapefile with a warning; to degrees, refused with a hint",
        .enabled(if: BuiltTraits.proj))
    func unreadablePRJ() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoconv-prj-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for part in ["shp", "shx", "dbf"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.testdata("shapefile/roads.\(part)"),
                toPath: directory.appendingPathComponent("r.\(part)").path)
        }
        let prj =
            #"PROJCS["Unknown Projection",GEOGCS["GCS_unknown",DATUM["D_unknown",SPHEROID["unknown",0,0]]],"#
            + #"PROJECTION["No_Such_Projection"],UNIT["Meter",1]]"#
        try prj.write(to: directory.appendingPathComponent("r.prj"), atomically: true, encoding: .utf8)
        let input = directory.appendingPathComponent("r.shp").path
        let out = directory.appendingPathComponent("out.shp").path
        let report = try Converter().convert(.file(input), to: .file(out))
        #expect(report.diagnostics.entries["proj.crs-not-understood"]?.first.isNote == false)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("out.prj").path, encoding: .utf8) == prj)
        let before = try OverlayDocument.load(.file(input)).features
        let after = try OverlayDocument.load(.file(out)).features
        #expect(after.map(\.geometry) == before.map(\.geometry) && !after.isEmpty)
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(.file(input), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
        }
        #expect(error?.hint?.contains("--s-srs") == true, "\(String(describing: error))")
    }

    @Test("A .zip of shapefiles is read whole, one after the other, from a file or from standard input")
    func zipped() throws {
        let (document, log) = try Self.load("both.zip")
        #expect(document.features.count == 5)
        #expect(document.features[3].properties["ref"] == "A1")
        #expect(log.entries["shapefile.layers-merged"] != nil)
        let piped = try CLI.run(
            [
                "-c", "\"$0\" - - --from shapefile --to geojsonseq < \(Fixtures.testdata("shapefile/both.zip"))",
                CLI.executable.path,
            ],
            shell: true)
        #expect(piped.status == 0 && piped.stdout.split(separator: "\n").count == 5, "\(piped.stderr)")
    }

    @Test("A .shp on standard input is refused, saying what to give instead")
    func standardInput() throws {
        let result = try CLI.run(["-", "out.geojson", "--from", "shapefile"], stdin: "not a shapefile")
        #expect(result.status == 64 && result.stderr.contains("give the .shp's path"), "\(result.stderr)")
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
        let csv = directory.appendingPathComponent("points.csv").path
        let shp = directory.appendingPathComponent("dup.shp").path
        try "lon,lat\n1,2\n3,4\n".write(toFile: csv, atomically: false, encoding: .utf8)
        _ = try Converter().convert(.file(csv), to: .file(shp))
        let table = Self.dbf(
            fields: ["TestColumn", "TestColumn", "testcolumn"], rows: [["a", "b", "c"], ["d", "e", "f"]])
        try Data(table).write(to: directory.appendingPathComponent("dup.dbf"))
        let log = DiagnosticLog()
        let document = try OverlayDocument.load(.file(shp), diagnostics: log)
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
