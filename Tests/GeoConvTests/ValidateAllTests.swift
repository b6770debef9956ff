import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `line:column pointer severity: message`, the parts of a problem the tests pin.
private func render(_ problem: ValidationProblem) -> String {
    let place = "\(problem.location.line.map(String.init) ?? "-"):\(problem.location.column.map(String.init) ?? "-")"
    return "\(place) \(problem.location.pointer ?? "-") \(problem.severity.rawValue): \(problem.message)"
}

private func validate(_ name: String, options: ConversionOptions = ConversionOptions()) throws -> ValidationReport {
    try Converter().validate(.file(Fixtures.testdata("invalid-many/\(name)")), options: options)
}

private func validate(text: String, format: String, sourceCRS: String? = nil) throws -> ValidationReport {
    var options = ConversionOptions(inputFormat: FormatRegistry.standard.format(named: format))
    options.sourceCRS = sourceCRS
    return try Converter().validate(.memory(Array(text.utf8), name: "test.\(format)"), options: options)
}

@Suite("validate lists every problem")
struct ValidateAllTests {
    @Test("GeoJSON: each of eight bad features is an error at its place, and reading goes on after each")
    func eightBadFeatures() throws {
        let report = try validate("eight-bad-features.geojson")
        #expect(report.featureCount == 3)
        #expect(!report.isValid)
        #expect(
            report.problems.map(render) == [
                "3:94 /features/1/geometry/coordinates/1 error: each element of a position must be a number, found a string",
                "4:61 /features/2/geometry/type error: unknown geometry type \"Pointy\"",
                "5:53 /features/3/geometry error: a LineString needs a \"coordinates\" member",
                "6:115 /features/4/geometry/coordinates/1 error: a position needs at least two numbers (longitude, latitude), found 1",
                "7:52 /features/5/geometry error: a geometry must be an object or null, found a string",
                "8:53 /features/6/geometry error: a GeometryCollection needs a \"geometries\" array",
                "9:94 /features/7/geometry/coordinates warning: an exterior ring should run counter-clockwise (RFC 7946 §3.1.6)",
                "10:11 /features/8/type error: a member of \"features\" has type \"Road\", not \"Feature\"",
                "11:3 /features/9 error: every feature must be an object, found a number",
            ])
        #expect(
            report.problems.allSatisfy {
                $0.location.file == Fixtures.testdata("invalid-many/eight-bad-features.geojson")
            })
    }

    @Test(
        "GeoJSON: every position beyond longitude ±180 / latitude ±90 is an error at the position, with its JSON Pointer"
    )
    func outOfRange() throws {
        let report = try validate("out-of-range.geojson")
        #expect(report.featureCount == 4)
        #expect(
            report.problems.map(render) == [
                "2:86 /features/0/geometry/coordinates error: (200, 95) is outside longitude ±180 / latitude ±90",
                "4:7 /features/1/geometry/coordinates/1 error: (20, 95.5) is outside longitude ±180 / latitude ±90; latitude and longitude look swapped",
                "6:92 /features/3/geometry/coordinates/0 error: (-181, 0) is outside longitude ±180 / latitude ±90",
                "6:111 /features/3/geometry/coordinates/2 error: (181, -91) is outside longitude ±180 / latitude ±90",
            ])
    }

    @Test(
        "GeoJSON: a position out of range in a CRS other than WGS84 is not checked",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func projectedGeoJSON() throws {
        let text =
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:32633"}},"features":["#
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[500000,4649776]}}]}"#
        let report = try validate(text: text, format: "geojson")
        #expect(report.featureCount == 1)
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("GeoJSON text sequence: every bad record is listed; JSON that does not parse ends the sequence record only")
    func sequence() throws {
        let text =
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,"2"]}}"# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,NaN]}}"# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[300,2]}}"# + "\n"
        let report = try validate(text: text, format: "geojsonseq")
        #expect(report.featureCount == 2)
        #expect(
            report.problems.map(render) == [
                "1:79 /0/geometry/coordinates/1 error: each element of a position must be a number, found a string",
                "3:79 /2/geometry/coordinates/1 error: each element of a position must be a number, found 'N'",
                "4:76 /3/geometry/coordinates error: (300, 2) is outside longitude ±180 / latitude ±90",
            ])
    }

    @Test("GeoJSON: JSON that does not parse ends reading, as the last error, after the problems before it")
    func syntaxErrorEndsReading() throws {
        let text =
            #"{"type":"FeatureCollection","features":["# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Pointy","coordinates":[1,2]}},"# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},"# + "\n"
            + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}} oops"# + "\n]}"
        let report = try validate(text: text, format: "geojson")
        #expect(report.featureCount == 2)
        #expect(
            report.problems.map(render) == [
                "2:54 /features/0/geometry/type error: unknown geometry type \"Pointy\"",
                "4:84 /features error: expected ',' or ']', found 'o'",
            ])
    }

    @Test("WKT: every bad line is an error, positions out of range too, warnings in between")
    func wktLines() throws {
        let report = try validate("bad-lines.wkt")
        #expect(report.featureCount == 5)
        #expect(
            report.problems.map(render) == [
                "2:10 - error: skipped a line: expected a number, found 'x)'",
                "3:19 - error: skipped a line: a position needs X and Y, found 1 number",
                "4:1 - error: (200, 95) is outside longitude ±180 / latitude ±90",
                "5:1 - warning: a polygon ring's first and last positions differ; it is closed on writing",
                "6:1 - warning: curves (CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON, MULTICURVE, MULTISURFACE) are linearised: arcs become segments of at most 4°",
                "8:11 - error: skipped a line: expected ')' after the point's coordinates, found the end of the text",
            ])
    }

    @Test(
        "WKT: projected coordinates are an error unless the CRS is given; then PROJ must know it",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func wktProjected() throws {
        let line = "LINESTRING (500000 4649776, 510000 4649776)\n"
        let bare = try validate(text: line, format: "wkt")
        #expect(
            bare.problems.map(render) == [
                "1:1 - error: (500000, 4649776) is outside longitude ±180 / latitude ±90; the data looks projected: give its CRS with --s-srs",
                "1:1 - error: (510000, 4649776) is outside longitude ±180 / latitude ±90; the data looks projected: give its CRS with --s-srs",
            ])
        #expect(try validate(text: line, format: "wkt", sourceCRS: "EPSG:32633").problems.isEmpty)
        #expect(try validate(text: "SRID=32633;" + line, format: "wkt").problems.isEmpty)
        let unknown = try validate(text: line, format: "wkt", sourceCRS: "EPSG:999999")
        #expect(unknown.problems.count == 1)
        #expect(unknown.problems.first?.severity == .error)
        #expect(unknown.problems.first?.message.contains("PROJ does not know the CRS 'EPSG:999999'") == true)
    }

    @Test("Polyline: every bad line is an error at its byte")
    func polylineLines() throws {
        let report = try validate("bad-lines.polyline")
        #expect(report.featureCount == 3)
        #expect(
            report.problems.map(render) == [
                "2:4 - error: skipped a line that is not a valid encoded polyline: character '!' (33) at byte 3 is not part of an encoded polyline",
                "4:2 - error: skipped a line that is not a valid encoded polyline: a polygon cannot contain another '('",
            ])
    }

    @Test("KML: a placemark out of range is an error; invalid coordinates are the reader's warnings")
    func kmlPlacemarks() throws {
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>ok</name><Point><coordinates>151.2,-33.8</coordinates></Point></Placemark>
            <Placemark><name>far</name><Point><coordinates>200,95</coordinates></Point></Placemark>
            <Placemark><name>nan</name><Point><coordinates>NaN,1</coordinates></Point></Placemark>
            <Placemark><name>ok</name><Point><coordinates>1,2</coordinates></Point></Placemark>
            </Document></kml>
            """
        let report = try validate(text: kml, format: "kml")
        #expect(report.featureCount == 4)
        #expect(
            report.problems.map { "\($0.severity.rawValue): \($0.message)" } == [
                "error: (200, 95) is outside longitude ±180 / latitude ±90",
                "warning: a Point is dropped: 'NaN' in <coordinates> is not a number",
            ])
    }

    @Test(
        "CLI: exit status 1, one line per problem on standard output, the counts on standard error",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func cli() throws {
        let path = Fixtures.testdata("invalid-many/eight-bad-features.geojson")
        let result = try CLI.run(["validate", path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(
            lines.first
                == "\(path):3:94 (at /features/1/geometry/coordinates/1): error: each element of a position must be a number, found a string"
        )
        #expect(result.stderr.contains("geojson, 3 features: 8 errors, 1 warning"))
        let projected = try CLI.run(
            ["validate", "--from", "wkt", "--s-srs", "EPSG:32633", "-"], stdin: "POINT (500000 4649776)\n")
        #expect(projected.status == 0, "\(projected.stdout)\(projected.stderr)")
    }

    @Test("--skip-invalid skips a FeatureCollection member that fails inside, and lists each")
    func skipInvalidConversion() throws {
        var options = ConversionOptions(outputFormat: .geoJSON, skipInvalid: true)
        options.jobs = 1
        let report = try Converter().convert(
            .file(Fixtures.testdata("invalid-many/eight-bad-features.geojson")), to: .memory,
            options: options)
        #expect(report.statistics.featuresRead == 3)
        #expect(report.diagnostics.skippedFeatures.map { $0.location?.line ?? 0 } == [3, 4, 5, 6, 7, 8, 10, 11])
        #expect(
            report.diagnostics.skippedFeatures.first?.message
                == "skipped an invalid feature: each element of a position must be a number, found a string")
    }
}

@Suite("measure refuses what is not longitude/latitude")
struct MeasureProjectedTests {
    static let projectedLine = "LINESTRING (500000 4649776, 510000 4649776)\n"

    static func measure(
        _ text: String, format: String = "wkt", sourceCRS: String? = nil
    ) throws(GeoConvError) -> MeasurementReport {
        var options = ConversionOptions(inputFormat: FormatRegistry.standard.format(named: format))
        options.sourceCRS = sourceCRS
        return try Converter().measure(
            .memory(Array(text.utf8), name: "line.\(format)"), with: Measurer(), options: options)
    }

    /// The geodesic length of the line, its ends reprojected here from UTM zone 33N.
    static func expectedLength() throws -> Double {
        var ends = [
            Coordinate(latitude: 4_649_776, longitude: 500000), Coordinate(latitude: 4_649_776, longitude: 510000),
        ]
        try Reprojection(from: "EPSG:32633").transform(&ends)
        return Geodesic.wgs84.inverse(ends[0], ends[1]).distance
    }

    @Test("Projected WKT without an SRID is refused at the feature, with a hint to give --s-srs")
    func refused() {
        #expect {
            _ = try Self.measure(Self.projectedLine)
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .invalidInput && error.location?.line == 1 && error.location?.column == 1
                && error.location?.file == "line.wkt"
                && error.message
                    == "cannot measure feature 0: (500000, 4649776) is outside longitude ±180 / latitude ±90; the data looks projected: give its CRS with --s-srs"
                && error.hint?.contains("--s-srs") == true
        }
    }

    @Test("Swapped latitude and longitude are refused too; a longitude past ±180 is measured across the antimeridian")
    func swappedAndWrapped() throws {
        #expect {
            _ = try Self.measure("POINT (1 2)\nLINESTRING (10 20, 20 95)\n")
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .invalidInput && error.location?.line == 2 && error.location?.column == 1
                && error.message.hasSuffix(
                    "(20, 95) is outside longitude ±180 / latitude ±90; latitude and longitude look swapped")
        }
        let wrapped = try Self.measure("LINESTRING (179 0, 181 0)\n")
        let across = Geodesic.wgs84.inverse(
            Coordinate(latitude: 0, longitude: 179), Coordinate(latitude: 0, longitude: -179)
        ).distance
        #expect(abs(wrapped.totalLength - across) < 1e-6)
    }

    @Test(
        "--s-srs, an EWKT SRID or a GeoJSON crs member reprojects to WGS84 first",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func reprojected() throws {
        let expected = try Self.expectedLength()
        #expect(abs(expected - 10_004) < 1)  // 10 km of grid, scale factor 0.9996
        let given = try Self.measure(Self.projectedLine, sourceCRS: "EPSG:32633")
        #expect(given.features.count == 1)
        #expect(abs(given.totalLength - expected) < 1e-6)
        #expect(given.totalArea == 0)
        let srid = try Self.measure("SRID=32633;" + Self.projectedLine)
        #expect(abs(srid.totalLength - expected) < 1e-6)
        let geojson =
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::32633"}},"features":["#
            + #"{"type":"Feature","properties":{"name":"grid line"},"geometry":{"type":"LineString","coordinates":[[500000,4649776],[510000,4649776]]}}]}"#
        let crs = try Self.measure(geojson, format: "geojson")
        #expect(abs(crs.totalLength - expected) < 1e-6)
        #expect(crs.features.first?.title == "grid line")
    }

    @Test(
        "CLI: exit status 1 and the error, never nan; with --s-srs the length",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func cli() throws {
        let refused = try CLI.run(["measure", "--from", "wkt", "-"], stdin: Self.projectedLine)
        #expect(refused.status == 1)
        #expect(!refused.stdout.lowercased().contains("nan"))
        #expect(
            refused.stderr.contains(
                "<stdin>:1:1: error: cannot measure feature 0: (500000, 4649776) is outside longitude ±180"))
        #expect(
            refused.stderr.contains("hint: measure needs WGS84 longitude/latitude: give the data's CRS with --s-srs"))
        let measured = try CLI.run(
            ["measure", "--from", "wkt", "--s-srs", "EPSG:32633", "-"], stdin: Self.projectedLine)
        #expect(measured.status == 0, "\(measured.stderr)")
        let expected = DecimalFormatter.fixed(try Self.expectedLength(), digits: 3)
        #expect(measured.stdout.hasPrefix("0\t\(expected) m\t0 m²"), "\(measured.stdout)")
    }
}

@Suite("GeoJSON \"properties\": null stays null")
struct NullPropertiesTests {
    static let collection =
        #"{"type":"FeatureCollection","features":["#
        + #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}},"#
        + #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}]}"#

    static func convert(to format: String) throws(GeoConvError) -> (lines: [String], report: ConversionReport) {
        let report = try Converter().convert(
            .memory(Array(collection.utf8), name: "null.geojson"), to: .memory,
            options: ConversionOptions(
                inputFormat: .geoJSON, outputFormat: FormatRegistry.standard.format(named: format)))
        return (String(decoding: report.output, as: UTF8.self).split(separator: "\n").map(String.init), report)
    }

    @Test("GeoJSON → GeoJSON and GeoJSONSeq write null again, and {} stays {}")
    func roundTrip() throws {
        let geojson = try Self.convert(to: "geojson").lines
        #expect(
            geojson == [
                #"{"type":"FeatureCollection","features":["#,
                #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}},"#,
                #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
                "]}",
            ])
        let sequence = try Self.convert(to: "geojsonseq").lines
        #expect(
            sequence == [
                #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
            ])
        // And back from the sequence.
        let back = try Converter().convert(
            .memory(Array(sequence.joined(separator: "\n").utf8), name: "null.geojsonl"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSONSequence, outputFormat: .geoJSONSequence))
        #expect(String(decoding: back.output, as: UTF8.self).split(separator: "\n").map(String.init) == sequence)
    }

    @Test("A feature that had null properties but gains a title is written with an object")
    func gainsProperties() throws {
        let (_, features, _) = try readGeoJSON(Self.collection)
        #expect(features[0].sourceForm.contains(.nullProperties))
        #expect(!features[1].sourceForm.contains(.nullProperties))
        var titled = features[0]
        titled.title = "Named"
        let text = try writeGeoJSON([titled]).text
        #expect(
            text.contains(
                #"{"type":"Feature","properties":{"name":"Named"},"geometry":{"type":"Point","coordinates":[1,2]}}"#),
            "\(text)")
        #expect(text.components(separatedBy: #""properties""#).count == 2)  // once: never as a foreign member
    }

    @Test("Other formats report no loss for null properties")
    func noLossElsewhere() throws {
        for format in ["polyline", "wkt", "kml"] {
            let report = try Self.convert(to: format).report
            #expect(report.diagnostics.isEmpty, "\(format): \(report.diagnostics.summary)")
        }
    }
}
