import Foundation
import GeoConvCore
import GeoConvFormatKit
@testable import GeoConvGeoPackage
import GeoConvIO
import GeoConvTestSupport
import Testing

/// GeoPackage written by geoconv: the schema a GeoPackage 1.3 reader expects (the tables,
/// the column types, the R-tree), and the features read back by geoconv's reader feature by
/// feature, key by key, ring by ring. GDAL's reading of the same outputs is
/// `GDALReadsOutputsTests`' check; the OGC validator's is the last test here.
@Suite("GeoPackage writing", .enabled(if: BuiltTraits.geoPackage))
struct GeoPackageWriterTests {
    static func c(_ lon: Double, _ lat: Double, _ z: Double? = nil) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon, altitude: z)
    }

    static func n(_ literal: String) -> JSONValue { .number(JSONNumber(uncheckedLiteral: literal)) }

    /// Writes `features` to `name` in a new folder; the path, what was read back and the log.
    static func roundTrip(
        _ features: [Feature], header: DocumentHeader = DocumentHeader(), name: String = "out.gpkg",
        options: ConversionOptions = ConversionOptions()
    ) throws -> (path: String, read: [Feature], header: DocumentHeader, log: DiagnosticLog) {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent(name).path
        let log = try FormatIO.write(features, header: header, as: .geoPackage, toFile: path, options: options)
        let read = try FormatIO.read(try ByteReader(.file(path)), as: .geoPackage)
        return (path, read.features, read.header, log)
    }

    #if GeoPackage
    /// The rows of `sql` on the file at `path`.
    static func query(_ path: String, _ sql: String) throws -> [[String?]] {
        try GeoPackageDatabase(path: path, name: path).rows(sql)
    }
    #endif

    @Test("Columns typed from every value: BOOLEAN, INTEGER, REAL, TEXT, DATE, DATETIME, JSON; a mix TEXT, reported")
    func columnTypes() throws {
        let features = [
            Feature(
                id: .number(JSONNumber(7)), geometry: .point(Self.c(1, 2)), title: "first",
                properties: [
                    "flag": .bool(true), "count": .number(JSONNumber(12)), "ratio": .number(JSONNumber(12)),
                    "day": .string("2026-11-02"), "at": .string("2026-11-02T08:30:00.000Z"),
                    "seen": .string("2026-11-02T08:30:00Z"), "tags": .array([.string("a"), .number(JSONNumber(1))]),
                    "mixed": .number(JSONNumber(3)), "empty": .string(""),
                ]),
            Feature(
                id: .number(JSONNumber(9)), geometry: .point(Self.c(3, 4)),
                properties: [
                    "flag": .bool(false), "count": .number(JSONNumber(-4)), "ratio": Self.n("12.5"),
                    "day": .string("2026-11-03"), "at": .string("2026-11-03T00:00:00.125Z"),
                    "seen": .string("2026-11-03T00:00:00Z"), "tags": .object(["k": .null]), "mixed": .string("three"),
                    "empty": .null,
                ]),
        ]
        let (path, read, _, log) = try Self.roundTrip(features)
        #if GeoPackage
        let declared = try Self.query(path, "PRAGMA table_info(\"out\")").map { ($0[1] ?? "", $0[2] ?? "") }
        #expect(
            declared.map(\.0) == [
                "fid", "geom", "name", "flag", "count", "ratio", "day", "at", "seen", "tags",
                "mixed", "empty",
            ])
        #expect(
            declared.map(\.1) == [
                "INTEGER", "POINT", "TEXT", "BOOLEAN", "INTEGER", "REAL", "DATE", "DATETIME",
                "TEXT", "TEXT", "TEXT", "TEXT",
            ])
        let json = try Self.query(path, "SELECT column_name, mime_type FROM gpkg_data_columns")
        #expect(json.map { $0.compactMap { $0 } } == [["tags", "application/json"]])
        #endif
        #expect(log.entries["geopackage.mixed-types-as-text"]?.first.message.contains("\"mixed\"") == true)
        #expect(log.entries["geopackage.integers-as-real"]?.first.isNote == true)
        // Read back key by key: the ids are the fids, JSON is JSON again, text stays as written.
        #expect(read.map(\.id) == [.number(JSONNumber(7)), .number(JSONNumber(9))])
        #expect(read[0].properties["flag"] == .bool(true) && read[1].properties["flag"] == .bool(false))
        #expect(read[1].properties["count"] == .number(JSONNumber(-4)))
        #expect(read[1].properties["ratio"] == Self.n("12.5"))
        #expect(read[0].properties["tags"] == .array([.string("a"), .number(JSONNumber(1))]))
        #expect(read[1].properties["tags"] == .object(["k": .null]))
        #expect(read[0].properties["mixed"] == .string("3") && read[1].properties["mixed"] == .string("three"))
        #expect(read[0].properties["seen"] == .string("2026-11-02T08:30:00Z"))
        #expect(read[0].properties["empty"] == .string("") && read[1].properties["empty"] == .null)
        #expect(read.map(\.title) == ["first", nil])
    }

    @Test("Ids: increasing positive integers are the fids; others an id column (a note), in the features' order")
    func ids() throws {
        func point(_ id: FeatureID?) -> Feature { Feature(id: id, geometry: .point(Self.c(1, 2))) }
        let keyed = try Self.roundTrip([point(.number(JSONNumber(4))), point(.number(JSONNumber(30)))])
        #expect(keyed.read.map(\.id) == [.number(JSONNumber(4)), .number(JSONNumber(30))])
        #expect(keyed.log.entries["geopackage.ids-as-column"] == nil)
        #expect(keyed.read.allSatisfy { $0.properties["id"] == nil })
        for ids: [FeatureID?] in [
            [.string("a"), .string("b")], [.number(JSONNumber(3)), .number(JSONNumber(3))],
            [.number(JSONNumber(30)), .number(JSONNumber(4))],
            [.number(JSONNumber(0)), .number(JSONNumber(1))], [.number(JSONNumber(5)), nil],
        ] {
            let written = try Self.roundTrip(ids.map(point))
            #expect(written.log.entries["geopackage.ids-as-column"]?.first.isNote == true, "\(ids)")
            #expect(written.read.map(\.id) == [nil, nil], "\(ids)")
            let column = written.read.map { $0.properties["id"] }
            let expected: [JSONValue?] = ids.map { id in
                switch id {
                case .string(let s)?: .string(s)
                case .number(let n)?: .number(n)
                case nil: .null
                }
            }
            #expect(column == expected, "\(ids)")
        }
    }

    @Test("A column name holding NUL is written with _ for it (SQLite ends a statement there), reported")
    func nulInColumnName() throws {
        // The round-trip fuzzer's finding: a CSV header `a\0b` stopped the whole conversion.
        let features = [
            Feature(
                geometry: .point(Self.c(1, 2)),
                properties: ["a\u{0}b": .number(JSONNumber(1)), "a_b": .string("kept"), "Q\"\u{0}": .bool(true)])
        ]
        let (_, read, _, log) = try Self.roundTrip(features)
        #expect(read.count == 1)
        let properties = read.first?.properties
        #expect(properties?["a_b"] == .string("kept"))
        #expect(properties?["a_b_2"] == .number(JSONNumber(1)))
        #expect(properties?["Q\"_"] == .bool(true))
        let renamed = log.entries["geopackage.column-renamed"]
        #expect(renamed?.count == 2)
        #expect(renamed?.first.message.contains("\"a_b_2\": SQLite's names cannot hold a NUL") == true)
    }

    @Test("Geometries ring by ring and part by part, empty kept, altitudes flagged; the R-tree holds every box")
    func geometries() throws {
        let shell = Path([Self.c(0, 0), Self.c(10, 0), Self.c(10, 10), Self.c(0, 10), Self.c(0, 0)])
        let hole = Path([Self.c(2, 2), Self.c(2, 4), Self.c(4, 4), Self.c(2, 2)])
        let geometries: [Geometry?] = [
            .polygon(PolygonRings(outer: shell, holes: [hole])),
            .multiPolygon([PolygonRings(outer: shell), PolygonRings(outer: hole)]),
            .lineString(Path([Self.c(1, 1, 5), Self.c(2, 2, 6)])),
            .geometryCollection([.point(Self.c(-5, -6)), .lineString(Path([Self.c(0, 0), Self.c(1, 1)]))]),
            .empty(.point), nil,
        ]
        let (path, read, _, _) = try Self.roundTrip(geometries.map { Feature(geometry: $0) })
        #expect(read.map(\.geometry) == geometries)
        #if GeoPackage
        let column = try Self.query(path, "SELECT geometry_type_name, srs_id, z, m FROM gpkg_geometry_columns")
        #expect(column == [["GEOMETRY", "4326", "2", "0"]])
        let boxes = try Self.query(path, "SELECT id, minx, maxx, miny, maxy FROM rtree_out_geom ORDER BY id")
        #expect(boxes.map { $0[0] } == ["1", "2", "3", "4"])
        #expect(boxes[3] == ["4", "-5.0", "1.0", "-6.0", "1.0"])
        let contents = try Self.query(path, "SELECT data_type, min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents")
        #expect(contents == [["features", "-5.0", "-6.0", "10.0", "10.0", "4326"]])
        #expect(try Self.query(path, "SELECT rtreecheck('rtree_out_geom')") == [["ok"]])
        let triggers = try Self.query(path, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        #expect(triggers.count == 6 && triggers.allSatisfy { $0[0]?.hasPrefix("rtree_out_geom_") == true })
        let header = try Self.query(path, "PRAGMA application_id")[0][0].flatMap { Int32($0) }
        let version = try Self.query(path, "PRAGMA user_version")
        #expect(header == 0x4750_4B47 && version == [["10300"]])
        #endif
    }

    @Test("The R-tree, bulk-loaded in three levels: SQLite's rtreecheck finds it sound; it answers as a scan does")
    func rtree() throws {
        var random = SplitMix64(seed: 46)
        let features = (0..<30_000).map { n in
            let lon = Double.random(in: -170...170, using: &random)
            let lat = Double.random(in: -80...80, using: &random)
            let geometry: Geometry =
                n % 3 == 0
                ? .point(Self.c(lon, lat))
                : .lineString(Path([Self.c(lon, lat), Self.c(lon + 0.3, lat + 0.1), Self.c(lon + 0.1, lat - 0.2)]))
            return Feature(geometry: n % 50 == 7 ? nil : geometry)
        }
        let (path, read, _, _) = try Self.roundTrip(features)
        #expect(read.count == features.count)
        #if GeoPackage
        #expect(try Self.query(path, "SELECT rtreecheck('rtree_out_geom')") == [["ok"]])
        // 29,400 boxes, 167 a node (4 KB pages): 177 leaves, 2 nodes above them, the root.
        #expect(
            try Self.query(path, "SELECT hex(substr(data, 1, 2)) FROM rtree_out_geom_node WHERE nodeno = 1")
                == [["0002"]])
        for _ in 0..<20 {
            let west = Double.random(in: -180...150, using: &random)
            let south = Double.random(in: -90...60, using: &random)
            let (east, north) = (west + 12, south + 9)
            let found = try Self.query(
                path,
                "SELECT id FROM rtree_out_geom WHERE maxx >= \(west) AND minx <= \(east) AND maxy >= \(south) "
                    + "AND miny <= \(north) ORDER BY id"
            ).compactMap { $0[0].flatMap { Int($0) } }
            let expected = features.indices.filter { index in
                guard let bounds = features[index].geometry?.bounds else { return false }
                return bounds.west <= east && bounds.east >= west && bounds.south <= north && bounds.north >= south
            }.map { $0 + 1 }
            #expect(found == expected)
            // The reader asked for --bbox reads those rows alone, in the table's order.
            var options = ConversionOptions()
            options.selection.boundingBox = FeatureSelection.Box(west: west, south: south, east: east, north: north)
            let read = try FormatIO.read(try ByteReader(.file(path)), as: .geoPackage, options: options)
            #expect(read.features.map(\.id) == expected.map { .number(JSONNumber($0)) })
            #expect(
                read.diagnostics.entries["geopackage.index-used"]?.first.message.contains("found \(found.count) rows")
                    == true)
        }
        #endif
    }

    @Test("Features without geometry make an attribute table; the header names it; --co TABLE renames it")
    func attributes() throws {
        var header = DocumentHeader()
        header.name = "Visits"
        header.description = "who came"
        var options = ConversionOptions()
        options.formatOptions[GeoPackageOptions.table] = "visits 2026"
        let rows = [Feature(geometry: nil, properties: ["visitor": .string("Ana")])]
        let (path, read, readHeader, _) = try Self.roundTrip(rows, header: header, options: options)
        #expect(read.map(\.properties) == rows.map(\.properties) && read[0].geometry == nil)
        #expect(readHeader.name == "Visits" && readHeader.description == "who came")
        #if GeoPackage
        let contents = try Self.query(path, "SELECT table_name, data_type FROM gpkg_contents")
        #expect(contents == [["visits 2026", "attributes"]])
        let geometryColumns = try Self.query(path, "SELECT count(*) FROM gpkg_geometry_columns")
        #expect(geometryColumns == [["0"]])
        #endif
    }

    @Test("Styles as GDAL's OGR_STYLE strings, read back as the style; what a style string cannot hold, reported")
    func styles() throws {
        let line = Style(strokeColor: Color(red: 255, green: 0, blue: 0, opacity: 0.5), strokeWidth: 2.5)
        let area = Style(strokeColor: Color(red: 0, green: 0, blue: 255), fillColor: Color(red: 1, green: 2, blue: 3))
        let marker = Style(
            icon: "https://example.com/a \"b\".png", iconScale: 1.5, markerColor: Color(red: 0, green: 128, blue: 0),
            rotation: 30)
        let dropped = Style(strokeColor: Color(red: 0, green: 0, blue: 0), geodesic: true, zIndex: 3)
        let features = [
            Feature(geometry: .lineString(Path([Self.c(0, 0), Self.c(1, 1)])), style: line),
            Feature(geometry: .point(Self.c(0, 0)), style: area),
            Feature(geometry: .point(Self.c(0, 0)), style: marker),
            Feature(geometry: .point(Self.c(0, 0)), style: dropped),
            Feature(geometry: .point(Self.c(0, 0))),
        ]
        let (path, read, _, log) = try Self.roundTrip(features)
        #if GeoPackage
        let strings = try Self.query(path, "SELECT OGR_STYLE FROM out ORDER BY fid").map { $0[0] }
        #expect(strings[0] == "PEN(c:#ff000080,w:2.5px)")
        #expect(strings[1] == "PEN(c:#0000ff);BRUSH(fc:#010203)")
        #expect(strings[2] == #"SYMBOL(id:"https://example.com/a \"b\".png",c:#008000,s:1.5,a:330)"#)
        #expect(strings[4] == nil)
        #endif
        #expect(read[0].style.strokeColor?.opacity ?? 0 > 0.5 - 1.0 / 255 && read[0].style.strokeWidth == 2.5)
        #expect(read[1].style == area && read[2].style == marker)
        #expect(read[3].style == Style(strokeColor: Color(red: 0, green: 0, blue: 0)))
        #expect(read.allSatisfy { $0.properties["OGR_STYLE"] == nil } && read[4].style.isEmpty)
        let warning = try #require(log.entries["geopackage.style-parts-dropped"])
        #expect(warning.first.message.contains("geodesic, z-index"))
    }

    @Test("A projected CRS is written with PROJ's WKT and read back by its code", .enabled(if: BuiltTraits.proj))
    func projected() throws {
        var header = DocumentHeader()
        header.crs = "EPSG:32633"
        let (path, read, readHeader, _) = try Self.roundTrip(
            [Feature(geometry: .point(Self.c(500_000, 4_649_776)))], header: header)
        #expect(readHeader.crs == "EPSG:32633" && read[0].geometry == .point(Self.c(500_000, 4_649_776)))
        #if GeoPackage
        let row = try Self.query(
            path,
            "SELECT srs_id, organization, organization_coordsys_id, srs_name, definition FROM gpkg_spatial_ref_sys "
                + "WHERE srs_id = 32633")
        #expect(row.first?[1] == "EPSG" && row.first?[2] == "32633" && row.first?[3] == "WGS 84 / UTM zone 33N")
        #expect((row.first?[4] ?? "")?.hasPrefix("PROJCS[\"WGS 84 / UTM zone 33N\"") == true)
        #endif
    }

    @Test("The OGC validator (GDAL's validate_gpkg.py) finds nothing wrong", .enabled(if: Tools.python != nil))
    func validates() throws {
        let script = "/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py"
        guard FileManager.default.fileExists(atPath: script), let python = Tools.python else { return }
        let (path, _, _, _) = try Self.roundTrip([
            Feature(
                id: .string("a"),
                geometry: .polygon(PolygonRings(outer: [Self.c(0, 0), Self.c(1, 0), Self.c(0, 1), Self.c(0, 0)])),
                style: Style(fillColor: Color(red: 1, green: 2, blue: 3)),
                properties: ["when": .string("2026-01-01"), "tags": .array([.bool(true)])]),
            Feature(geometry: .point(Self.c(2, 3, 4))),
        ])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && output.isEmpty, "\(output)")
    }
}
