import Foundation
import GeoConv
import GeoConvTestSupport
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
            _ = try Converter().convert(
                .memory(Array(#"{"type":"Feature","properties":{"x":1e999},"geometry":null}"#.utf8), name: "x.geojson"),
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
        #expect(
            check.lostSilently.isEmpty && check.read == 11 && check.carried + check.reported == 11,
            "\(check.lostSilently)")
    }

    @Test(
        "render, tiles and tiles render refuse a line to longitude 1e15 at once, with the --s-srs hint",
        arguments: [
            ["render", "far.png"], ["render", "far.svg"], ["tiles", "--zoom", "3"],
            ["tiles", "render", "far", "--zoom", "0-2"], ["camera", "--viewport", "390x844"],
        ])
    func farLongitudeIsRefused(command: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.testdata("render/far-longitude.wkt")
        var arguments =
            command.count > 1 && command[0] == "tiles" && command[1] == "render"
            ? ["tiles", "render", input] : [command[0], input]
        arguments += command.dropFirst(command[0] == "tiles" && command.count > 1 && command[1] == "render" ? 2 : 1).map
        {
            $0.hasPrefix("far") ? directory.appendingPathComponent($0).path : $0
        }
        let result = try CLI.run(arguments)
        let draws = command[0] == "render" || command.prefix(2) == ["tiles", "render"]
        if draws && !BuiltTraits.rendering {
            // Built without the Rendering trait there is no such command.
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            return
        }
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("feature 0:") && result.stderr.contains("--s-srs"), "\(result.stderr)")
    }
}

/// Styles as Google Earth reads them: defined anywhere in the document.
@Suite struct KMLStyleFindingsTests {
    @Test("Styles defined after the placemarks that use them are applied, through StyleMaps too")
    func forwardStyles() throws {
        let path = Fixtures.testdata("kml/forward-styles.kml")
        let (_, features, diagnostics) = try readKML(path: path)
        try #require(features.count == 2)
        #expect(features[0].style.strokeColor?.cssHex == "#ff0000")
        #expect(features[0].style.strokeWidth == 4)
        #expect(features[1].style.icon == "https://maps.google.com/mapfiles/kml/shapes/cabin.png")
        #expect(features[1].style.iconScale == 1.5)
        #expect(diagnostics.entries["kml.style-unresolved"] == nil)
        // What is not carried is reported at its place: the unused style, the ListStyle part.
        let unused = try #require(diagnostics.entries["kml.unused-style-dropped"])
        #expect(unused.count == 1)
        #expect(unused.first.message.contains("\"nobody\""))
        #expect(unused.first.location?.line == 25 && unused.first.location?.column == 3)
        let element = try #require(diagnostics.entries["kml.style-element-dropped"])
        #expect(element.first.message.contains("<listItemType>"))
        #expect(element.first.location?.line == 17)
        // The conservation check finds nothing lost silently.
        let check = try #require(try ConservationCheck().check(path))
        #expect(
            check.lostSilently.isEmpty,
            "\(check.lostSilently.map { "\($0.line):\($0.column) \($0.holder) \($0.text)" })")
    }

    @Test("From standard input the forward style is reported, since the input cannot be read twice")
    func forwardStylesFromStandardInput() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("kml/forward-styles.kml"), encoding: .utf8)
        let result = try CLI.run(["convert", "--from", "kml", "--to", "geojson", "-", "-"], stdin: text)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "<stdin>:5:3: warning: styleUrl \"#trail\" names no Style or StyleMap defined before it, and standard input cannot be read again"
            ),
            "\(result.stderr)")
    }
}

