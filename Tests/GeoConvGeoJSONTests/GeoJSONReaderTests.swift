import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoJSON
import GeoConvIO
import GeoConvTestSupport
import Testing

@Suite("GeoJSON reading")
struct GeoJSONReaderTests {
    @Test("Properties keep order, types and literals; strings unescape exactly")
    func faithfulProperties() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("geojson/faithful.geojson"), encoding: .utf8)
        let (header, features, _) = try readGeoJSON(text)
        #expect(header.name == "Harbour walks")
        #expect(header.foreignMembers["generator"] == ["tool": "hand-written", "version": 3])
        #expect(features.count == 10)
        let walk = features[0]
        #expect(walk.id == .string("walk-1"))
        #expect(
            Array(walk.properties.keys) == [
                "osm_id", "length_km", "ratio", "zero", "name", "description", "emoji", "stroke",
                "stroke-width", "stroke-opacity", "tags", "visited",
            ])
        #expect(walk.properties["osm_id"] == .number(JSONNumber(uncheckedLiteral: "12345678901234567890")))
        #expect(
            walk.properties["length_km"]
                == .number(JSONNumber(uncheckedLiteral: "3.14159265358979323846264338327950288")))
        #expect(walk.properties["ratio"] == .number(JSONNumber(uncheckedLiteral: "1.0")))
        #expect(walk.properties["emoji"] == .string("😀 and nul \u{0} end"))
        #expect(walk.properties["description"] == .string("<b>Harbour</b> views, \"quoted\", tab\there"))
        #expect(walk.title == "Circular Quay → Opera House")
        #expect(walk.snippet == "<b>Harbour</b> views, \"quoted\", tab\there")
        #expect(walk.style.strokeColor == Color(red: 0x1f, green: 0x78, blue: 0xb4, opacity: 0.75))
        #expect(walk.style.strokeWidth == 4)
        #expect(walk.foreignMembers["mapillary"] == ["sequence": "abc"])
        #expect(
            walk.geometry
                == .lineString([
                    Coordinate(latitude: -33.8612, longitude: 151.2108, altitude: 4.5),
                    Coordinate(latitude: -33.8587, longitude: 151.2140, altitude: 3.25),
                    Coordinate(latitude: -33.8568, longitude: 151.2153, altitude: 2.0),
                ]))
        #expect(features[1].id == .number(JSONNumber(7)))
        #expect(features[1].title == "Opera House")
        #expect(features[1].style.markerColor == Color(red: 0xe3, green: 0x1a, blue: 0x1c))
        #expect(features[1].style.markerSymbol == "theatre" && features[1].style.markerSize == "large")
        #expect(features[2].style.fillColor == Color(red: 0x33, green: 0xa0, blue: 0x2c, opacity: 0.4))
        #expect(features[2].style.strokeColor == .black)
        #expect(features[7].geometry == nil)
        #expect(
            features[8].geometry == .circle(center: Coordinate(latitude: -33.8568, longitude: 151.2153), radius: 250))
        #expect(features[9].geometry == .point(Coordinate(latitude: -0.0000001, longitude: 0.1)))
    }

    @Test(
        "Numbers parse to exactly what strtod gives",
        arguments: [
            "0.1", "-33.856784", "151.215297", "1e-7", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
            "0.30000000000000004", "123456789012345678901234567890", "9007199254740993", "-0.0", "1E+2",
            "3.141592653589793238462643",
            "0.000000000000000000000000000001", "179.99999999999997", "45.00000000000001",
        ])
    func exactNumbers(literal: String) throws {
        let (_, features, _) = try readGeoJSON(#"{"type":"Point","coordinates":["# + literal + ",0]}")
        guard case .point(let c)? = features.first?.geometry else {
            Issue.record("no point")
            return
        }
        #expect(c.longitude.bitPattern == strtod(literal, nil).bitPattern)
    }

    @Test("Shortest output reads back bit for bit", arguments: Array(0..<20))
    func shortestRoundTrip(seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed) &+ 99)
        var values: [Double] = []
        for i in 0..<500 {
            switch i % 4 {
            case 0: values.append(Double.random(in: -180...180, using: &generator))
            case 1: values.append((Double.random(in: -90...90, using: &generator) * 1e6).rounded() / 1e6)
            case 2: values.append(Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF))
            default: values.append(Double.random(in: -1e-3...1e-3, using: &generator))
            }
        }
        for value in values {
            var out: [UInt8] = []
            DecimalFormatter.appendShortest(value, to: &out)
            let text = String(decoding: out, as: UTF8.self)
            #expect(Double(text) == value, "\(value) printed as \(text)")
            #expect(!text.contains("e") || abs(value) >= 1e15 || abs(value) < 1e-7)
            // As short as Swift's own shortest representation.
            let swiftDigits = value.description.filter(\.isNumber).drop { $0 == "0" }.count
            let ourDigits = text.filter(\.isNumber).drop { $0 == "0" }.count
            if !value.description.contains("e") {
                #expect(ourDigits <= max(swiftDigits, 1) + 0, "\(text) vs \(value.description)")
            }
        }
    }

    @Test("Bare geometries, a lone Feature, BOM and CRLF")
    func shapesOfDocuments() throws {
        #expect(
            try readGeoJSON(#"{"type":"Point","coordinates":[1,2]}"#).features.first?.geometry
                == .point(Coordinate(latitude: 2, longitude: 1)))
        let bom =
            [0xEF, 0xBB, 0xBF]
            + Array("{\r\n\"type\": \"Feature\", \"properties\": {\"a\": 1},\r\n\"geometry\": null}\r\n".utf8)
        let read = try readGeoJSON(bytes: bom)
        #expect(read.features.count == 1 && read.features[0].properties["a"] == 1)
        let collection = try readGeoJSON(#"{"type":"GeometryCollection","geometries":[]}"#)
        #expect(collection.features.first?.geometry == .empty(.geometryCollection))
        let empties = try readGeoJSON(#"{"type":"LineString","coordinates":[]}"#)
        #expect(empties.features.first?.geometry == .empty(.lineString))
    }

    @Test("Members may come in any order; features before type")
    func memberOrder() throws {
        let text =
            #"{"features":[{"geometry":{"coordinates":[1,2],"type":"Point"},"properties":{"b":2},"type":"Feature"}],"type":"FeatureCollection"}"#
        let (_, features, _) = try readGeoJSON(text)
        #expect(features.count == 1 && features[0].geometry == .point(Coordinate(latitude: 2, longitude: 1)))
    }

    /// The geometry, and each warning's code, pointer and message, or the error's message and pointer.
    private static func outcome(_ text: String) -> String {
        do {
            let (_, features, log) = try readGeoJSON(text)
            let warnings = log.entries.map {
                "\($0.key) \($0.value.first.location?.pointer ?? "-") \($0.value.first.message)"
            }
            return "\(features.map { String(describing: $0.geometry) }) \(warnings)"
        } catch {
            return "error \(error.location?.pointer ?? "-") \(error.message)"
        }
    }

    @Test(
        "One coordinate parser: coordinates before or after type give the same geometry, warnings and errors",
        arguments: [
            ("Point", "[1,2,3,4]", "geojson.extra-ordinates /coordinates positions with more than three numbers"),
            ("LineString", "[[1,2]]", "geojson.short-line /coordinates a LineString needs two or more positions"),
            ("MultiLineString", "[[[0,0],[1,1]],[[2,2]]]", "geojson.short-line /coordinates/1 a LineString needs"),
            ("Polygon", "[[[0,0],[1,0],[1,1],[0,1]]]", "geojson.unclosed-ring /coordinates/0 a linear ring"),
            (
                "MultiPolygon", "[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6]]]]",
                "geojson.short-ring /coordinates/1/0 a linear ring needs four"
            ),
            ("MultiPoint", "[[1,2],[3,4,5,6]]", "geojson.extra-ordinates /coordinates/1 positions with more"),
            ("point", "[1,2]", "geojson.type-case /type type"),
            (
                "LineString", "[[1,2],[3,\"x\"]]",
                "error /coordinates/1/1 each element of a position must be a number, found a string"
            ),
            ("Point", "[[1,2]]", "error /coordinates Point coordinates are nested too deeply"),
            ("LineString", "[1,2]", "error /coordinates/0 LineString coordinates are not nested deeply enough"),
            (
                "Polygon", "[5]",
                "error /coordinates/0 Polygon coordinates are not nested deeply enough: expected an array of positions"
            ),
            ("Point", "[1]", "error /coordinates a position needs at least two numbers (longitude, latitude), found 1"),
            ("Point", "[1e999,2]", "error /coordinates/0 number 1e999 is too large"),
            ("Point", "\"x\"", "error /coordinates Point coordinates must be arrays"),
        ])
    func coordinatesBeforeType(type: String, coordinates: String, expected: String) {
        let typeFirst = Self.outcome(#"{"type":"\#(type)","coordinates":\#(coordinates)}"#)
        let coordinatesFirst = Self.outcome(#"{"coordinates":\#(coordinates),"type":"\#(type)"}"#)
        #expect(typeFirst == coordinatesFirst)
        #expect(typeFirst.contains(expected), "\(typeFirst)")
    }

    @Test("Coordinates on a Feature or a GeometryCollection are kept as a foreign member, whichever member comes first")
    func coordinatesOnNonGeometries() throws {
        for text in [
            #"{"type":"Feature","coordinates":[1,2],"properties":{},"geometry":null}"#,
            #"{"coordinates":[1,2],"type":"Feature","properties":{},"geometry":null}"#,
        ] {
            let (_, features, log) = try readGeoJSON(text)
            let kept = features.first?.foreignMembers["coordinates"]?.arrayValue
            #expect(kept?.map(\.doubleValue) == [1, 2], "\(text)")
            #expect(log.entries["geojson.feature-geometry-members"] == nil, "\(text)")
        }
        for text in [
            #"{"type":"GeometryCollection","coordinates":[3,4],"geometries":[]}"#,
            #"{"coordinates":[3,4],"type":"GeometryCollection","geometries":[]}"#,
        ] {
            let feature = try #require(try readGeoJSON(text).features.first)
            #expect(feature.geometry == .empty(.geometryCollection))
            let kept = feature.foreignMembers["geometry"]?.objectValue?["coordinates"]?.arrayValue
            #expect(kept?.map(\.doubleValue) == [3, 4], "\(text)")
        }
    }

    @Test("Coordinates before type in a large root geometry stay readable while later members are parsed")
    func largeCoordinatesBeforeType() throws {
        let positions = (0..<40_000).map { "[\($0 % 180),\(Double($0 % 80) / 2)]" }.joined(separator: ",")
        let padding = String(repeating: "x", count: 300_000)
        let text = #"{"coordinates":[\#(positions)],"note":"\#(padding)","type":"LineString"}"#
        let (_, features, _) = try readGeoJSON(text)
        guard case .lineString(let path)? = features.first?.geometry else {
            Issue.record("not a LineString: \(String(describing: features.first?.geometry))")
            return
        }
        #expect(path.count == 40_000)
        #expect(path.coordinates[39_999] == Coordinate(latitude: 39.5, longitude: 39))
        #expect(features.first?.foreignMembers["geometry"]?.objectValue?["note"]?.stringValue?.count == 300_000)
    }

    @Test("A ring's warnings are placed at the ring; a winding warning at its polygon")
    func checksAtTheirElement() throws {
        let text = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.8,0.2],[0.8,0.8]]]}"#
        let log = try readGeoJSON(text).diagnostics
        let unclosed = try #require(log.entries["geojson.unclosed-ring"]?.first.location)
        #expect(unclosed.pointer == "/coordinates/1" && unclosed.column == 60, "\(unclosed)")
        let short = try #require(log.entries["geojson.short-ring"]?.first.location)
        #expect(short.column == 60)
    }

    @Test("GeoJSON text sequences: RS-delimited and newline-delimited")
    func sequences() throws {
        let rs =
            "\u{1E}{\"type\":\"Feature\",\"properties\":{\"n\":1},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n"
            + "\u{1E}{\"type\":\"Point\",\"coordinates\":[3,4]}\n"
        let a = try readGeoJSON(rs, sequence: true)
        #expect(a.features.count == 2 && a.features[1].geometry == .point(Coordinate(latitude: 4, longitude: 3)))
        let lines =
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":null}\n\n{\"type\":\"Feature\",\"properties\":{\"x\":true},\"geometry\":null}\n"
        #expect(try readGeoJSON(lines, sequence: true).features.count == 2)
    }

    @Test("Legacy crs: CRS84 and EPSG:4326 are WGS84; other CRSs are named in the header for reprojection")
    func legacyCRS() throws {
        let crs84 =
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[]}"#
        #expect(try readGeoJSON(crs84).header.crs == nil)
        let epsg4326 =
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:4326"}},"features":[]}"#
        #expect(try readGeoJSON(epsg4326).header.crs == nil)
        let mercator =
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features":[]}"#
        #expect(try readGeoJSON(mercator).header.crs == "urn:ogc:def:crs:EPSG::3857")
        let link =
            #"{"type":"FeatureCollection","crs":{"type":"link","properties":{"href":"http://example.com/crs"}},"features":[]}"#
        #expect {
            _ = try readGeoJSON(link)
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .unsupported && error.location?.line == 1 && error.location?.column == 35
                && error.hint?.contains("--s-srs") == true && error.message.contains("http://example.com/crs")
        }
    }

    @Test("A text sequence record that is a FeatureCollection is read as its features, each at its place")
    func collectionRecords() throws {
        let text =
            #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"# + "\n"
            + #"{"type":"FeatureCollection","name":"batch","features":[{"type":"Feature","properties":{"b":2},"geometry":null},"#
            + #"{"type":"Feature","properties":{"c":3},"geometry":{"type":"Point","coordinates":[5,"x"]}}]}"# + "\n"
            + #"{"type":"Feature","properties":{"d":4},"geometry":null}"# + "\n"
        #expect {
            _ = try readGeoJSON(text, sequence: true)
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.location?.line == 2 && error.location?.column == 195
                && error.location?.pointer == "/1/features/1/geometry/coordinates/1"
        }
        let log = DiagnosticLog()
        var reader = GeoJSONReader(
            try ByteReader(.memory(Array(text.utf8), name: "s.geojsonl")),
            options: GeoJSONReadOptions(isSequence: true, skipsInvalidFeatures: true), diagnostics: log)
        _ = try reader.readHeader()
        var names: [String] = []
        var places: [String] = []
        while let feature = try reader.next() {
            names += feature.properties.keys
            places.append(reader.lastLocation.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.pointer ?? "")" } ?? "")
        }
        #expect(names == ["a", "b", "d"])
        #expect(places == ["1:1 /0", "2:56 /1/features/0", "3:1 /2"])
        #expect(log.entries["geojsonseq.record-members-dropped"]?.first.location?.line == 2)
        #expect(log.skippedFeatures.first?.location?.pointer == "/1/features/1/geometry/coordinates/1")
    }

    @Test(
        "Every legacy crs form GDAL reads: name, EPSG code, OGC urn, and links to EPSG/OGC URLs",
        arguments: [
            (#"{"type":"EPSG","properties":{"code":28356}}"#, "EPSG:28356"),
            (#"{"type":"EPSG","properties":{"code":"3857"}}"#, "EPSG:3857"),
            (#"{"type":"OGC","properties":{"urn":"urn:ogc:def:crs:EPSG::2154"}}"#, "urn:ogc:def:crs:EPSG::2154"),
            (#"{"type":"link","properties":{"href":"http://www.opengis.net/def/crs/EPSG/0/28356"}}"#, "EPSG:28356"),
            (
                #"{"type":"link","properties":{"href":"http://spatialreference.org/ref/epsg/2193/proj4/","type":"proj4"}}"#,
                "EPSG:2193"
            ),
            (#"{"type":"link","properties":{"href":"https://epsg.io/32633"}}"#, "EPSG:32633"),
            (#"{"type":"link","properties":{"href":"http://www.opengis.net/def/crs/OGC/1.3/CRS84"}}"#, nil),
            (#"{"type":"EPSG","properties":{"code":4326}}"#, nil),
        ] as [(String, String?)])
    func legacyCRSForms(crs: String, expected: String?) throws {
        let document = #"{"type":"FeatureCollection","crs":"# + crs + #","features":[]}"#
        #expect(try readGeoJSON(document).header.crs == expected, "\(crs)")
    }

    @Test(
        "Bad input: each class gives a located error",
        arguments: [
            (#"{"type":"Point","coordinates":[1,2"#, 1, 35, "found the end of the input"),
            (#"{"type":"Point","coordinates":[1e999,2]}"#, 1, 32, "too large"),
            (#"{"type":"Point","coordinates":[NaN,2]}"#, 1, 32, "each element of a position must be a number"),
            (#"{"type":"Point","coordinates":[-,2]}"#, 1, 33, "invalid number"),
            (#"{"type":"Point","coordinates":[01,2]}"#, 1, 33, "leading zero"),
            ("{\"type\":\"Feature\",\"properties\":{\"a\":\"x\ny\"},\"geometry\":null}", 1, 39, "control character"),
            (#"{"type":"Feature","properties":{"a":"\ud800"},"geometry":null}"#, 1, 44, "lone high surrogate"),
            (#"{"type":"Feature","properties":{"a":"\q"},"geometry":null}"#, 1, 39, "invalid escape"),
            ("\"just a string\"", 1, 1, "the root of a GeoJSON document must be an object"),
            (#"{"type":"FeatureCollection","features":{}}"#, 1, 40, "must be an array"),
            (#"{"type":"FeatureCollection","features":[null]}"#, 1, 41, "every feature must be an object"),
            (#"{"type":"FooBar","coordinates":[1,2]}"#, 1, 9, "unknown geometry type"),
            (#"{"type":"Point"}"#, 1, 1, "needs a \"coordinates\" member"),
            (#"{"type":"Polygon","coordinates":[5]}"#, 1, 34, "expected an array of positions"),
            (#"{"type":"Point","coordinates":[1]}"#, 1, 34, "at least two numbers"),
            (#"{"type":"Point","coordinates":[1,2]} {"#, 1, 38, "unexpected content after"),
            ("", 1, 1, "the input is empty"),
            (#"{"type":"Feature","properties":{"a":1,}}"#, 1, 39, "expected a member name"),
            (#"{"type":"Feature","properties":{"a" 1}}"#, 1, 37, "expected ':'"),
        ])
    func badInput(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try readGeoJSON(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.location?.file == "test.geojson")
            #expect(error.location?.line == line, "\(error)")
            #expect(error.location?.column == column, "\(error)")
        }
    }

    @Test("Invalid UTF-8 in a string is refused with its byte offset")
    func invalidUTF8() {
        let bytes =
            Array(#"{"type":"Feature","properties":{"a":"caf"#.utf8) + [0xE9] + Array(#""},"geometry":null}"#.utf8)
        do {
            _ = try readGeoJSON(bytes: bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.message.contains("not valid UTF-8"))
            #expect(error.location?.byteOffset == 40)
        }
    }

    @Test("Nesting deeper than the limit is refused, not a stack overflow")
    func deepNesting() {
        let deep =
            #"{"type":"Feature","properties":{"a":"# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}}"
        #expect(throws: GeoConvError.self) { _ = try readGeoJSON(deep) }
        let deepCoordinates = #"{"type":"Polygon","coordinates":"# + String(repeating: "[", count: 50_000)
        #expect(throws: GeoConvError.self) { _ = try readGeoJSON(deepCoordinates) }
    }

    @Test("--skip-invalid skips bad features and counts them")
    func skipping() throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},"#
            + #"{"type":"Foo","properties":{},"geometry":null},null,"#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}]}"#
        let (_, features, diagnostics) = try readGeoJSON(text, skipInvalid: true)
        #expect(features.count == 2)
        #expect(diagnostics.entries["geojson.invalid-feature-skipped"]?.count == 2)
    }

    @Test("Memory stays bounded: a huge collection is read one feature at a time")
    func streamingWindow() throws {
        // 40,000 features (~4 MB) through a reader whose single-value limit is 64 KiB.
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<40_000 {
            if i > 0 { text += "," }
            text +=
                #"{"type":"Feature","properties":{"i":\#(i)},"geometry":{"type":"Point","coordinates":[\#(i % 180),1.5]}}"#
        }
        text += "]}"
        let diagnostics = DiagnosticLog()
        var reader = GeoJSONReader(
            try ByteReader(.memory(Array(text.utf8), name: "big")),
            options: GeoJSONReadOptions(maximumFeatureBytes: 1 << 21), diagnostics: diagnostics)
        _ = try reader.readHeader()
        var count = 0
        while let feature = try reader.next() {
            #expect(feature.properties["i"] == .number(JSONNumber(count)))
            count += 1
        }
        #expect(count == 40_000)
    }
}

extension GeoJSONReaderTests {
    @Test("A fraction or exponent beyond a double is refused at its place; the largest doubles are kept as written")
    func numbersBeyondADouble() throws {
        func feature(_ literal: String) -> String {
            #"{"type":"Feature","properties":{"x":\#(literal)},"geometry":null}"#
        }
        for literal in ["-1.5e308", "1.7976931348623157e308", "0.000001e-400", "12345678901234567890123.5"] {
            let (_, features, _) = try readGeoJSON(feature(literal))
            #expect(features.first?.properties["x"] == .number(JSONNumber(uncheckedLiteral: literal)), "\(literal)")
        }
        let error = #expect(throws: GeoConvError.self) { try readGeoJSON(feature("1e400")) }
        #expect(error?.message == "number 1e400 is too large for a 64-bit float")
        #expect(error?.location?.line == 1 && error?.location?.column == 37)
    }
}
