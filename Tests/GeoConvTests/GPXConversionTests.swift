import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// GPX through the converter: to and from the other formats, info's losses, the registry
@Suite("GPX through the converter: to and from the other formats, info's losses, the registry")
struct GPXConversionTests {
    static let schema = Fixtures.testdata("gpx/schema/gpx11.xsd")

    /// What the format the converter finds for `input` (by name or content) reads of it.
    static func read(
        _ input: InputSource, skipInvalid: Bool = false
    ) throws(GeoConvError)
        -> (header: DocumentHeader, features: [Feature], log: DiagnosticLog)
    {
        let reader = try ByteReader(input)
        var options = ConversionOptions()
        options.skipInvalid = skipInvalid
        let format = try Converter().inputFormat(for: input, reader: reader, options: options)
        let read = try FormatIO.read(reader, as: format, options: options)
        return (read.header, read.features, read.diagnostics)
    }

    static func convert(_ input: InputSource, to format: String) throws(GeoConvError) -> ConversionReport {
        try Converter().convert(
            input, to: .memory, options: ConversionOptions(outputFormat: FormatRegistry.standard.format(named: format)))
    }

    @Test(
        "Garmin TrackPointExtension v1/v2 read as per-point heartrate, cadence, temperature, speed; written back in the schema's order; other values kept"
    )
    func trackPointExtension() throws {
        let input = Fixtures.testdata("gpx/sensors.gpx")
        let (_, features, _) = try Self.read(.file(input))
        let perPoint = try #require(features.first?.properties["coordinateProperties"]?.objectValue)
        #expect(perPoint["heartrate"] == [[118, 121, 127, .null]])
        #expect(perPoint["cadence"] == [[80, .null, .null, .null]])
        #expect(
            perPoint["temperature"]?.arrayValue?[0].arrayValue?[0] == .number(JSONNumber(literal: "14.0")!),
            "the number as written")
        #expect(perPoint["speed"] == [[.null, .null, .number(JSONNumber(literal: "5.25")!), .null]])
        // Not a TrackPointExtension (power), and one holding text that is not a number, stay as read.
        let extensions = perPoint["extensions"]?.arrayValue?[0].arrayValue
        #expect(
            extensions?[1].objectValue?["PowerInWatts"] == [
                "#text": "250", "@xmlns": "http://www.garmin.com/xmlschemas/PowerExtension/v1",
            ])
        #expect(extensions?[3].objectValue?["TrackPointExtension"]?.objectValue?["hr"] == "n/a")

        let directory = try Fixtures.temporaryDirectory()
        let gpx = directory.appendingPathComponent("out.gpx").path
        let kml = directory.appendingPathComponent("out.kml").path
        for output in [gpx, kml] { _ = try Converter().convert(.file(input), to: .file(output)) }
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let v1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
        let v2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
        #expect(
            text.contains(
                #"<extensions><TrackPointExtension xmlns="\#(v1)"><atemp>14.0</atemp><hr>118</hr><cad>80</cad></TrackPointExtension></extensions>"#
            ), "\(text)")
        #expect(
            text.contains(
                #"<extensions><TrackPointExtension xmlns="\#(v2)"><hr>127</hr><speed>5.25</speed></TrackPointExtension></extensions>"#
            ))
        #expect(text.contains(#"<TrackPointExtension xmlns="\#(v1)"><hr>n/a</hr></TrackPointExtension>"#))
        #expect(XMLSchemaValidation.errors(in: Array(text.utf8), schema: Self.schema).isEmpty)
        let kmlText = try String(contentsOfFile: kml, encoding: .utf8)
        #expect(
            kmlText.contains(
                #"<gx:SimpleArrayData name="heartrate"><gx:value>118</gx:value><gx:value>121</gx:value><gx:value>127</gx:value><gx:value></gx:value>"#
            ), "\(kmlText)")
        let check = try #require(try ConservationCheck().check(input))
        #expect(check.lostSilently.isEmpty, "\(check.lostSilently)")

        // KML's heart_rate (another spelling) goes to <hr>, with a note that it reads back as heartrate.
        let document = #"""
            {"type":"Feature","properties":{"coordinateProperties":{"times":["2026-05-01T07:00:00Z","2026-05-01T07:00:05Z"],"heart_rate":[100,101],"power":[200,210]}},"geometry":{"type":"LineString","coordinates":[[7,46],[7.1,46.1]]}}
            """#
        let renamed = try Converter().convert(
            .memory(Array(document.utf8), name: "-"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .gpx))
        let written = String(decoding: renamed.output, as: UTF8.self)
        #expect(
            written.contains(
                #"<extensions><TrackPointExtension xmlns="\#(v1)"><hr>101</hr></TrackPointExtension><ogr:power>210</ogr:power></extensions>"#
            ), "\(written)")
        let summary = renamed.diagnostics.summary.joined(separator: "\n")
        #expect(
            summary.contains(
                #"per-point "heart_rate" is written as Garmin's TrackPointExtension <hr>, read back as "heartrate" [gpx.sensor-renamed]"#
            ), "\(summary)")
    }

    @Test("GPX → KML → GPX and GPX → GeoJSON → GPX keep names, elevations, times and extensions")
    func roundTrips() throws {
        let direct = try Self.convert(.file(Fixtures.testdata("gpx/hike.gpx")), to: "gpx")
        for via in ["kml", "geojson"] {
            let middle = try Self.convert(.file(Fixtures.testdata("gpx/hike.gpx")), to: via)
            let back = try Self.convert(.memory(middle.output, name: "via.\(via)"), to: "gpx")
            let text = String(decoding: back.output, as: UTF8.self)
            // Features come back the same (KML has no place for the metadata beyond name and description).
            let expected = String(decoding: direct.output, as: UTF8.self)
            let body = { (gpx: String) in gpx.components(separatedBy: "</metadata>\n").last ?? "" }
            #expect(body(text) == body(expected) || via == "kml", "\(via):\n\(text)")
            #expect(
                text.contains(
                    #"<trkpt lat="37.918" lon="-122.6001"><ele>650.75</ele><time>2026-05-02T08:45:10.5Z</time></trkpt>"#
                ), "\(via)")
            #expect(text.contains("<hr>131</hr>"), "\(via): per-point extensions kept")
            #expect(text.contains("<name>East Peak</name>") && text.contains("<sym>Summit</sym>"), "\(via)")
            #expect(XMLSchemaValidation.errors(in: back.output, schema: Self.schema).isEmpty, "\(via)")
        }
    }

    @Test("What GPX cannot hold is written as GDAL fields, typed, and read back exactly; the rest is reported")
    func messyValues() throws {
        let report = try Self.convert(.file(Fixtures.testdata("gpx/messy.geojson")), to: "gpx")
        let errors = XMLSchemaValidation.errors(in: report.output, schema: Self.schema)
        #expect(errors.isEmpty, "\(errors)")
        let codes = Set(report.diagnostics.entries.keys)
        #expect(
            codes.isSuperset(of: [
                "gpx.geometry-not-written", "gpx.multipoint-split", "gpx.longitude-180",
                "gpx.extension-name-dropped", "gpx.coordinate-properties-as-data",
            ]), "\(codes)")
        let text = String(decoding: report.output, as: UTF8.self)
        #expect(text.contains(#"<wpt lat="-90" lon="-180">"#))
        let (_, source, _) = try Self.read(.file(Fixtures.testdata("gpx/messy.geojson")))
        let (_, back, _) = try Self.read(.memory(report.output, name: "messy.gpx"))
        let edge = try #require(back.first).properties
        for (key, value) in source[0].properties where !["extensions", "name"].contains(key) {
            #expect(edge[key] == value, "\(key): \(String(describing: edge[key])) ≠ \(value)")
        }
        #expect(edge["extensions"] == ["Good": ["v": "1", "@xmlns": "urn:x"]])
        let line = try #require(back.first { $0.title == "line" })
        #expect(
            line.properties["coordinateProperties"] == ["hr": [1, 2, 3], "times": ["2020-01-01T00:00:00Z", "bad"]])
        // A timed line is a route with times (as GDAL writes it), read back as the line it was.
        #expect(back.contains { $0.title == "timed" && $0.geometry?.kind == .lineString })
    }

    @Test("Every GPX geoconv writes validates against GPX 1.1's schema, from every sample")
    func outputsValidate() throws {
        for input in [
            "gpx/hike.gpx", "gpx/gpx10.gpx", "gpx/messy.geojson", "kml/rich.kml", "kml/trails.kml",
            "geojson/faithful.geojson",
            "geojson/markers.geojson",
        ] {
            let report = try Self.convert(.file(Fixtures.testdata(input)), to: "gpx")
            let errors = XMLSchemaValidation.errors(in: report.output, schema: Self.schema)
            #expect(errors.isEmpty, "\(input): \(errors.prefix(5))")
        }
        let invalid =
            #"<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="t"><trk/><wpt lat="1" lon="180"/></gpx>"#
        #expect(XMLSchemaValidation.errors(in: Array(invalid.utf8), schema: Self.schema).count >= 1)
    }

    @Test(
        "GDAL reads geoconv's GPX with the same waypoints, routes and track points", .enabled(if: Tools.ogrinfo != nil))
    func gdalReadsOutput() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("hike.gpx").path
        _ = try Converter().convert(.file(Fixtures.testdata("gpx/hike.gpx")), to: .file(output))
        func counts(_ path: String) throws -> [String] {
            let result = try CLI.run(
                ["-c", "\(Tools.ogrinfo ?? "ogrinfo") -so -al '\(path)' | grep -E 'Layer name|Feature Count'"],
                shell: true)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let original = try counts(Fixtures.testdata("gpx/hike.gpx"))
        #expect(original.count == 10, "\(original)")
        #expect(try counts(output) == original)
        let points = try CLI.run(
            ["-c", "\(Tools.ogrinfo ?? "ogrinfo") -al -q '\(output)' track_points | grep -E 'ele \\(|time \\(|POINT'"],
            shell: true)
        #expect(
            points.stdout.contains("ele (Real) = 650.75")
                && points.stdout.contains("time (DateTime) = 2026/05/02 08:45:10.500+00"),
            "\(points.stdout)")
    }

    @Test(
        "Bad points are read as GDAL reads them, each reported at its line; --skip-invalid skips the feature; --strict refuses"
    )
    func invalidPoints() throws {
        let input = InputSource.file(Fixtures.testdata("gpx/invalid-points.gpx"))
        let (_, all, warnings) = try Self.read(input)
        // A waypoint without a position is kept without geometry (its name too); the track point keeps its position.
        #expect(
            all.map(\.geometry) == [
                .point(Coordinate(latitude: 1, longitude: 2)), nil, nil,
                .multiLineString([Path([Coordinate(latitude: 1, longitude: 2)])]),
                .point(Coordinate(latitude: 5, longitude: 6)),
            ])
        #expect(all[1].title == "a")
        let position = try #require(warnings.entries["gpx.invalid-position"])
        #expect(position.count == 2 && position.first.location?.line == 4)
        #expect(position.first.message.hasPrefix("a point without its lat attribute: the point has no position"))
        let ele = try #require(warnings.entries["gpx.invalid-ele"])
        #expect(ele.first.location?.line == 6 && ele.first.message.contains("<ele>high</ele>"))
        #expect {
            _ = try Converter().convert(
                input, to: .memory, options: ConversionOptions(outputFormat: .geoJSON, strict: true))
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .dataLoss && error.location?.line == 4
        }
        let (_, features, log) = try Self.read(input, skipInvalid: true)
        #expect(
            features.map(\.geometry) == [
                .point(Coordinate(latitude: 1, longitude: 2)), .point(Coordinate(latitude: 5, longitude: 6)),
            ])
        #expect(log.skippedFeatures.map(\.location?.line) == [4, 5, 6])
        #expect(log.skippedFeatures.last?.message.contains("<ele>high</ele>") == true)
    }

    @Test("GPX is found by extension and by content")
    func registry() throws {
        #expect(FormatRegistry.standard.format(forPath: "a/b.GPX")?.name == "gpx")
        let head = Array(#"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">"#.utf8)
        #expect(FormatRegistry.standard.format(sniffing: head)?.name == "gpx")
        #expect(FileFormat.gpx.capabilities.isWGS84Only && !FileFormat.gpx.capabilities.holdsCircles)
    }

    @Test("info lists the same GPX losses a conversion reports (info skips writing, not checking)")
    func infoMatchesConversion() throws {
        for input in ["gpx/messy.geojson", "kml/rich.kml", "geojson/faithful.geojson"] {
            let source = InputSource.file(Fixtures.testdata(input))
            let info = try Converter().inspect(source)
            let conversion = try Converter().convert(
                source, to: .memory, options: ConversionOptions(outputFormat: .gpx))
            // The GPX writer's codes and counts (places and order differ: the conversion's
            // writer runs on its own thread, and its list holds the reader's warnings too).
            func gpxCodes(_ lines: [String]) -> [String: Int] {
                var codes: [String: Int] = [:]
                for line in lines {
                    guard let open = line.range(of: "[gpx."), let close = line[open.upperBound...].firstIndex(of: "]")
                    else { continue }
                    let code = "gpx." + line[open.upperBound..<close]
                    let count =
                        line.hasSuffix(" times)")
                        ? Int(line.split(separator: "(").last?.split(separator: " ").first ?? "") ?? 1 : 1
                    codes[code] = count
                }
                return codes
            }
            let listed = gpxCodes(info.losses["gpx"] ?? [])
            #expect(!listed.isEmpty && listed == gpxCodes(conversion.diagnostics.summary), "\(input): \(listed)")
        }
    }

    @Test("Polygons only → GPX: each reported, and once at the end that the output holds no feature")
    func polygonsOnly() throws {
        let polygon =
            #"{"type":"Feature","properties":{},"#
            + #""geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#
        let text =
            #"{"type":"FeatureCollection","features":["# + [polygon, polygon, polygon].joined(separator: ",")
            + "]}"
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "p.geojson"), to: .memory,
            options: ConversionOptions(outputFormat: .gpx))
        #expect(report.diagnostics.entries["gpx.geometry-not-written"]?.count == 3)
        let empty = try #require(report.diagnostics.entries["output.empty"])
        #expect(empty.count == 1 && empty.first.message.hasPrefix("none of the 3 features read was written"))
        #expect(!String(decoding: report.output, as: UTF8.self).contains("<wpt"))
    }
}
