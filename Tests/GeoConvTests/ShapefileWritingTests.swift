import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

#if Shapefile
/// What GDAL's ogr2ogr makes of a file: its features as GeoJSON objects.
enum GDALShapefile {
    /// GDAL's features of a shapefile (or a zip of them), as GeoJSON objects, reprojected
    /// to WGS84 when asked (and the data has a .prj). A zip is read through `/vsizip/`, in
    /// the folder of its first `.shp` when that is not the root.
    static func features(_ path: String, wgs84: Bool = false) throws -> [[String: Any]] {
        var source = path
        let hasPRJ: Bool
        if path.hasSuffix(".zip") {
            source = "/vsizip/" + path
            let entries = String(decoding: try Tools.output(of: "/usr/bin/unzip", ["-Z1", path]), as: UTF8.self)
            if let shp = entries.split(separator: "\n").first(where: { $0.lowercased().hasSuffix(".shp") }),
                let slash = shp.lastIndex(of: "/")
            {
                source += "/" + shp[..<slash]
            }
            hasPRJ = entries.lowercased().contains(".prj")
        } else {
            hasPRJ = FileManager.default.fileExists(atPath: String(path.dropLast(4)) + ".prj")
        }
        // (Without a .prj GDAL cannot reproject: the data is taken as it is, by both.)
        let data = try Tools.output(
            of: try #require(Tools.ogr2ogr),
            ["-f", "GeoJSON", "/vsistdout/", source] + (wgs84 && hasPRJ ? ["-t_srs", "OGC:CRS84"] : []),
            anyStatus: true)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["features"] as? [[String: Any]])
    }

    /// Every number of a GeoJSON geometry, in order.
    static func ordinates(_ value: Any?) -> [Double] {
        if let number = value as? NSNumber { return [number.doubleValue] }
        if let array = value as? [Any] { return array.flatMap(ordinates) }
        if let object = value as? [String: Any] {
            return ordinates(object["coordinates"]) + ordinates(object["geometries"])
        }
        return []
    }

    /// Whether two lists of ordinates are the same within GDAL's GeoJSON output precision
    /// (15 significant digits): geoconv writes the shortest form that reads back exactly.
    static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($0)) }
    }

    /// The same, for coordinates both reprojected by PROJ: within 10⁻⁶° (10 cm), since GDAL
    /// and geoconv may ask PROJ for different datum changes (REL.zip's MGI / Austria Lambert
    /// differs by 1 cm); data in WGS84 is compared to 10⁻¹² as above.
    static func closeReprojected(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 }
    }

    static func ordinates(_ geometry: Geometry?) -> [Double] {
        var all: [Double] = []
        geometry?.forEachCoordinate { all += [$0.longitude, $0.latitude] + ($0.altitude.map { [$0] } ?? []) }
        return all
    }

    /// Whether a property GDAL read equals ours: numbers by value, text as text, null as null.
    static func same(_ gdal: Any?, _ ours: JSONValue?) -> Bool {
        switch (gdal, ours) {
        case (nil, nil), (nil, .null?), (is NSNull, .null?), (is NSNull, nil): return true
        case (let n as NSNumber, .number(let m)?):
            return abs(n.doubleValue - m.doubleValue) <= 1e-9 * max(1, abs(m.doubleValue))
        case (let s as String, .string(let t)?): return s == t
        case (let nested?, .string(let t)?) where nested is [Any] || nested is [String: Any]:
            // GDAL's GeoJSON writer turns text that is a JSON array or object back into one.
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(t.utf8)),
                let a = try? JSONSerialization.data(withJSONObject: parsed, options: .sortedKeys),
                let b = try? JSONSerialization.data(withJSONObject: nested, options: .sortedKeys)
            else { return false }
            return a == b
        default: return false
        }
    }
}