/// Per-point sensor values and empty track parts (Garmin, Strava and glider exports).
@Suite struct TrackFindingsTests {
    @Test("gx:SimpleArrayData is read as per-point values, written back as arrays, and reaches GeoJSON and GPX")
    func sensorArrays() throws {
        let path = Fixtures.testdata("kml/track-arrays.kml")
        let (_, features, diagnostics) = try readKML(path: path)
        try #require(features.count == 2)
        let ride = try #require(features[0].properties["coordinateProperties"]?.objectValue)
        // The empty third <gx:coord> leaves with its time and array values, reported at the track.
        #expect(ride["heartrate"] == [118, 121, 127])
        #expect(ride["temperature"]?.arrayValue?.compactMap(\.doubleValue) == [14.5, 14.25, 14.75])
        #expect(ride["times"] == ["2026-05-01T07:00:00Z", "2026-05-01T07:00:05Z", "2026-05-01T07:00:15Z"])
        let empty = try #require(diagnostics.entries["kml.empty-coord-dropped"])
        #expect(empty.first.location?.line == 11 && empty.first.location?.column == 5)
        #expect(empty.first.message.contains("position 3") && empty.first.message.contains("2026-05-01T07:00:10Z"))
        let laps = try #require(features[1].properties["coordinateProperties"]?.objectValue)
        #expect(laps["heartrate"] == [[100, 104], [140, 142, 145]])
        #expect(features[0].properties["geoconv:display-names"] == ["heartrate": "Heart rate"])

        let directory = try Fixtures.temporaryDirectory()
        let kml = directory.appendingPathComponent("out.kml").path
        let gpx = directory.appendingPathComponent("out.gpx").path
        for output in [kml, gpx] {
            let result = try CLI.run([path, output])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        #expect(
            text.contains(
                #"<gx:SimpleArrayField name="heartrate" type="int"><displayName>Heart rate</displayName></gx:SimpleArrayField>"#
            ))
        #expect(text.contains(#"<gx:SimpleArrayField name="temperature" type="double"/>"#))
        #expect(
            text.contains(
                ##"<gx:coord>7.4485 46.9491 545</gx:coord><ExtendedData><SchemaData schemaUrl="#geoconv-schema"><gx:SimpleArrayData name="heartrate"><gx:value>118</gx:value><gx:value>121</gx:value><gx:value>127</gx:value></gx:SimpleArrayData>"##
            ))
        let (_, again, _) = try readKML(path: kml)
        #expect(
            again.map { $0.properties["coordinateProperties"] }
                == features.map { $0.properties["coordinateProperties"] })
        // GPX: heart rate and temperature as Garmin's TrackPointExtension, in its schema's order.
        let written = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(
            written.contains(
                #"<time>2026-05-01T07:00:05Z</time><extensions><TrackPointExtension xmlns="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><atemp>14.25</atemp><hr>121</hr></TrackPointExtension></extensions>"#
            ),
            "\(written)")
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty && check.reported == 3)
    }

    @Test("An empty <trkseg> is left out with a note; every point keeps its time on the point")
    func emptySegment() throws {
        let path = Fixtures.testdata("gpx/empty-segment.gpx")
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.gpx").path
        let result = try CLI.run([path, output])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "empty-segment.gpx:9:5: note: an empty <trkseg> is left out [gpx.empty-segment-dropped]"),
            "\(result.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains("coordinateProperties"))
        #expect(
            text.contains(
                #"<trkseg><trkpt lat="50.778" lon="6.083"><ele>192</ele><time>2013-07-06T17:40:02Z</time></trkpt></trkseg>"#
            ))
        let strict = try CLI.run([path, output, "--strict"])
        #expect(strict.status == 0, "a note does not fail --strict: \(strict.stderr)")
    }
}

/// GeoJSON simplestyle as people write it.
@Suite struct SimplestyleFindingsTests {
    @Test(
        "CSS colour names, #rgb(a), rgb(), rgba(), hsl() and numbers written as text are honoured",
        arguments: [
            ("steelblue", "#4682b4", 1.0), ("SteelBlue ", "#4682b4", 1.0), ("rebeccapurple", "#663399", 1.0),
            ("rgb(255, 99, 71)", "#ff6347", 1.0), ("rgb(255 99 71 / 50%)", "#ff6347", 0.5),
            ("rgba(255,0,0,0.25)", "#ff0000", 0.25),
            ("rgb(100%, 0%, 50%)", "#ff0080", 1.0), ("hsl(120, 100%, 25%)", "#008000", 1.0),
            ("hsla(0deg 100% 50% / 0.5)", "#ff0000", 0.5),
            ("#0f08", "#00ff00", 8.0 / 15), ("transparent", "#000000", 0.0),
        ])
    func cssColours(text: String, hex: String, opacity: Double) throws {
        let color = try #require(Color(css: text))
        #expect(color.cssHex == hex)
        #expect(abs(color.opacity - opacity) < 1e-9)
    }

