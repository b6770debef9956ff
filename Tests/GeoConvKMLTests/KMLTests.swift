import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvKML
import GeoConvTestSupport
import GeoConvXML
import Testing

@Suite("KML reading")
struct KMLReaderTests {
    @Test("Folders, styles, StyleMaps, typed ExtendedData, tracks, overlays and links")
    func trails() throws {
        let (header, features, diagnostics) = try readKML(path: Fixtures.testdata("kml/trails.kml"))
        #expect(diagnostics.isEmpty, "\(diagnostics.summary)")
        #expect(header.name == "Blue Mountains trails" && header.description == "Walks near Katoomba")
        let camera = try #require(header.camera)
        #expect(camera.target == Coordinate(latitude: -33.72, longitude: 150.31))
        #expect(camera.bearing == 15 && camera.viewingAngle == 30)
        #expect(abs(camera.kmlRange - 12000) < 0.01)
        #expect(features.count == 6)

        let walk = features[0]
        #expect(walk.id == .string("three-sisters"))
        #expect(walk.title == "Three Sisters walk")
        #expect(walk.snippet == "<p>Echo Point to <b>Honeymoon Bridge</b></p>")
        #expect(walk.properties[.folder] == ["Walks", "Easy"])
        #expect(walk.properties["surface"] == "paved")
        #expect(walk.properties["length_km"] == .number(JSONNumber(uncheckedLiteral: "1.6")))
        #expect(walk.properties["grade"] == 2)
        #expect(walk.properties["open"] == true)
        #expect(walk.style.strokeColor == .red && walk.style.strokeWidth == 3 && walk.style.geodesic == true)
        #expect(
            walk.geometry
                == .lineString([
                    Coordinate(latitude: -33.7321, longitude: 150.3121, altitude: 980),
                    Coordinate(latitude: -33.7335, longitude: 150.3135, altitude: 960),
                    Coordinate(latitude: -33.7342, longitude: 150.3149, altitude: 915),
                ]))

        let lookout = features[1]
        #expect(lookout.properties[.folder] == ["Walks"])
        #expect(lookout.geometry == .point(Coordinate(latitude: -33.732, longitude: 150.312)))
        #expect(lookout.style.icon == "http://maps.google.com/mapfiles/kml/shapes/camera.png")
        #expect(lookout.style.iconScale == 1.2)
        #expect(lookout.style.groundAnchor == Anchor(x: 0.5, y: 1))
        // The StyleMap's highlight style itself (the shared "trail" style), not a URL that could dangle.
        #expect(lookout.properties[.highlightStyle] == .object(["stroke": "#ff0000", "stroke-width": 3]))

        guard case .polygon(let park)? = features[2].geometry else {
            Issue.record("park is not a polygon")
            return
        }
        #expect(park.holes.count == 1)
        #expect(features[2].style.fillColor == Color(red: 0, green: 255, blue: 0, opacity: 127.0 / 255))
        #expect(features[2].properties[.folder] == nil)

