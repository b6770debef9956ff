import Foundation
import GeoConv
import Testing

/// What the conservation check and a new user's run over real files found (issue 29), each
/// on a fixture written here in the pattern of the real file.
@Suite struct RealFileFindingsTests {
    @Test("A 400-digit integer property is carried digit for digit, not refused")
    func hugeInteger() throws {
        let input = Fixtures.testdata("geojson/huge-integer.geojson")
        let digits = "1" + String(repeating: "0", count: 399)
        let directory = try Fixtures.temporaryDirectory()
        let geojson = directory.appendingPathComponent("out.geojson").path
        let kml = directory.appendingPathComponent("out.kml").path
        for output in [geojson, kml] {
            let result = try CLI.run([input, output])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: geojson, encoding: .utf8).contains("\"population\":\(digits)"))
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        #expect(text.contains(#"<SimpleField name="population" type="string"/>"#))
        #expect(text.contains("<SimpleData name=\"population\">\(digits)</SimpleData>"))
        // A fraction or exponent beyond a double is still refused, at its place.
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(.memory(Array(#"{"type":"Feature","properties":{"x":1e999},"geometry":null}"#.utf8), name: "x.geojson"),
                                        to: .memory, options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .geoJSON))
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.location?.byteOffset == 36)  // where 1e999 starts
    }

    @Test("A KML whose root is a bare <Polygon> is read as one feature (GDAL refuses the file)")
    func barePolygonRoot() throws {
        let (_, features, _) = try readKML(path: Fixtures.testdata("kml/bare-polygon.kml"))
        try #require(features.count == 1)
        guard case .polygon(let rings) = features[0].geometry else {
            Issue.record("not a polygon: \(String(describing: features[0].geometry))")
            return
        }
        #expect(rings.holes.isEmpty)
        #expect(rings.outer.coordinates.count == 4)
        #expect(rings.outer.coordinates[1].longitude == 151.22 && rings.outer.coordinates[2].latitude == -33.88)
        let validate = try CLI.run(["validate", Fixtures.testdata("kml/bare-polygon.kml")])
        #expect(validate.status == 0 && validate.stderr.contains("1 features: valid"), "\(validate.stderr)")
    }

    @Test("One ExtendedData with the same <Data name> four times keeps all four values, each renamed one reported")
    func repeatedDataNames() throws {
        let path = Fixtures.testdata("kml/repeated-data.kml")
        let (_, features, diagnostics) = try readKML(path: path)
        try #require(features.count == 1)
        let properties = features[0].properties
        #expect(properties["string"] == .string("Rank"))
        #expect(properties["string_2"] == .string("12"))
        #expect(properties["string_3"] == .string("Capacity"))
        #expect(properties["string_4"] == .string("640"))
        let warning = try #require(diagnostics.entries["kml.repeated-data-renamed"])
        #expect(warning.count == 3)
        #expect(warning.first.location?.line == 8 && warning.first.location?.column == 7)
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty && check.read == 11 && check.carried + check.reported == 11, "\(check.lostSilently)")
    }

    @Test("render, tiles and tiles render refuse a line to longitude 1e15 at once, with the --s-srs hint", arguments: [
        ["render", "far.png"], ["render", "far.svg"], ["tiles", "--zoom", "3"], ["tiles", "render", "far", "--zoom", "0-2"], ["camera", "--viewport", "390x844"],
    ])
    func farLongitudeIsRefused(command: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.testdata("render/far-longitude.wkt")
        var arguments = command.count > 1 && command[0] == "tiles" && command[1] == "render" ? ["tiles", "render", input] : [command[0], input]
        arguments += command.dropFirst(command[0] == "tiles" && command.count > 1 && command[1] == "render" ? 2 : 1).map {
            $0.hasPrefix("far") ? directory.appendingPathComponent($0).path : $0
        }
        let result = try CLI.run(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("feature 0:") && result.stderr.contains("--s-srs"), "\(result.stderr)")
    }
}