    @Test(
        "What is not a colour is refused",
        arguments: ["blurple", "rgb(1,2)", "rgb(a,b,c)", "hsl(120, 100, 25)", "#12345", "rgb(1,2,3", ""])
    func notColours(text: String) {
        #expect(Color(css: text) == nil)
    }

    @Test("A GeoJSON file's CSS styles reach KML; a value that styles nothing is reported at its pointer")
    func cssStylesToKML() throws {
        let path = Fixtures.testdata("geojson/css-styles.geojson")
        let directory = try Fixtures.temporaryDirectory()
        let kml = directory.appendingPathComponent("out.kml").path
        let result = try CLI.run([path, kml])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                #"css-styles.geojson:5:1 (at /features/3/properties/stroke): warning: "stroke": "blurple" is not a value this style property takes"#
            ),
            "\(result.stderr)")
        #expect(result.stderr.contains("[geojson.style-value-unusable] (2 times)"))
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        // steelblue at "0.5", width "3"
        #expect(text.contains("<LineStyle><color>80b48246</color><width>3</width></LineStyle>"))
        #expect(
            text.contains(
                "<LineStyle><color>ff4763ff</color></LineStyle><PolyStyle><color>800000ff</color></PolyStyle>"))
        #expect(
            text.contains(
                "<IconStyle><color>8800ff00</color></IconStyle><PolyStyle><color>ff008000</color></PolyStyle>"))
        // GeoJSON → GeoJSON keeps the values as written.
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty && check.carried == check.read)
    }
}

/// GeoServer's GeoJSON: "crs" after "features".
@Suite struct CRSAfterFeaturesTests {
    @Test(
        "A \"crs\" after \"features\" is read first by a second pass over the file; --s-srs is always obeyed",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func crsAfterFeatures() throws {
        let path = Fixtures.testdata("geojson/crs-after-features.geojson")
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.geojson").path
        let result = try CLI.run([path, output])
        #expect(result.status == 0, "\(result.stderr)")
        let (_, features, _) = try readGeoJSON(try String(contentsOfFile: output, encoding: .utf8))
        guard case .point(let c)? = features.first?.geometry else {
            Issue.record("no point")
            return
        }
        #expect(abs(c.longitude - 3) < 1e-9 && abs(c.latitude - 42) < 1e-5)  // UTM 31N's central meridian, 42° N
        let info = try CLI.run(["info", path])
        #expect(info.stdout.contains("crs: urn:ogc:def:crs:EPSG::32631"), "\(info.stdout)")
        // --s-srs wins over the document's crs, wherever it stands.
        let given = try CLI.run([path, output, "--s-srs", "EPSG:32632"])
        #expect(given.status == 0, "\(given.stderr)")
        let (_, zone32, _) = try readGeoJSON(try String(contentsOfFile: output, encoding: .utf8))
        guard case .point(let moved)? = zone32.first?.geometry else {
            Issue.record("no point")
            return
        }
        #expect(abs(moved.longitude - 9) < 1e-9)  // UTM 32N's central meridian: the document's crs was not used
        let text = try String(contentsOfFile: Fixtures.testdata("geojson/crs-after-features.geojson"), encoding: .utf8)
        // Standard input is copied to a temporary file first and read as the file is (and the copy removed).
        // A private TMPDIR: other tests running at the same time hold copies of their own.
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let tmpdir = ["TMPDIR": temporary.path]
        let piped = try CLI.run(["--from", "geojson", "-", "-", "--to", "geojson"], stdin: text, environment: tmpdir)
        #expect(piped.status == 0, "\(piped.stderr)")
        let (_, fromStdin, _) = try readGeoJSON(piped.stdout)
        #expect(fromStdin.first?.geometry == features.first?.geometry)
        let validated = try CLI.run(["validate", "--from", "geojson", "-"], stdin: text, environment: tmpdir)
        #expect(
            validated.status == 0 && validated.stderr.contains("1 features: valid"),
            "\(validated.stdout)\(validated.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "\(left)")
        let obeyed = try CLI.run(["--from", "geojson", "--s-srs", "EPSG:32631", "-", output], stdin: text)
        #expect(obeyed.status == 0, "\(obeyed.stderr)")
        let (_, again, _) = try readGeoJSON(try String(contentsOfFile: output, encoding: .utf8))
        #expect(again.first?.geometry == features.first?.geometry)
    }
}

/// Network links: content geoconv never fetches, geometry a link cannot hold.
@Suite struct NetworkLinkFindingsTests {
    @Test("A document of nothing but NetworkLinks (My Maps' \"keep up to date\") is reported with the URL")
    func networkLinkOnly() throws {
        let path = Fixtures.testdata("kml/network-link-only.kml")
        let (_, features, diagnostics) = try readKML(path: path)
        #expect(features.count == 1)
        let warning = try #require(diagnostics.entries["kml.network-link-not-fetched"])
        #expect(warning.first.message.contains("https://www.google.com/maps/d/kml?mid=1AbCdEf&forcekml=1"))
        #expect(warning.first.location?.line == 5 && warning.first.location?.column == 3)
        // A link beside placemarks is data like any other: no warning.
        let mixed = try readKML(
            text: """
                <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>
                <NetworkLink><Link><href>https://example.com/more.kml</href></Link></NetworkLink></Document></kml>
                """)
        #expect(mixed.count == 2)
    }