@Suite("Shapefile writing, read back by GDAL and by geoconv")
struct ShapefileWritingTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-shp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func convert(
        _ input: String, to output: String, options: ConversionOptions = ConversionOptions()
    ) throws -> ConversionReport {
        try Converter().convert(.file(input), to: .file(output), options: options)
    }

    @Test("Mixed kinds: one shapefile per kind, with .shx, .dbf, .prj and .cpg; every limit reported")
    func mixedKinds() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.shp").path
        let report = try Self.convert(Fixtures.testdata("shapefile/source/mixed.geojson"), to: out)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(
            names
                == ["out", "out_lines", "out_polygons"].flatMap { base in
                    ["cpg", "dbf", "prj", "shp", "shx"].map { "\(base).\($0)" }
                })
        #expect(
            try String(contentsOfFile: directory.appendingPathComponent("out.cpg").path, encoding: .utf8) == "UTF-8")
        let codes = Set(report.diagnostics.entries.keys)
        for code in [
            "shapefile.kinds-split", "shapefile.field-renamed", "shapefile.nested-value-as-json",
            "shapefile.text-truncated",
            "shapefile.boolean-as-integer", "shapefile.value-as-text",
        ] {
            #expect(codes.contains(code), "\(code) not reported: \(codes.sorted())")
        }
        #expect(
            report.diagnostics.entries["shapefile.field-renamed"]?.first.message.contains(
                #""opening_hours_other" is written as "opening__1""#) == true)

        let log = DiagnosticLog()
        let points = try OverlayDocument.load(.file(out), diagnostics: log).features
        #expect(points.count == 3)  // two points and the feature without a geometry
        #expect(points[0].geometry == .point(Coordinate(latitude: 48.85, longitude: 2.35, altitude: 35.5)))
        #expect(points[0].properties["opening_ho"] == "Mo-Fr 08:00-18:00" && points[0].properties["id"] == "p1")
        #expect(points[0].properties["tags"] == #"["coffee","tea"]"#)
        #expect(points[0].properties["open"] == 1 && points[0].properties["count"] == "7")
        #expect(points[1].geometry == nil && points[1].properties["kind"] == "nothing")
        #expect(points[2].geometry == .point(Coordinate(latitude: 48.86, longitude: 2.36, altitude: 0)))
        let polygons = try OverlayDocument.load(.file(directory.appendingPathComponent("out_polygons.shp").path))
            .features
        #expect(
            polygons.count == 1 && polygons[0].title == "Park"
                && polygons[0].properties["descriptio"] == "A park with a lake")
        guard case .polygon(let rings)? = polygons[0].geometry, case .string(let long)? = polygons[0].properties["long"]
        else {
            Issue.record("\(polygons)")
            return
        }
        #expect(rings.holes.count == 1 && rings.outer.count == 5)
        #expect(long.utf8.count <= 254 && long.hasPrefix("Ünïcode abcdefghij"))
    }

    @Test(
        "GDAL reads what geoconv writes: the same features, values and positions",
        .enabled(if: Tools.ogr2ogr != nil),
        arguments: ["source/mixed.geojson", "parcels.shp", "roads.shp", "stops.shp"])
    func gdalReadsBack(input: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.convert(
            Fixtures.testdata("shapefile/\(input)"), to: directory.appendingPathComponent("out.shp").path)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".shp") {
            let path = directory.appendingPathComponent(name).path
            let ours = try OverlayDocument.load(.file(path)).features
            let gdal = try GDALShapefile.features(path)
            #expect(gdal.count == ours.count, "\(input) → \(name)")
            for (g, o) in zip(gdal, ours) {
                let properties = g["properties"] as? [String: Any] ?? [:]
                #expect(Set(properties.keys) == Set(o.properties.keys), "\(name)")
                for (key, value) in properties {
                    #expect(
                        GDALShapefile.same(value, o.properties[key]),
                        "\(name): \(key) = \(value) vs \(String(describing: o.properties[key]))")
                }
                #expect(
                    GDALShapefile.close(GDALShapefile.ordinates(g["geometry"]), GDALShapefile.ordinates(o.geometry)),
                    "\(name)")
            }
        }
    }

    @Test("Empty text and text with spaces at an end, which a DBF gives back otherwise, are reported by field")
    func unkeptTextIsReported() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.geojson").path
        let text =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"kept":"a b","spaced":"x","empty":"y"},"#
            + #""geometry":{"type":"Point","coordinates":[1,2]}},"#
            + #"{"type":"Feature","properties":{"kept":"c","spaced":"  0.00 m","empty":""},"#
            + #""geometry":{"type":"Point","coordinates":[3,4]}}]}"#
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out.shp").path
        var options = ConversionOptions()
        options.listsEveryWarning = true
        let report = try Self.convert(input, to: out, options: options)
        let messages = report.diagnostics.everyWarning.filter { $0.code == "shapefile.text-trimmed" }.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("\"spaced\"") && $0.contains("feature 2") })
        #expect(messages.contains { $0.contains("\"empty\"") && $0.contains("feature 2") })
        #expect(!messages.contains { $0.contains("\"kept\"") })
        // What GDAL and geoconv read back: the text trimmed, the empty text null.
        let back = try OverlayDocument.load(.file(out)).features
        #expect(back[1].properties["spaced"] == "0.00 m" && back[1].properties["empty"] == .null)
        #expect(back[0].properties["kept"] == "a b")
    }

    @Test("Reals that need more than a DBF's 15 decimals are reported by field and first feature")
    func roundedRealsAreReportedByField() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.geojson").path
        let rows = [("1.5", "0.25"), ("2.5", "0.125"), ("3.5", "0.1234567890123456789"), ("4.5", "0.3333333333333333")]
        let features = rows.map { exact, long in
            #"{"type":"Feature","properties":{"exact":\#(exact),"long":\#(long)},"#
                + #""geometry":{"type":"Point","coordinates":[1,2]}}"#
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out.shp").path
        let report = try Self.convert(input, to: out)
        let entry = try #require(report.diagnostics.entries["shapefile.number-rounded"])
        #expect(entry.count == 1)
        let expected =
            #"the reals of "long" are written with at most 15 decimals: some are rounded,"#
            + " the first in feature 3"
        #expect(entry.first.message == expected)
        // What is read back: the exact column as it was, the long one to 15 decimals.
        let back = try OverlayDocument.load(.file(out)).features
        #expect(back.map { $0.properties["exact"]?.doubleValue } == [1.5, 2.5, 3.5, 4.5])
        #expect(back.map { $0.properties["long"]?.doubleValue } == [0.25, 0.125, 0.123456789012346, 0.333333333333333])
    }

    @Test("--shp-kind writes one kind and reports the others as dropped")
    func oneKind() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = ConversionOptions()
        options.formatOptions[ShapefileOptions.kind] = "polygons"
        let out = directory.appendingPathComponent("parks.shp").path
        let report = try Self.convert(Fixtures.testdata("shapefile/source/mixed.geojson"), to: out, options: options)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".shp") } == [
                "parks.shp"
            ])
        #expect(try OverlayDocument.load(.file(out)).features.map(\.geometry?.kind) == [.polygon, nil])
        // points (2) and lines (1): one line each
        #expect(report.diagnostics.entries["shapefile.kind-dropped"]?.count == 2)
    }

    @Test("A .prj-less shapefile whose coordinates are not degrees keeps them in every output, with the --s-srs hint")
    func notDegreesKept() throws {
        // Chinese sample data: projected metres (here scaled down) with the .prj missing. GDAL
        // writes them as they are; nothing geographic (an antimeridian cut) may move them.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("in.geojson").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"n":1},"#
            .appending(#""geometry":{"type":"Point","coordinates":[-248.7,625.6]}}]}"#)
            .write(toFile: source, atomically: true, encoding: .utf8)
        let shapefile = directory.appendingPathComponent("pts.shp").path
        _ = try Self.convert(source, to: shapefile)
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("pts.prj").path)
        for suffix in ["geojson", "kml", "wkt", "csv", "geojsonl"] {
            let out = directory.appendingPathComponent("out.\(suffix)").path
            let report = try Self.convert(shapefile, to: out)
            #expect(report.diagnostics.summary.contains { $0.contains("[coordinate.out-of-range]") }, "\(suffix)")
            #expect(report.diagnostics.entries["coordinate.out-of-range"]?.first.message.contains("--s-srs") == true)
            #expect(report.diagnostics.entries["geojson.antimeridian-cut"] == nil, "\(suffix)")
            let back = try OverlayDocument.load(.file(out)).features
            #expect(back.first?.geometry == .point(Coordinate(latitude: 625.6, longitude: -248.7)), "\(suffix)")
        }
    }

    @Test("An output named .zip holds the shapefiles, named after it; geoconv and GDAL read it back")
    func zippedOutput() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("parcels.zip").path
        _ = try Self.convert(Fixtures.testdata("shapefile/source/mixed.geojson"), to: out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["parcels.zip"])
        let listing = String(decoding: try Tools.output(of: "/usr/bin/unzip", ["-Z1", out]), as: UTF8.self)
        #expect(
            listing.split(separator: "\n").sorted()
                == ["parcels", "parcels_lines", "parcels_polygons"].flatMap { base in
                    ["cpg", "dbf", "prj", "shp", "shx"].map { "\(base).\($0)"[...] }
                })
        let back = try OverlayDocument.load(.file(out)).features
        #expect(back.count == 5 && back.map(\.geometry?.kind).filter { $0 == .polygon }.count == 1)
        // GDAL: the first layer
        if Tools.ogr2ogr != nil { #expect(try GDALShapefile.features(out).count == 3) }
    }

    @Test("A .shp written into the output is the .shp made beside the others for a zip, byte for byte")
    func shpIntoOutputIsTheZipped() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 120,000 points and a few lines: a .shp of 3.4 MB, past the writers' 1 MB and
        // 256 KB blocks, with a second file for the lines.
        var features: [String] = []
        for i in 0..<120_000 {
            let x = Double(i % 3600) / 10 - 180
            let y = Double(i % 1700) / 10 - 85
            features.append(
                #"{"type":"Feature","properties":{"n":\#(i)},"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#)
        }
        features.append(
            #"{"type":"Feature","properties":{"n":-1},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}"#)
        let input = directory.appendingPathComponent("in.geojson").path
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
            .write(toFile: input, atomically: true, encoding: .utf8)
        _ = try Self.convert(input, to: directory.appendingPathComponent("out.shp").path)
        _ = try Self.convert(input, to: directory.appendingPathComponent("out.zip").path)
        let unzip = "/usr/bin/unzip"
        for name in ["out.shp", "out.shx", "out.dbf", "out_lines.shp", "out_lines.shx"] {
            let file = try Data(contentsOf: directory.appendingPathComponent(name))
            let zipped = try Tools.output(of: unzip, ["-p", directory.appendingPathComponent("out.zip").path, name])
            #expect(file == zipped, "\(name): \(file.count) bytes against \(zipped.count) zipped")
        }
        // The header: file code 9994, the length in 16-bit words, the point type.
        let shp = [UInt8](try Data(contentsOf: directory.appendingPathComponent("out.shp")))
        #expect(shp.count == 100 + 120_000 * 28)
        #expect(Array(shp[0..<4]) == [0, 0, 0x27, 0x0A])
        let words = shp[24..<28].reduce(0) { $0 << 8 | Int($1) }
        #expect(words * 2 == shp.count)
        #expect(shp[32] == 1)
    }

    @Test("Into memory (and standard output) a shapefile is a zip of its files, named out.*, that reads back whole")
    func memoryOutput() throws {
        let input = Fixtures.testdata("shapefile/source/mixed.geojson")
        var options = ConversionOptions()
        options.outputFormat = FormatRegistry.standard.format(named: "shapefile")
        let report = try Converter().convert(.file(input), to: .memory, options: options)
        #expect(Array(report.output.prefix(4)) == [0x50, 0x4B, 0x03, 0x04])  // a zip's local file header
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("memory.zip")
        try Data(report.output).write(to: zip)
        let listing = String(decoding: try Tools.output(of: "/usr/bin/unzip", ["-Z1", zip.path]), as: UTF8.self)
        #expect(
            listing.split(separator: "\n").filter { $0.hasSuffix(".shp") }.sorted() == [
                "out.shp", "out_lines.shp", "out_polygons.shp",
            ])
        var back = ConversionOptions()
        back.inputFormat = options.outputFormat
        let again = try OverlayDocument.load(.memory(report.output, name: "memory"), options: back).features
        let written = try OverlayDocument.load(.file(zip.path)).features
        #expect(again.count == 5 && again == written)
        #expect(again.contains { $0.properties["name"] == .string("Park") })
    }

    @Test("Shapefile → shapefile keeps every feature, value and position")
    func roundTrip() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["parcels", "roads", "stops"] {
            let input = Fixtures.testdata("shapefile/\(name).shp")
            let out = directory.appendingPathComponent("\(name).shp").path
            let report = try Self.convert(input, to: out)
            #expect(!report.diagnostics.hasWarnings, "\(name): \(report.diagnostics.summary)")
            let before = try OverlayDocument.load(.file(input)).features
            let after = try OverlayDocument.load(.file(out)).features
            #expect(before == after, "\(name)")
        }
    }

    @Test("The real shapefiles convert at least as GDAL converts them", .enabled(if: Tools.ogr2ogr != nil))
    func realFiles() throws {
        let root = Fixtures.shared.appendingPathComponent("realworld/shp")
        let files = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".shp") || $0.hasSuffix(".zip") }.sorted()
        #expect(files.count >= 10)
        for file in files {
            let path = root.appendingPathComponent(file).path
            let ours = try OverlayDocument.load(.file(path), reprojectingToWGS84: true, diagnostics: DiagnosticLog())
                .features
            // GDAL: latin1.shp has no .shx (GDAL refuses it; geoconv rebuilds the index), and a
            // TIN (test_tin.shp) has no GeoJSON form in GDAL (geoconv reads its triangles).
            if file.hasSuffix("latin1.shp") || file.hasSuffix("test_tin.shp") {
                #expect(ours.count == 1, "\(file)")
                continue
            }
            let gdal = try GDALShapefile.features(path, wgs84: true)
            #expect(ours.count == gdal.count, "\(file)")
            for (g, o) in zip(gdal, ours) {
                let properties = g["properties"] as? [String: Any] ?? [:]
                for (key, value) in properties where !GDALShapefile.same(value, o.properties[key]) {
                    Issue.record("\(file): \(key) = \(value) (GDAL) vs \(String(describing: o.properties[key]))")
                }
                #expect(
                    GDALShapefile.closeReprojected(
                        GDALShapefile.ordinates(g["geometry"]).sorted(), GDALShapefile.ordinates(o.geometry).sorted()),
                    "\(file)")
            }
        }
    }
}
#endif
