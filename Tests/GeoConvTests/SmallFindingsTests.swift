import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// The smaller things a new user's run over real files found (issue 29, "Smaller things"),
/// each on a fixture in `testdata/findings/`.
@Suite struct SmallFindingsTests {
    @Test(
        "validate calls an unclosed ring and a one-position LineString errors (RFC 7946 MUSTs); convert repairs them with a warning"
    )
    func rfcMusts() throws {
        let input = Fixtures.testdata("findings/unclosed-ring.geojson")
        let report = try Converter().validate(.file(input))
        let errors = report.problems.filter { $0.severity == .error }
        #expect(!report.isValid)
        #expect(errors.map(\.location.line) == [2, 3])
        #expect(
            errors.map(\.location.pointer) == [
                "/features/0/geometry/coordinates/0", "/features/1/geometry/coordinates",
            ])
        #expect(errors[0].message.hasPrefix("a linear ring's first and last positions differ"))
        #expect(errors[1].message.hasPrefix("a LineString needs two or more positions"))
        let converted = try CLI.run([input, "-", "--to", "geojson"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(
            converted.stdout.contains("[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"), "closed on writing: \(converted.stdout)")
        #expect(
            converted.stderr.contains("[geojson.unclosed-ring]") && converted.stderr.contains("[geojson.short-line]"))
    }