    @Test("A geometry next to a network link is written as a Placemark beside the NetworkLink, reported")
    func networkLinkGeometry() throws {
        let path = Fixtures.testdata("geojson/network-link-polygon.geojson")
        let directory = try Fixtures.temporaryDirectory()
        let kml = directory.appendingPathComponent("out.kml").path
        let result = try CLI.run([path, kml])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "network-link-polygon.geojson:2:1 (at /features/0): warning: a NetworkLink holds no geometry: the feature's Polygon is written as a Placemark of the same name after the link [kml.networklink-geometry-as-placemark]"
            ),
            "\(result.stderr)")
        let (_, features, _) = try readKML(path: kml)
        try #require(features.count == 2)
        #expect(features[0].properties["href"] == "https://example.com/tiles.kml")
        #expect(features[1].title == "Regional tiles")
        guard case .polygon(let rings)? = features[1].geometry else {
            Issue.record("no polygon")
            return
        }
        #expect(rings.outer.coordinates.count == 5 && rings.outer.coordinates[2].latitude == 53.35)
    }

    @Test("An output left with no feature while the input had some says so")
    func emptyOutput() throws {
        struct DropAll: FeatureTransform {
            mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
                []
            }
        }
        let input = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let report = try Converter().convert(
            .memory(Array(input.utf8), name: "one.geojson"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .geoJSON),
            transforms: [DropAll()])
        let warning = try #require(report.diagnostics.entries["output.empty"])
        #expect(warning.first.message == "none of the 1 features read was written: the output holds no feature")
        #expect(warning.first.location?.file == "one.geojson")
    }
}