        #expect(
            features[3].properties["coordinateProperties"] == [
                "times": ["2024-05-01T06:00:00Z", "2024-05-01T06:01:00Z"]
            ])
        #expect(features[3].geometry?.coordinateCount == 2)
        #expect(features[4].properties[KMLNames.geometryType] == "networklink")
        #expect(features[4].properties["href"] == "https://example.invalid/weather.kml")
        #expect(features[4].geometry == nil)
        #expect(features[5].properties[KMLNames.geometryType] == "groundoverlay")
        #expect(features[5].geometry?.coordinateCount == 5)
    }

    @Test(
        "Hostile documents are refused with a located error",
        arguments: [
            ("xxe.kml", "declares XML entities", GeoConvError.Code.limitExceeded),
            ("parameter-entity.kml", "declares XML entities", .limitExceeded),
            ("mismatched.kml", "mismatch", .invalidInput),
            ("invalid-utf8.kml", "UTF-8", .invalidInput),
        ])
    func hostile(file: String, message: String, code: GeoConvError.Code) {
        do {
            let read = try readKML(path: Fixtures.testdata("kml/" + file))
            Issue.record("\(file) was read: \(read.features)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.message.localizedCaseInsensitiveContains(message), "\(error.message)")
            #expect(error.location?.line != nil, "\(error)")
            #expect(!error.description.contains("root:"))
        }
    }

    @Test("The billion laughs and deep nesting are refused; huge text nodes too")
    func limits() throws {
        let billion = Fixtures.conformance.appendingPathComponent("kml/libkml/kml/billion.kml").path
        #expect(throws: GeoConvError.self) { _ = try readKML(path: billion) }
        let directory = try Fixtures.temporaryDirectory()
        let deep = directory.appendingPathComponent("deep.kml")
        try
            ("<kml>" + String(repeating: "<Folder>", count: 300) + String(repeating: "</Folder>", count: 300) + "</kml>")
            .write(to: deep, atomically: false, encoding: .utf8)
        do {
            _ = try readKML(path: deep.path)
            Issue.record("300 nested folders were read")
        } catch {
            #expect(
                error.code == .limitExceeded || error.message.contains("depth") || error.message.contains("deep"),
                "\(error)")
        }
        let huge = directory.appendingPathComponent("huge.kml")
        var text = "<kml><Placemark><LineString><coordinates>"
        text += String(repeating: "150.123456,-33.123456 ", count: 520_000)
        text += "</coordinates></LineString></Placemark></kml>"
        try text.write(to: huge, atomically: false, encoding: .utf8)
        #expect(throws: GeoConvError.self) { _ = try readKML(path: huge.path) }
    }

    @Test("Invalid coordinates drop that geometry with a warning; the placemark stays")
    func invalidCoordinates() throws {
        let bad = Fixtures.conformance.appendingPathComponent("kml/togeojson/bad.kml").path
        let (_, features, diagnostics) = try readKML(path: bad)
        #expect(features.count == 3)
        #expect(diagnostics.entries["kml.invalid-coordinates"] != nil)
    }

    @Test("A StyleMap loop does not hang or crash")
    func styleLoop() throws {
        let nesting = Fixtures.conformance.appendingPathComponent("kml/libkml/style/nesting.kml").path
        let (_, features, diagnostics) = try readKML(path: nesting)
        #expect(features.count == 2)
        #expect(diagnostics.entries["kml.style-loop"] != nil)
    }
}