    @Test("Whitespace before <?xml is named as such, at 1:1, not as libxml2's 'declaration allowed only at the start'")
    func whitespaceBeforeDeclaration() throws {
        // problems on standard output
        let result = try CLI.run(["validate", Fixtures.testdata("findings/space-before-declaration.kml")])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "space-before-declaration.kml:1:1: error: 3 byte(s) before the XML declaration \"<?xml\""),
            "\(result.stdout)")
    }

    @Test("Polygons inside a GeometryCollection (and in a MultiPolygon member) are rewound to RFC 7946 like the others")
    func collectionWinding() throws {
        let result = try CLI.run([Fixtures.testdata("findings/collection-winding.geojson"), "-", "--to", "geojson"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]]]}"#),
            "\(result.stdout)")
        #expect(
            result.stdout.contains(
                #"[[[0,0],[2,0],[2,2],[0,2],[0,0]],[[0.5,0.5],[0.5,1.5],[1.5,1.5],[1.5,0.5],[0.5,0.5]]]"#),
            "outer counter-clockwise, hole clockwise: \(result.stdout)")
    }

    @Test("Control bytes from the input (ESC, NUL) are escaped in messages")
    func controlBytes() throws {
        let result = try CLI.run([Fixtures.testdata("findings/control-bytes.geojson"), "-", "--to", "kml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"unknown geometry type "Pint\u{1B}[31m\u{0}""#), "\(result.stderr)")
        #expect(!result.stderr.utf8.contains(0x1B) && !result.stderr.utf8.contains(0))
        let diagnostic = Diagnostic(code: "x.y", message: "name \u{1B}]0;title\u{07} \u{9B}", location: nil)
        #expect(diagnostic.description == "warning: name \\u{1B}]0;title\\u{7} \\u{9B} [x.y]")
    }

    @Test("An entity declaration is refused at its line and column")
    func entityColumn() throws {
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(
                .file(Fixtures.testdata("findings/entity-column.kml")), to: .memory,
                options: ConversionOptions(outputFormat: .geoJSON))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.location?.line == 2 && error?.location?.column == 18, "\(String(describing: error))")
    }

    @Test("An empty KML or GPX file is called an empty file")
    func emptyFiles() throws {
        for name in ["empty.kml", "empty.gpx"] {
            let result = try CLI.run([Fixtures.testdata("findings/\(name)"), "-", "--to", "geojson"])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("\(name):1:1: error: empty file: it holds no XML element"), "\(result.stderr)")
        }
    }

    @Test("Warnings about WKB output name WKB")
    func wkbWarnings() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.wkb").path
        let result = try CLI.run(
            ["-", output, "--from", "geojson"],
            stdin: #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("dropped: WKB holds geometries only [wkb.attributes-dropped]"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("WKT") && !result.stderr.contains("wkt."))
    }

    @Test(
        "render --scale is refused for SVG and PDF (drawn in points), with how to go on",
        .enabled(if: BuiltTraits.rendering, "needs the Rendering trait"))
    func scaleForVectors() throws {
        let directory = try Fixtures.temporaryDirectory()
        for ext in ["svg", "pdf"] {
            let result = try CLI.run([
                "render", Fixtures.testdata("findings/collection-winding.geojson"),
                directory.appendingPathComponent("x.\(ext)").path, "--scale", "2",
            ])
            #expect(result.status == 64)
            #expect(
                result.stderr.contains("--scale applies to PNG only: \(ext.uppercased()) is drawn in points"),
                "\(result.stderr)")
        }
    }

    #if Rendering
    @Test("The 100+ and 1000+ cluster labels stay inside their bubble's ring")
    func longClusterLabels() throws {
        let target = Coordinate(latitude: -33.86, longitude: 151.21)
        for (count, color) in [(150, (0xFF, 0x88, 0x00)), (1200, (0x99, 0x33, 0xCC))] {
            let features = (0..<count).map { i in
                Feature(
                    geometry: .point(
                        Coordinate(
                            latitude: target.latitude + Double(i % 30) * 0.00001,
                            longitude: target.longitude + Double(i / 30) * 0.00001)))
            }
            var options = RenderOptions(
                width: 200, height: 200, camera: CameraPosition(target: target, zoom: 14),
                background: Color(red: 255, green: 255, blue: 255)
            )
            options.clustersMarkers = true
            let renderer = try OverlayRenderer(features: features, options: options, diagnostics: DiagnosticLog())
            let image = try renderer.image(features)
            let centre = renderer.projection.point(target)
            let radius = 14 + 2 * Double(String(count < 1000 ? "100+" : "1000+").count)
            var labelPixels = 0
            for dy in stride(from: -0.3 * radius, through: 0.3 * radius, by: 1) {
                let y = Int(centre.y + dy)
                // Between the label's widest extent (0.7 radii) and the ring: bubble colour only.
                for dx in stride(from: 0.76 * radius, through: 0.86 * radius, by: 1) {
                    for x in [Int(centre.x - dx), Int(centre.x + dx)] {
                        let pixel = image.color(x: x, y: y)
                        #expect(
                            pixel.red == color.0 && pixel.green == color.1 && pixel.blue == color.2,
                            "\(count): (\(x), \(y)) \(pixel)")
                    }
                }
                for x in Int(centre.x - 0.6 * radius)...Int(centre.x + 0.6 * radius)
                where image.color(x: x, y: y).blue > 200 { labelPixels += 1 }
            }
            #expect(labelPixels > 20, "\(count): the label is drawn")
        }
    }
    #endif

    @Test(
        "KML tuples joined by commas are read as triples (as LIBKML), a fourth ordinate is dropped with a warning, and a geometry with a bad number is reported at its start"
    )
    func irregularCoordinates() throws {
        let input = Fixtures.testdata("findings/irregular-coordinates.kml")
        let result = try CLI.run([input, "-", "--to", "geojson"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #""coordinates":[[-55.8097,-60.7001,0],[-55.0666,-60.7631,0],[-54.309,-60.9776,10]]"#),
            "\(result.stdout)")
        #expect(result.stdout.contains(#""coordinates":[-122.08,37.42,0]"#))
        #expect(
            result.stderr.contains(
                "irregular-coordinates.kml:4:46: warning: 1 coordinate tuple(s) of 6, 9… numbers joined by commas"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "irregular-coordinates.kml:5:44: warning: 1 coordinate tuple(s) with more than three numbers"))
        #expect(
            result.stderr.contains(
                "irregular-coordinates.kml:6:43: warning: a Polygon is dropped: 'no' in <coordinates> is not a number [kml.invalid-coordinates]"
            ))
        let check = try #require(try ConservationCheck().check(input))
        #expect(check.lostSilently.isEmpty, "\(check.lostSilently)")
    }

    @Test(
        "PolyStyle outline/fill off: read as opacity 0 and reported (the colour's alpha is lost); fill 'true' is the default; a numeric id in geoconv:id is the same id"
    )
    func outlineOff() throws {
        let input = Fixtures.testdata("findings/outline-off.kml")
        let result = try CLI.run([input, "-", "--to", "kml"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "outline-off.kml:4:1: warning: a PolyStyle with <outline>0</outline> is read as an outline of opacity 0: the LineStyle colour's alpha (50) is not kept"
            ),
            "\(result.stderr)")
        #expect(result.stdout.contains("<LineStyle><color>00646464</color>"))
        #expect(result.stdout.contains(#"<Data name="geoconv:id"><value>"1725"</value></Data>"#))
        let check = try #require(try ConservationCheck().check(input))
        #expect(check.lostSilently.isEmpty, "\(check.lostSilently)")
    }

    @Test(
        "Styles, folders and schema fields that cannot be written are reported where they stand; outline 0 is written back as outline 0"
    )
    func styleAndSchemaFindings() throws {
        let input = Fixtures.testdata("findings/style-and-schema-findings.kml")
        let result = try CLI.run([input, "-", "--to", "kml"])
        #expect(result.status == 0)
        for expected in [
            "style-and-schema-findings.kml:4:1: warning: a shared Style without an id is used by no feature and is not written [kml.unused-style-dropped]",
            "style-and-schema-findings.kml:6:30: warning: <color>ff0</color> is not a KML colour (aabbggrr: 8 hexadecimal digits); no colour is applied [kml.invalid-color]",
            ##"style-and-schema-findings.kml:9:1: warning: styleUrl "#list-only" names a Style that holds nothing geoconv keeps; the reference is not written [kml.style-reference-dropped]"##,
            #"style-and-schema-findings.kml:11:9: warning: this Folder and the one before it are both named "layer": they are written as one Folder [kml.folders-merged]"#,
            #"style-and-schema-findings.kml:7:22: warning: the schema field "power" holds no feature's value and is not written (nor its type and display name) [kml.unused-schema-field]"#,
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
        #expect(!result.stderr.contains(#""kind""#), "a field in use is not reported")
        #expect(result.stdout.contains("<PolyStyle><outline>0</outline></PolyStyle>"), "\(result.stdout)")
        let check = try #require(try ConservationCheck().check(input))
        #expect(check.lostSilently.isEmpty && check.reported == 5, "\(check.lostSilently)")
    }

    @Test(
        "What KML elements hold beyond the model is reported where it stands; descriptions keep their XHTML; ExtendedData named like the feature's own elements is kept under another name"
    )
    func kmlLeftovers() throws {
        let input = Fixtures.testdata("findings/kml-leftovers.kml")
        let validated = try CLI.run(["validate", input])
        let lines = validated.stdout.replacingOccurrences(of: Fixtures.testdata("findings") + "/", with: "").split(
            separator: "\n"
        ).map(String.init)
        #expect(
            lines == [
                #"kml-leftovers.kml:4:1: warning: StyleMap "loopA" leads back to itself through StyleMaps; no style comes of it and it is not written"#,
                #"kml-leftovers.kml:5:1: warning: StyleMap "loopB" leads back to itself through StyleMaps; no style comes of it and it is not written"#,
                ##"kml-leftovers.kml:6:1: warning: styleUrl "#loopA" leads into a loop of StyleMaps; the reference is not written"##,
                #"kml-leftovers.kml:7:113: warning: a <Data>/<SimpleData> named "name" would stand for the feature's own <name>; it is kept as "name_2""#,
                "kml-leftovers.kml:7:210: warning: <extra> in a <Data> is not carried over",
                "kml-leftovers.kml:7:283: warning: <until> in a <TimeSpan> is not carried over",
                "kml-leftovers.kml:9:97: warning: <angles> in a geometry is not carried over",
                #"kml-leftovers.kml:10:45: warning: a <Data>/<SimpleData> named "href" would stand for the feature's own <href>; it is kept as "href_2""#,
                "kml-leftovers.kml:10:216: warning: <unknown> in a <Link> is not carried over",
                "kml-leftovers.kml:11:35: warning: an overlay's <Icon> keeps its href only: <viewBoundScale> is not carried over",
            ], "\(validated.stdout)")
        let result = try CLI.run([input, "-", "--to", "kml"])
        #expect(result.status == 0)
        // XHTML in a description, attributes included; a Data "description" without a <description> stays data.
        #expect(
            result.stdout.contains(#"<description><![CDATA[Some<br/><i class="x">HTML</i> content]]></description>"#),
            "\(result.stdout)")
        #expect(result.stdout.contains(#"<SimpleData name="description">a column called description</SimpleData>"#))
        // A one-position track is a point at one time; a GroundOverlay without a box stays one.
        #expect(
            result.stdout.contains(
                "<Placemark><name>run</name><TimeStamp><when>2020-01-01T00:00:00Z</when></TimeStamp>"))
        #expect(
            result.stdout.contains(
                "<GroundOverlay><name>no box</name><Icon><href>map.png</href></Icon></GroundOverlay>"))
        let check = try #require(try ConservationCheck().check(input))
        #expect(check.lostSilently.isEmpty, "\(check.lostSilently)")
    }

    @Test(
        "A Point of [null] (togeojson's address-only placemark) is read as an empty Point with a warning, as GDAL reads it; validate calls it an error; [null, 5] is still refused"
    )
    func nullPosition() throws {
        let text =
            #"{"type":"Feature","properties":{"address":"1 Main St"},"geometry":{"type":"Point","coordinates":[null]}}"#
        let result = try CLI.run(["-", "-", "--from", "geojson", "--to", "geojson"], stdin: text)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""geometry":{"type":"Point","coordinates":[]}"#), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "<stdin>:1:97 (at /geometry/coordinates): warning: a Point whose position holds only null is read as an empty Point"
            ),
            "\(result.stderr)")
        let validated = try CLI.run(["validate", "--from", "geojson", "-"], stdin: text)
        #expect(
            validated.status == 1 && validated.stdout.contains("error: a Point whose position holds only null"),
            "\(validated.stdout)")
        let mixed = try CLI.run(
            ["-", "-", "--from", "geojson", "--to", "wkt"], stdin: #"{"type":"Point","coordinates":[null,5]}"#)
        #expect(
            mixed.status == 1
                && mixed.stderr.contains(
                    "(at /coordinates/0): error: each element of a position must be a number, found null")
        )
    }
}