/// Screen overlays (legends) and what `info` says about them.
@Suite struct ScreenOverlayFindingsTests {
    @Test("A ScreenOverlay is kept KML → KML and KMZ with its screen positions; GeoJSON keeps it as data")
    func screenOverlay() throws {
        let path = Fixtures.testdata("kml/screen-overlay.kml")
        let (_, features, _) = try readKML(path: path)
        try #require(features.count == 2)
        let legend = features[0]
        #expect(legend.title == "Legend" && legend.geometry == nil)
        #expect(legend.properties["@geometry-type"] == "screenoverlay")
        #expect(legend.properties["icon"] == "https://example.com/legend.png")
        let screen = try #require(legend.properties["screenXY"]?.objectValue)
        #expect(screen["x"]?.doubleValue == 10 && screen["y"]?.doubleValue == 0.95)
        #expect(screen["xunits"] == "pixels" && screen["yunits"] == "fraction")
        let directory = try Fixtures.temporaryDirectory()
        for name in ["out.kml", "out.kmz"] {
            let output = directory.appendingPathComponent(name).path
            let result = try CLI.run([path, output])
            #expect(result.status == 0)
            let (_, again, _) = try readKML(path: output)
            #expect(again.first?.properties == legend.properties, "\(name)")
        }
        let text = try String(contentsOfFile: directory.appendingPathComponent("out.kml").path, encoding: .utf8)
        #expect(
            text.contains(
                #"<ScreenOverlay><name>Legend</name><Icon><href>https://example.com/legend.png</href></Icon><overlayXY x="0" y="1" xunits="fraction" yunits="fraction"/><screenXY x="10" y="0.95" xunits="pixels" yunits="fraction"/>"#
            ),
            "\(text)")
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty)
    }

    @Test("info says what a target loses beyond what reading lost, never \"nothing lost\" while a reading loss applies")
    func infoBeyondReading() throws {
        let result = try CLI.run(["info", Fixtures.testdata("kml/screen-overlay.kml")])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains("warning: PhotoOverlay elements are not carried over [kml.photooverlay-dropped]"),
            "\(result.stdout)")
        #expect(result.stdout.contains("to kmz: nothing lost beyond reading"), "\(result.stdout)")
        #expect(!result.stdout.contains("nothing lost\n"))
        let clean = try CLI.run([
            "info",
            Fixtures.testdata("kml/forward-styles.kml").replacingOccurrences(
                of: "forward-styles", with: "bare-polygon"),
        ])
        #expect(clean.stdout.contains("to kmz: nothing lost\n"), "\(clean.stdout)")
    }
}

/// Attributes KML readers usually ignore without a word.
@Suite struct KMLAttributeFindingsTests {
    @Test("Attributes the reader does not read are reported where they stand; a placemark's id is kept")
    func droppedAttributes() throws {
        let path = Fixtures.testdata("kml/attributes.kml")
        let (_, features, diagnostics) = try readKML(path: path)
        try #require(features.count == 1)
        #expect(features[0].id == .string("hut-1"))
        let dropped = try #require(diagnostics.entries["kml.attribute-dropped"])
        // Document@id, Folder@id, Placemark@editor, Point@id; xsi:schemaLocation is not data
        #expect(dropped.count == 4)
        #expect(dropped.first.message == #"the attribute id="root-document" of <Document> is not carried over"#)
        #expect(dropped.first.location?.line == 3 && dropped.first.location?.column == 1)
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty, "\(check.lostSilently.map { "\($0.line):\($0.column) \($0.holder)" })")
        #expect(check.reported == 4)
    }
}

/// KML → KMZ with the icons beside the KML.
@Suite struct KMZPackingFindingsTests {
    @Test("KML → KMZ packs the local files the KML refers to (relative to the input); a missing one is reported")
    func packsLocalFiles() throws {
        let path = Fixtures.testdata("kml/local-icons/map.kml")
        let directory = try Fixtures.temporaryDirectory()
        let kmz = directory.appendingPathComponent("out.kmz").path
        let result = try CLI.run([path, kmz])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(#"map.kml:9:3: warning: "images/missing.png" is not a file beside the input"#),
            "\(result.stderr)")
        #expect(result.stderr.contains("[kmz.local-file-missing]"))
        let (header, features, _) = try readKML(path: kmz)
        #expect(features.count == 4)
        let files = try #require(header.embeddedFiles)
        #expect(files.paths == ["images/hut.png", "overlay.png"])
        let original = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("kml/local-icons/images/hut.png"))))
        #expect(try files.contents(of: "images/hut.png") == original)
        #expect(features[0].style.icon == "images/hut.png")
    }
}