@Suite("KML writing and round trips")
struct KMLWriterTests {
    @Test("Valid KML 2.2: namespace, shared deduplicated styles, typed schema, folders, CDATA")
    func document() throws {
        let (_, features, _) = try readKML(path: Fixtures.testdata("kml/trails.kml"))
        let duplicate = features[0]
        let (text, _) = try writeKML(features + [duplicate], header: DocumentHeader(name: "A & B <test>"))
        #expect(
            text.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">"
            ))
        #expect(text.contains("<name>A &amp; B &lt;test&gt;</name>"))
        #expect(text.components(separatedBy: "<Style id=\"trail\">").count == 2)  // written once, used twice
        // Used by two placemarks, and as the highlight of the lookout's StyleMap.
        #expect(text.components(separatedBy: "<styleUrl>#trail</styleUrl>").count == 4)
        #expect(text.contains("<Pair><key>highlight</key><styleUrl>#trail</styleUrl></Pair></StyleMap>"))
        #expect(text.contains("<SimpleField name=\"grade\" type=\"int\"/>"))
        #expect(text.contains("<Folder><name>Walks</name>\n<Folder><name>Easy</name>"))
        #expect(text.contains("<description><![CDATA[<p>Echo Point to <b>Honeymoon Bridge</b></p>]]></description>"))
        #expect(text.contains("<gx:Track>"))
        #expect(try readKML(text: text).count == features.count + 1)  // well-formed: libxml2 reads it back
    }

    @Test("A zip bomb is refused", .enabled(if: Tools.python != nil))
    func zipBomb() throws {
        let directory = try Fixtures.temporaryDirectory()
        let bomb = directory.appendingPathComponent("bomb.kmz").path
        let script = """
            import zipfile
            with zipfile.ZipFile('\(bomb)', 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('doc.kml', '<kml>' + ' ' * (64 * 1024 * 1024) + '</kml>')
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Tools.python))
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        do {
            _ = try readKML(path: bomb)
            Issue.record("the zip bomb was read")
        } catch {
            #expect(error.code == .limitExceeded, "\(error)")
            #expect(error.message.contains("zip bomb"))
        }
    }

    @Test(
        "Diagnostics sit at the element's own line and column, in a minified one-line KML too, with comments, CDATA and quoted '>' stepped over"
    )
    func elementPositions() throws {
        let kml =
            #"<?xml version="1.0"?><!-- a <comment> --><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name><![CDATA[a <b> c]]></name><description title="x > y">d</description><Point><coordinates>1,2</coordinates></Point></Placemark><Placemark><Point><coordinates>1,north</coordinates></Point></Placemark></Document></kml>"#
        let log = DiagnosticLog()
        var reader = try KMLReader(try ByteReader(.memory(Array(kml.utf8), name: "one.kml")), diagnostics: log)
        _ = try reader.readHeader()
        var places: [String] = []
        while try reader.next() != nil {
            places.append(reader.lastLocation.map { "\($0.line ?? 0):\($0.column ?? 0)" } ?? "")
        }
        let second = try #require(kml.range(of: "<Placemark><Point><coordinates>1,north"))
        let column =
            kml.utf8.distance(
                from: kml.utf8.startIndex, to: second.lowerBound.samePosition(in: kml.utf8) ?? kml.utf8.startIndex) + 1
        #expect(places == ["1:96", "1:\(column)"], "\(places)")
        let warning = try #require(log.entries["kml.invalid-coordinates"])
        // At the dropped geometry's start (everything in it is dropped), after "<Placemark>".
        #expect(
            warning.first.location?.line == 1 && warning.first.location?.column == column + 11,
            "at <Point>: \(String(describing: warning.first.location))")
    }
}

extension KMLReaderTests {
    @Test("SimpleData is typed by the schema its SchemaData names, as schemas and field orders alternate")
    func schemaDataTypes() throws {
        func placemark(_ url: String, _ data: [(String, String)]) -> String {
            "<Placemark><ExtendedData><SchemaData schemaUrl=\"\(url)\">"
                + data.map { "<SimpleData name=\"\($0.0)\">\($0.1)</SimpleData>" }.joined()
                + "</SchemaData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>"
        }
        let text = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Schema id="a"><SimpleField name="n" type="int"/><SimpleField name="ok" type="bool"/></Schema>
            <Schema id="b"><SimpleField name="n" type="string"/><SimpleField name="ok" type="int"/></Schema>
            \(placemark("#a", [("n", "7"), ("ok", "1")]))
            \(placemark("#a", [("n", "8"), ("ok", "0")]))
            \(placemark("#b", [("n", "9"), ("ok", "1")]))
            \(placemark("#a", [("ok", "true"), ("n", "10")]))
            \(placemark(" #b ", [("ok", "2"), ("n", "11")]))
            \(placemark("#a", [("n", "12"), ("extra", "x"), ("ok", "false")]))
            <Schema id="c"><SimpleField name="n" type="double"/></Schema>
            \(placemark("#c", [("n", "1.5")]))
            </Document></kml>
            """
        let features = try readKML(text: text)
        let values = features.map { feature in
            feature.properties.map { "\($0.key)=\(JSONText.string($0.value))" }.joined(separator: " ")
        }
        #expect(
            values == [
                "n=7 ok=true", "n=8 ok=false", #"n="9" ok=1"#, "ok=true n=10", #"ok=2 n="11""#,
                #"n=12 extra="x" ok=false"#, "n=1.5",
            ])
    }
}

