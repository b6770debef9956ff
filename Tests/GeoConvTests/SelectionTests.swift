import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `--where`, `--bbox`, `--select`, `--limit`, `--explode-collections` and `--dim` on
/// `testdata/selection/places.geojson`: the features kept are the ones ogr2ogr keeps (GDAL
/// 3.6.2's answers are written below; where GDAL is installed they are also asked of it).
@Suite("Selection, as ogr2ogr selects")
struct SelectionTests {
    static let places = Fixtures.testdata("selection/places.geojson")

    /// The ids of the features `selection` keeps, in order, and the log.
    static func ids(_ selection: FeatureSelection, input: String = places) throws -> (ids: [String], log: DiagnosticLog)
    {
        var options = ConversionOptions()
        options.selection = selection
        let log = DiagnosticLog()
        let document = try OverlayDocument.load(.file(input), options: options, diagnostics: log)
        return (document.features.map { $0.id?.description ?? "-" }, log)
    }

    static func whereClause(_ text: String) -> FeatureSelection {
        var selection = FeatureSelection()
        selection.whereClause = text
        return selection
    }

    /// Expressions and the ids ogr2ogr 3.6.2 keeps (`ogr2ogr -f GeoJSONSeq /vsistdout/ places.geojson -where …`).
    static let gdalAnswers: [(String, [String])] = [
        ("kind = 'park'", ["1", "2"]),  // strings compare without case
        ("kind <> 'park'", ["4", "5", "6", "7", "8"]),  // a null matches no comparison
        ("n > 5", ["2", "5", "8"]),
        ("NOT (n > 5)", ["1", "3", "4", "6", "7"]),  // NOT of "no match" is a match
        ("kind IS NULL", ["3"]),
        ("kind IS NOT NULL", ["1", "2", "4", "5", "6", "7", "8"]),
        ("n IN (5, 7, 1000)", ["1", "5", "8"]),
        ("name LIKE 'park%'", ["2"]),  // LIKE minds case
        ("name ILIKE 'park%'", ["1", "2"]),
        ("name LIKE 'P_rk A'", ["1"]),
        ("s > '5'", ["2", "3", "5"]),
        ("n = '5'", ["1"]),
        ("\"road type\" = 'main'", ["1"]),
        ("open = 1", ["1"]),
        ("name = 'Ferry''s end'", ["8"]),
        ("n >= 2.5 AND n < 100 OR kind = 'pier'", ["1", "2", "4", "5", "8"]),
        ("n >= 2.5 AND (n < 100 OR kind = 'pier')", ["1", "2", "4", "5", "8"]),
        ("NOT kind LIKE 'p%'", ["2", "3", "4", "5", "6", "7"]),
        ("name NOT LIKE '%a%'", ["3", "6", "8"]),
        ("kind NOT IN ('park', 'road')", ["3", "5", "6", "8"]),
        ("n <= -3", ["7"]),
        ("KIND = 'road'", ["4", "7"]),  // property names without case, as OGR's fields
    ]

    @Test("--where keeps what ogr2ogr -where keeps", arguments: gdalAnswers)
    func whereMatchesGDAL(expression: String, expected: [String]) throws {
        let (ids, log) = try Self.ids(Self.whereClause(expression))
        #expect(ids == expected, "\(expression)")
        #expect(log.entries["selection.where"]?.count == 8 - expected.count)
    }