/// The document's view as gpsbabel and Google Earth write it.
@Suite struct DocumentViewFindingsTests {
    @Test("The document's LookAt is written back as read (range, heading, gx:TimeSpan), through GeoJSON too")
    func documentView() throws {
        let path = Fixtures.testdata("kml/document-view.kml")
        let directory = try Fixtures.temporaryDirectory()
        let kml = directory.appendingPathComponent("out.kml").path
        let result = try CLI.run([path, kml])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "document-view.kml:12:5: warning: <horizFov> in a LookAt is not carried over [kml.element-dropped]"),
            "\(result.stderr)")
        let expected =
            "<LookAt><gx:TimeSpan><begin>2001-06-02T00:18:13Z</begin><end>2002-05-25T19:05:57Z</end></gx:TimeSpan>"
            + "<longitude>-71.120925</longitude><latitude>42.439993</latitude><heading>-148.4122922628044</heading>"
            + "<tilt>40.5575073395506</tilt><range>87257.203848</range></LookAt>"
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        #expect(text.contains(expected), "\(text)")
        #expect(text.contains(#"xmlns:gx="http://www.google.com/kml/ext/2.2""#))
        // Through GeoJSON (the view kept as geoconv:view beside geoconv:camera) and back.
        let geojson = try CLI.run([path, "-", "--to", "geojson"])
        let again = try CLI.run(["-", "-", "--from", "geojson", "--to", "kml"], stdin: geojson.stdout)
        #expect(again.stdout.contains(expected), "\(again.stdout)")
        // A camera changed since (fitted to the features) is written from the camera.
        var document = try OverlayDocument.load(.file(path))
        document.header.camera = try document.camera(viewport: (width: 640, height: 480))
        let saved = directory.appendingPathComponent("fitted.kml").path
        try document.save(to: .file(saved))
        #expect(try !String(contentsOfFile: saved, encoding: .utf8).contains("87257.203848"))
        let check = try #require(try ConservationCheck().check(path))
        #expect(check.lostSilently.isEmpty && check.reported == 1)
    }
}

/// GPX parts that used to vanish without a word.
@Suite struct GPXLooseEndsTests {
    @Test("An empty element with attributes after the tracks, and text straight inside <extensions>, are reported")
    func looseEnds() throws {
        let text = """
            <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0" xmlns:topografix="http://www.topografix.com/GPX/Private/TopoGrafix/0/1">
            <wpt lat="1" lon="2"><extensions><aaa>bbb</aaa>hhh</extensions></wpt>
            <topografix:active_point lat="42.210180" lon="-71.096281"/>
            </gpx>
            """
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "loose.gpx"), to: .memory,
            options: ConversionOptions(inputFormat: .gpx, outputFormat: .gpx))
        let late = try #require(report.diagnostics.entries["gpx.late-document-element"])
        #expect(late.first.location?.line == 3 && late.first.message.contains("<active_point>"))
        let loose = try #require(report.diagnostics.entries["gpx.extension-text-dropped"])
        #expect(loose.first.location?.line == 2 && loose.first.message.contains(#""hhh""#))
        #expect(
            String(decoding: report.output, as: UTF8.self).contains(
                #"<extensions><aaa xmlns="http://www.topografix.com/GPX/1/0">bbb</aaa></extensions>"#))
    }
}

/// Styles whose every part is dropped, and StyleMap loops: reported where they are defined.
@Suite struct KMLStyleDefinitionTests {
    @Test("A Style holding nothing geoconv keeps, and a StyleMap loop, are reported at their definitions")
    func reportedAtDefinitions() throws {
        let text = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Style id="folder-icon"><ListStyle><listItemType>check</listItemType></ListStyle></Style>
            <StyleMap id="loop"><Pair><key>normal</key><styleUrl>#loop</styleUrl></Pair></StyleMap>
            <Placemark><styleUrl>#folder-icon</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><styleUrl>#loop</styleUrl><Point><coordinates>3,4</coordinates></Point></Placemark>
            </Document></kml>
            """
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "s.kml"), to: .memory,
            options: ConversionOptions(inputFormat: .kml, outputFormat: .kml))
        let dropped = try #require(report.diagnostics.entries["kml.style-dropped"])
        #expect(
            dropped.first.location?.line == 2 && dropped.first.message.contains(#"Style "folder-icon" holds nothing"#))
        let loop = try #require(report.diagnostics.entries["kml.style-loop"])
        #expect(loop.first.location?.line == 3 && loop.first.location?.column == 1)
    }
}