extension KMLReaderTests {
    @Test("A feature's children go where the feature table sends them: aliases' fields, overlays' parts")
    func featureElementTable() throws {
        let text = """
            <kml xmlns="http://earth.google.com/kml/2.1"><Document>
            <Schema name="TrailHead" parent="Placemark"><SimpleField name="difficulty" type="int"/>\
            <SimpleField name="Point" type="string"/></Schema>
            <TrailHead><name>Mt Tam</name><difficulty>3</difficulty><Point>north</Point>\
            <LineString><coordinates>1,2 3,4</coordinates></LineString></TrailHead>
            <Placemark><name>p</name><Icon><href>a.png</href></Icon><drawOrder>2</drawOrder>\
            <Point><coordinates>1,2</coordinates></Point></Placemark>
            <GroundOverlay><name>g</name><Icon><href>map.png</href><refreshMode>onChange</refreshMode></Icon>\
            <drawOrder>2</drawOrder><color>7fffffff</color>\
            <LatLonBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonBox></GroundOverlay>
            </Document></kml>
            """
        let log = DiagnosticLog()
        log.listsEveryWarning = true
        var reader = try KMLReader(try ByteReader(.memory(Array(text.utf8), name: "t.kml")), diagnostics: log)
        var features: [Feature] = []
        while let feature = try reader.next() { features.append(feature) }
        try #require(features.count == 3)
        // A Schema's field named like a geometry is the field: the alias's geometry is the LineString.
        #expect(features[0].title == "Mt Tam")
        #expect(features[0].properties["difficulty"] == 3 && features[0].properties["Point"] == "north")
        #expect(
            features[0].geometry
                == .lineString([Coordinate(latitude: 2, longitude: 1), Coordinate(latitude: 4, longitude: 3)]))
        // A Placemark's <Icon> and <drawOrder> are an overlay's: dropped, each with its own message.
        #expect(features[1].properties.isEmpty)
        #expect(features[1].geometry == .point(Coordinate(latitude: 2, longitude: 1)))
        // An overlay keeps its icon's href, its numbers as numbers and its colour as text.
        #expect(features[2].properties["icon"] == "map.png" && features[2].properties["drawOrder"] == 2)
        #expect(features[2].properties["color"] == "7fffffff")
        #expect(features[2].geometry?.coordinateCount == 5)
        #expect(
            log.everyWarning.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" } == [
                "4:26 <Icon> is not carried over",
                "4:57 a Placemark's <drawOrder> is not carried over (it belongs to overlays)",
                "5:30 an overlay's <Icon> keeps its href only: <refreshMode> is not carried over",
            ])
    }
}

@Suite("KML records writers (--jobs)")
struct KMLRecordsWriterTests {
    @Test("A records writer names at once the styles the writer gave ids, before it was made and after")
    func knownStylesNamedHere() throws {
        func point(_ colour: Color) -> Feature {
            var feature = Feature(geometry: .point(Coordinate(latitude: 1, longitude: 2)))
            feature.style.markerColor = colour
            return feature
        }
        var writer = KMLWriter(try ByteWriter(.memory), diagnostics: DiagnosticLog())
        try writer.begin(DocumentHeader())
        try writer.write(point(.red))  // s1, given before any records writer exists
        let records = try #require(writer.selectiveRecordsWriter())
        try writer.write(point(.blue))  // s2, given after
        #expect(records.writeRecord(point(.red)))
        #expect(records.writeRecord(point(.blue)))
        // No id yet: its place is left to the writer.
        #expect(records.writeRecord(point(Color(red: 0, green: 128, blue: 0))))
        let text = String(decoding: records.takeRecords().bytes, as: UTF8.self)
        let named = text.components(separatedBy: "<styleUrl>").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(named == ["#s1", "#s2"], "\(text)")
    }
}

extension KMLRecordsWriterTests {
    /// Placemarks with a style and nothing else the general path handles are written by the
    /// fast one: their bytes, pinned (the general path's before the fast one took them, the
    /// KML schema's order: Data before SchemaData), with a numeric id kept in ExtendedData.
    @Test("Styled placemarks with data, a numeric id or no geometry: their bytes")
    func styledPlacemarkBytes() throws {
        var first = Feature(geometry: .point(Coordinate(latitude: 1, longitude: 2)), properties: ["n": 1])
        first.id = .number(JSONNumber(7))
        first.style.markerColor = .red
        var second = Feature(geometry: nil, properties: ["n": 2])
        second.style.markerColor = .red
        let (text, diagnostics) = try writeKML([first, second])
        let placemarks = text.split(separator: "\n").filter { $0.hasPrefix("<Placemark>") }.map(String.init)
        let expected: [String] = [
            "<Placemark><styleUrl>#s1</styleUrl><ExtendedData><Data name=\"geoconv:id\"><value>7</value></Data>"
                + "<SchemaData schemaUrl=\"#geoconv-schema\"><SimpleData name=\"n\">1</SimpleData></SchemaData>"
                + "</ExtendedData><Point><coordinates>2,1</coordinates></Point></Placemark>",
            "<Placemark><styleUrl>#s1</styleUrl><ExtendedData><SchemaData schemaUrl=\"#geoconv-schema\">"
                + "<SimpleData name=\"n\">2</SimpleData></SchemaData></ExtendedData></Placemark>",
        ]
        #expect(placemarks == expected, "\(text)")
        #expect(text.contains("<Style id=\"s1\"><IconStyle><color>ff0000ff</color></IconStyle></Style>"))
        #expect(diagnostics.isEmpty, "\(diagnostics.summary)")
    }
}