    @Test("The same answers from the ogr2ogr installed here", .enabled(if: GDAL.ogrinfo != nil))
    func whereAgainstLiveGDAL() throws {
        for (expression, _) in Self.gdalAnswers {
            let data = try Tools.output(
                of: "/usr/bin/ogr2ogr", ["-f", "GeoJSONSeq", "/vsistdout/", Self.places, "-where", expression])
            let gdal = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    return nil
                }
                return (object["id"] as? Int).map(String.init)
            }
            #expect(try Self.ids(Self.whereClause(expression)).ids == gdal, "\(expression)")
        }
    }

    @Test(
        "A bad expression is a usage error at its column",
        arguments: [
            ("kind = ", 8, "expected a property or a value at the end"),
            ("kind = 'park' AND", 18, "expected a property or a value at the end"),
            ("kind 'park'", 6, "expected a comparison"),
            ("name = 'open", 8, "the string is not closed"),
            ("n > 5 )", 7, "expected AND, OR or the end"),
            ("(n > 5", 7, "expected ')'"),
            ("n ~ 5", 3, "unexpected character '~'"),
            ("n IN (1, 2", 11, "expected ',' or ')'"),
            ("kind IS 'x'", 9, "expected NULL after IS"),
            ("n ! 5", 3, "expected '!='"),
        ])
    func badExpression(text: String, column: Int, message: String) {
        #expect {
            _ = try Self.ids(Self.whereClause(text))
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .usage && error.location?.file == "--where" && error.location?.column == column
                && error.message.contains(message)
        }
    }

    static func boxed(_ w: Double, _ s: Double, _ e: Double, _ n: Double, crs: String? = nil) -> FeatureSelection {
        var selection = FeatureSelection()
        selection.boundingBox = FeatureSelection.Box(west: w, south: s, east: e, north: n)
        selection.boundingBoxCRS = crs
        return selection
    }

    @Test(
        "--bbox keeps what intersects: points on the edge, a line through the box with no vertex in it, a polygon around it; not a hole, not a null geometry"
    )
    func boundingBox() throws {
        // ogr2ogr -spat keeps the same (GDAL 3.6.2 with GEOS), but for the antimeridian box it cannot take.
        // The line 4 crosses y = 5 from x = -1 to 6; the polygon 5 surrounds the box; the multipoint 3 has (4, 4).
        #expect(try Self.ids(Self.boxed(1.5, 3.5, 4.5, 5.5)).ids == ["3", "4", "5"])
        #expect(try Self.ids(Self.boxed(2, 2, 2, 2)).ids == ["2", "5"])  // the point on the box, inside the polygon
        #expect(try Self.ids(Self.boxed(-0.25, -0.25, 0.25, 0.25)).ids.isEmpty)  // inside the lake's hole
        #expect(try Self.ids(Self.boxed(-0.25, 0.25, 0.75, 0.75)).ids == ["5"])  // across the hole's edge
        #expect(try Self.ids(Self.boxed(179, -30, -179, -10)).ids == ["7"])  // across the antimeridian
        #expect(try Self.ids(Self.boxed(20.5, 20.4, 20.6, 20.6)).ids == ["8"])  // the collection's line
    }

    @Test("--bbox-srs puts the box into the input's CRS first")
    func boundingBoxInAnotherCRS() throws {
        // (1.5, 3.5)–(4.5, 5.5) in Web Mercator metres.
        let box = Self.boxed(
            166_979.236_737_5, 389_860.451_793_7, 500_937.710_212_6, 613_110.223_457_3, crs: "EPSG:3857")
        #expect(try Self.ids(box).ids == ["3", "4", "5"])  // as ogr2ogr -spat … -spat_srs EPSG:3857
    }

    @Test("--limit stops after N features written, after --where")
    func limit() throws {
        var selection = Self.whereClause("kind IS NOT NULL")
        selection.limit = 3
        #expect(try Self.ids(selection).ids == ["1", "2", "4"])
        var options = ConversionOptions(outputFormat: .geoJSON)
        options.selection.limit = 2
        for jobs in [1, 4] {
            options.jobs = jobs
            let report = try Converter().convert(.file(Self.places), to: .memory, options: options)
            #expect(report.statistics.featuresRead == 2 && report.statistics.featuresWritten == 2)
        }
    }

    @Test("--explode-collections: a feature per part, each with the feature's properties")
    func explode() throws {
        var selection = Self.whereClause("kind IS NULL OR kind = 'pier'")
        selection.explodesCollections = true
        var options = ConversionOptions()
        options.selection = selection
        let document = try OverlayDocument.load(.file(Self.places), options: options)
        #expect(
            document.features.map(\.geometry) == [
                .point(Coordinate(latitude: 3, longitude: 3)), .point(Coordinate(latitude: 4, longitude: 4)),
                .point(Coordinate(latitude: 20, longitude: 20)),
                .lineString([Coordinate(latitude: 20, longitude: 20), Coordinate(latitude: 21, longitude: 21)]),
            ])
        #expect(document.features.map(\.title) == ["School", "School", "Ferry's end", "Ferry's end"])
        #expect(document.features[1].properties["tags"] == .array([.string("a"), .string("b")]))
    }

    @Test("--select keeps the properties named, in that order, and the title only when name or title is named")
    func select() throws {
        var options = ConversionOptions()
        options.selection.properties = ["S", "kind", "missing"]
        let log = DiagnosticLog()
        let plain = try OverlayDocument.load(.file(Self.places), options: options, diagnostics: log)
        #expect(Array(plain.features[0].properties.keys) == ["s", "kind"])
        #expect(plain.features[0].title == nil)
        #expect(log.entries["selection.select"]?.count == 8)
        options.selection.properties = ["name", "n"]
        let named = try OverlayDocument.load(.file(Self.places), options: options)
        #expect(named.features[0].title == "Park A")
        #expect(named.features[0].properties == ["name": .string("Park A"), "n": .number(JSONNumber(5))])
    }

    @Test("--dim 2 drops altitudes; --dim 3 gives 0 where there was none")
    func dimension() throws {
        var options = ConversionOptions()
        options.selection.whereClause = "id IN (1, 2)"
        options.selection.dimension = .xy
        #expect(
            try OverlayDocument.load(.file(Self.places), options: options).features.map(\.geometry)
                == [.point(Coordinate(latitude: 1, longitude: 1)), .point(Coordinate(latitude: 2, longitude: 2))])
        options.selection.dimension = .xyz
        #expect(
            try OverlayDocument.load(.file(Self.places), options: options).features.map(\.geometry)
                == [
                    .point(Coordinate(latitude: 1, longitude: 1, altitude: 0)),
                    .point(Coordinate(latitude: 2, longitude: 2, altitude: 30)),
                ])
    }

    @Test("The flags on the command line: a conversion, a located error (exit 64), measure with --where")
    func commandLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-selection-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.geojsonl").path
        let ok = try CLI.run([
            Self.places, out, "--where", "kind = 'road'", "--select", "name", "--bbox", "170,-30,-170,0", "--dim", "2",
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 1 && text.contains("\"Dateline\"") && !text.contains("über"))
        let bad = try CLI.run([Self.places, out, "--where", "kind = 'road' AND"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--where:1:18"))
        let badBox = try CLI.run([Self.places, out, "--bbox", "1,2,3"])
        #expect(badBox.status == 64 && badBox.stderr.contains("W,S,E,N"))
        // Values may start with a minus sign, as ogr2ogr users type them (issue 43, item 7).
        let west = try CLI.run([Self.places, out, "--bbox", "-2,4,7,6", "--bbox-srs", "EPSG:4326", "--select", "name"])
        #expect(west.status == 0, "\(west.stderr)")
        let westText = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            westText.contains("\"Ring road\"") && westText.contains("\"Lake\"") && !westText.contains("\"Park A\""),
            "\(westText)")
        let tile = try CLI.run(["tile", "-33.8688", "151.2093", "--zoom", "10"])
        #expect(tile.status == 0 && tile.stdout == "10/942/614\n", "\(tile.stdout)\(tile.stderr)")
        let negativePrecision = try CLI.run([Self.places, out, "--precision", "-1"])
        #expect(
            negativePrecision.status == 64 && !negativePrecision.stderr.contains("Missing value"),
            "\(negativePrecision.stderr)")
        let measured = try CLI.run(["measure", Self.places, "--where", "kind = 'water'"])
        #expect(
            measured.status == 0 && measured.stdout.split(separator: "\n").count == 2
                && measured.stdout.contains("Lake"))
    }
}
