import Foundation
import GeoConv
import GeoConvTestSupport
import GeoConvXML
import Testing

/// KML and KMZ through the converter: to and from the other formats, info, the registry
@Suite("KML and KMZ through the converter: to and from the other formats, info, the registry")
struct KMLConversionTests {
    @Test("KMZ: doc.kml is the first entry; reading it back gives the same features")
    func kmz() throws {
        let directory = try Fixtures.temporaryDirectory()
        let kmz = directory.appendingPathComponent("trails.kmz").path
        let report = try Converter().convert(.file(Fixtures.testdata("kml/trails.kml")), to: .file(kmz))
        #expect(report.statistics.featuresWritten == 6)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: kmz))
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(bytes[30..<37] == Data("doc.kml".utf8))  // the first local header's file name
        let (_, features, _) = try readKML(path: kmz)
        let (_, original, _) = try readKML(path: Fixtures.testdata("kml/trails.kml"))
        #expect(features.count == original.count && features.map(\.title) == original.map(\.title))
        let noKML = Fixtures.conformance.appendingPathComponent("kml/libkml/kmz/nokml.kmz").path
        #expect(throws: GeoConvError.self) { _ = try readKML(path: noKML) }
    }

    @Test(
        "A KMZ's images go into a KMZ; any other output drops them with one warning naming the formats that keep them")
    func embeddedFiles() throws {
        let input = InputSource.file(Fixtures.testdata("kml/icon.kmz"))
        let kmz = try Converter().convert(input, to: .memory, options: ConversionOptions(outputFormat: .kmz))
        #expect(kmz.diagnostics.entries["embedded-files-dropped"] == nil)
        let archive = String(decoding: kmz.output, as: UTF8.self)
        #expect(archive.contains("files/pin.png"), "the image is an entry of the new archive")
        for output in [FileFormat.kml, .geoJSON, .gpx] {
            let report = try Converter().convert(input, to: .memory, options: ConversionOptions(outputFormat: output))
            let dropped = try #require(report.diagnostics.entries["embedded-files-dropped"], "\(output.name)")
            #expect(dropped.count == 1)
            #expect(
                dropped.first.message.hasPrefix(
                    "1 file(s) carried inside the input (files/pin.png) are not written: \(output.name) cannot hold them"
                ))
            let refused = #expect(throws: GeoConvError.self) {
                _ = try Converter().convert(
                    input, to: .memory, options: ConversionOptions(outputFormat: output, strict: true))
            }
            #expect(refused?.code == .dataLoss)
            #expect(refused?.hint == "write kmz to keep them, or unzip the input next to the output", "\(output.name)")
        }
        let info = try Converter().inspect(input)
        #expect(info.losses["kml"]?.contains { $0.contains("[embedded-files-dropped]") } == true)
        #expect(info.losses["geojson"]?.contains { $0.contains("[embedded-files-dropped]") } == true)
    }

    @Test("--strict and coordinates that are not numbers: a data loss at the geometry, with the warning's own hint")
    func strictInvalidCoordinates() throws {
        let text =
            #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>1,x</coordinates>"#
            + "</Point></Placemark></kml>\n"
        let input = InputSource.memory(Array(text.utf8), name: "bad.kml")
        let refused = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(
                input, to: .memory, options: ConversionOptions(outputFormat: .geoJSON, strict: true))
        }
        #expect(refused?.code == .dataLoss)  // (was refused as XML that is not well-formed)
        #expect(refused?.message.hasPrefix("a Point is dropped: 'x' in <coordinates> is not a number") == true)
        #expect(refused?.location?.line == 1)
        #expect(refused?.location?.column == 56)
        #expect(refused?.hint == "fix the <coordinates>; the placemark is kept without this geometry")
    }

    @Test("What is said about a KMZ's KML is placed in the archive's entry, not in the temporary file it is read from")
    func kmzPlaces() throws {
        let path = Fixtures.conformance.appendingPathComponent("kml/libkml/style/remote-styleurl.kmz").path
        let report = try Converter().convert(
            .file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
        let external = try #require(report.diagnostics.entries["kml.external-style"]?.first.location)
        #expect(external.file == path + "/doc.kml", "\(external)")
        #expect(external.line == 6 && external.column == 5)
    }

    @Test("A track's per-point values besides its times are written as its gx:SimpleArrayData and read back")
    func trackPerPointValues() throws {
        let line =
            #"{"type":"Feature","properties":{"coordinateProperties":{"times":["2026-05-02T08:00:00Z","2026-05-02T08:20:00Z"],"hr":[98,131]}},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}"#
        let kml = try Converter().convert(
            .memory(Array(line.utf8), name: "in"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml))
        let text = String(decoding: kml.output, as: UTF8.self)
        #expect(text.contains("<gx:Track>") && text.contains("<when>2026-05-02T08:20:00Z</when>"), "\(text)")
        #expect(text.contains(#"<gx:SimpleArrayField name="hr" type="int"/>"#), "\(text)")
        #expect(
            text.contains(
                #"<gx:SimpleArrayData name="hr"><gx:value>98</gx:value><gx:value>131</gx:value></gx:SimpleArrayData>"#),
            "\(text)")
        #expect(!text.contains("coordinateProperties"), "\(text)")
        let back = try Converter().convert(
            .memory(kml.output, name: "out.kml"), to: .memory,
            options: ConversionOptions(inputFormat: .kml, outputFormat: .geoJSONSequence))
        let json = String(decoding: back.output, as: UTF8.self)
        #expect(
            json.contains(
                #""coordinateProperties":{"hr":[98,131],"times":["2026-05-02T08:00:00Z","2026-05-02T08:20:00Z"]}"#),
            "\(json)")
    }

    @Test("A truncated KML says so (by libxml2's error code, not its wording); extra content after the root does not")
    func truncatedDocument() throws {
        let truncated =
            "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document><Placemark><name>a</name>\n<Point><coordinates>1,2</coordinates></Point></Placemark>\n<Placemark><name>b"
        #expect {
            _ = try Converter().convert(
                .memory(Array(truncated.utf8), name: "t.kml"), to: .memory,
                options: ConversionOptions(outputFormat: .geoJSON))
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            // libxml2's own error comes with it, code included.
            let cause = error.underlyingError as? XMLParseError
            return error.code == .invalidInput && error.message.hasSuffix("the file is truncated")
                && error.location?.line == 3
                && cause?.libxmlCode != nil && cause?.line == 3
        }
        // Error codes are an open set: a caller's own code compares and prints like geoconv's.
        let custom = GeoConvError.Code(rawValue: "tile-server-down")
        #expect(
            custom != .io && GeoConvError(custom, "x") != GeoConvError(.io, "x")
                && custom.description == "tile-server-down")
        let extra = #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document></Document></kml><x/>"#
        #expect {
            _ = try Converter().convert(
                .memory(Array(extra.utf8), name: "e.kml"), to: .memory,
                options: ConversionOptions(outputFormat: .geoJSON))
        } throws: { error in
            guard let error = error as? GeoConvError else { return false }
            return error.code == .invalidInput && error.message.contains("Extra content")
                && error.location?.column == 72
        }
    }

    @Test("A SimpleField with a displayName keeps its type (it was read as a string)")
    func typedFieldWithDisplayName() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Schema name="s" id="s"><SimpleField type="int" name="lanes"><displayName>Lanes</displayName></SimpleField></Schema>
            <Placemark><ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="lanes">4</SimpleData></SchemaData></ExtendedData>
            <Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>
            """
        let report = try Converter().convert(
            .memory(Array(kml.utf8), name: "s.kml"), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSONSequence))
        let text = String(decoding: report.output, as: UTF8.self)
        #expect(text.contains(#""lanes":4"#) && text.contains(#""geoconv:display-names":{"lanes":"Lanes"}"#), "\(text)")
    }

    @Test(
        "A circle in KML is drawn as its geodesic polygon with its centre and radius as data, and read back as the circle; --circles point keeps the point form"
    )
    func circlesDrawn() throws {
        let circle =
            #"{"type":"Feature","properties":{"name":"Zone","geoconv:radius":1000},"geometry":{"type":"Point","coordinates":[151.2,-33.86]}}"#
        let kml = try Converter().convert(
            .memory(Array(circle.utf8), name: "c.geojson"), to: .memory,
            options: ConversionOptions(outputFormat: .kml))
        let text = String(decoding: kml.output, as: UTF8.self)
        #expect(
            text.contains("<Polygon><outerBoundaryIs><LinearRing><coordinates>151.2,-33.85098")
                && !text.contains("<Point>"), "\(text)")
        #expect(text.contains(#"<Data name="geoconv:circle-center"><value>[151.2,-33.86]</value></Data>"#))
        #expect(
            kml.diagnostics.entries["circle.drawn-as-polygon"]?.first.isNote == true
                && kml.diagnostics.entries["kml.circle-as-point"] == nil)
        let features = try readKML(text: text)
        #expect(
            features.first?.geometry == .circle(center: Coordinate(latitude: -33.86, longitude: 151.2), radius: 1000))
        #expect(features.first?.properties["geoconv:circle-center"] == nil)

        var point = ConversionOptions(outputFormat: .kml)
        point.circles = .point
        let old = try Converter().convert(.memory(Array(circle.utf8), name: "c.geojson"), to: .memory, options: point)
        #expect(
            String(decoding: old.output, as: UTF8.self).contains(
                "<Point><coordinates>151.2,-33.86</coordinates></Point>"))
        #expect(old.diagnostics.entries["kml.circle-as-point"] != nil)
    }

    @Test("A gx:LatLonQuad ground overlay reads as the polygon of its corners and is written back")
    func latLonQuad() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><GroundOverlay><name>Scan</name>
            <Icon><href>scan.png</href></Icon>
            <gx:LatLonQuad><coordinates>81.60,44.16 83.52,43.66 82.94,44.24 81.61,44.35</coordinates></gx:LatLonQuad>
            </GroundOverlay></kml>
            """
        let features = try readKML(text: kml)
        #expect(
            features.first?.geometry
                == .polygon(
                    PolygonRings(
                        outer: Path([
                            Coordinate(latitude: 44.16, longitude: 81.60),
                            Coordinate(latitude: 43.66, longitude: 83.52),
                            Coordinate(latitude: 44.24, longitude: 82.94),
                            Coordinate(latitude: 44.35, longitude: 81.61),
                            Coordinate(latitude: 44.16, longitude: 81.60),
                        ]))))
        let back = try Converter().convert(
            .memory(Array(kml.utf8), name: "q.kml"), to: .memory, options: ConversionOptions(outputFormat: .kml))
        let text = String(decoding: back.output, as: UTF8.self)
        #expect(
            text.contains("<GroundOverlay><name>Scan</name>") && text.contains("<Icon><href>scan.png</href></Icon>"),
            "\(text)")
        #expect(
            text.contains(
                "<gx:LatLonQuad><coordinates>81.6,44.16 83.52,43.66 82.94,44.24 81.61,44.35</coordinates></gx:LatLonQuad>"
            ))
        #expect(
            XMLSchemaValidation.errors(in: back.output, schema: XMLSchemaValidation.kmlSchema).isEmpty
                || !XMLSchemaValidation.hasKMLSchema)
        let geojson = try Converter().convert(
            .memory(Array(kml.utf8), name: "q.kml"), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSON))
        let again = try Converter().convert(
            .memory(geojson.output, name: "q.geojson"), to: .memory, options: ConversionOptions(outputFormat: .kml))
        #expect(String(decoding: again.output, as: UTF8.self).contains("<gx:LatLonQuad>"), "through GeoJSON too")
    }

    @Test(
        "A KMZ super-overlay: NetworkLinks to KML files inside the archive are followed, in folders named after the links; remote links stay as data; a cycle is reported"
    )
    func superOverlay() throws {
        let report = try Converter().convert(
            .file(Fixtures.testdata("kml/superoverlay.kmz")), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSONSequence))
        let lines = String(decoding: report.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[1].contains(#""geoconv:folder":["Tile 0","Z1"],"name":"Tile 0 line""#), "\(lines[1])")
        #expect(lines[2].contains(#""geoconv:folder":["Tile 0","Z1","Tile 1"],"name":"Deep point""#), "\(lines[2])")
        #expect(
            lines[3].contains(#""href":"../0.kml""#) && lines[4].contains(#""href":"http://example.com/remote.kml""#))
        #expect(report.diagnostics.entries["kmz.network-link-followed"]?.count == 2)
        let cycle = try #require(report.diagnostics.entries["kmz.network-link-cycle"])
        #expect(
            cycle.first.location?.file?.hasSuffix("superoverlay.kmz/tiles/sub/1.kml") == true
                && cycle.first.location?.line == 4)
        #expect(
            report.diagnostics.entries["embedded-files-dropped"] == nil, "the linked KML files were read, not dropped")
        // The followed link's Region and refresh mode have no place once its features stand in for it.
        let parts = try #require(report.diagnostics.entries["kmz.network-link-parts-dropped"])
        #expect(parts.first.message.contains("geoconv:region, viewRefreshMode"), "\(parts.first.message)")
        #expect(!parts.first.isNote && parts.first.location?.line == 4)
    }

    @Test("KML → GeoJSON → KML keeps geometry, names, descriptions, ExtendedData, folders and styles")
    func kmlRoundTrip() throws {
        let (header, original, _) = try readKML(path: Fixtures.testdata("kml/trails.kml"))
        let geojson = try FormatIO.write(original, header: header, as: .geoJSON).bytes
        let (viaHeader, via, _) = try FormatIO.read(bytes: geojson, as: .geoJSON)
        let (kml, _) = try writeKML(via, header: viaHeader)
        let back = try readKML(text: kml)
        #expect(back.count == original.count)
        for (a, b) in zip(original, back) {
            #expect(sameShape(a.geometry, b.geometry), "\(a.title ?? "")")
            #expect(a.title == b.title && a.snippet == b.snippet && a.id == b.id)
            #expect(a.style == b.style, "\(a.title ?? ""): \(a.style) vs \(b.style)")
            for (key, value) in a.properties where key != "styleUrl" {
                #expect(b.properties[key] == value, "\(a.title ?? ""): \(key)")
            }
        }
    }

    @Test("GeoJSON → KML → GeoJSON keeps features, properties and simplestyle styles")
    func geoJSONRoundTrip() throws {
        let (header, original, _) = try FormatIO.read(
            try ByteReader(.file(Fixtures.testdata("geojson/faithful.geojson"))), as: .geoJSON)
        let (kml, diagnostics) = try writeKML(original, header: header)
        #expect(diagnostics.entries["kml.control-characters-dropped"] != nil)  // the U+0000 in "emoji"
        #expect(diagnostics.entries["kml.null-dropped"] == nil)
        let back = try readKML(text: kml)
        #expect(back.count == original.count)
        for (a, b) in zip(original, back) {
            #expect(sameShape(a.geometry, b.geometry))
            #expect(a.id == b.id)
            #expect(a.title == b.title && a.snippet == b.snippet)
            #expect(
                a.style == b.style || a.style.strokeColor?.opacity != b.style.strokeColor?.opacity,
                "\(a.style) vs \(b.style)")
            for (key, value) in a.properties
            where !StyleProperties.names.contains(key)
                || [
                    "marker-symbol", "marker-size", "geoconv:spans", "geoconv:info-window-anchor", "geoconv:opacity",
                    "geoconv:z-index",
                ].contains(key)
            {
                if key == "emoji" || key == "tags" { continue }  // U+0000 dropped; JSON text read back as a string
                if key == ModelKey.radius.name { continue }
                if case .number(let n) = value, key == "osm_id" || key == "length_km" {
                    // Beyond what a KML int or double holds exactly: a string field with every digit, and a warning.
                    #expect(b.properties[key] == .string(n.literal), "\(key)")
                    #expect(diagnostics.entries["kml.number-as-text"]?.first.isNote == false)
                    continue
                }
                #expect(
                    StyleProperties.sameValue(b.properties[key] ?? .null, value),
                    "\(key): \(value) vs \(String(describing: b.properties[key]))")
            }
        }
        // Opacity is an 8-bit alpha in KML: 0.75 comes back as 191/255.
        #expect(abs((back[0].style.strokeColor?.opacity ?? 0) - 0.75) < 1.0 / 255)
    }

    @Test(
        "A number's SimpleField type holds it exactly: int (32-bit), double (±2^53; decimals that are a double's shortest form), else string",
        arguments: [
            ("0", "int"), ("-0", "int"), ("2147483647", "int"), ("2147483648", "double"), ("-2147483648", "int"),
            ("-2147483649", "double"), ("9007199254740992", "double"), ("-9007199254740992", "double"),
            ("9007199254740993", "string"), ("9223372036854775807", "string"), ("-9223372036854775808", "string"),
            ("9223372036854775808", "string"), ("100000000000000000000", "double"), ("1.5", "double"),
            ("-0.0", "double"),
            ("0.1234567890123456", "double"), ("123456789012345.0", "double"), ("0.000000000000000000001", "double"),
            ("0.3333333333333333", "double"), ("1234.5678901234567", "double"), ("0.33333333333333331", "string"),
            ("1E+2", "double"), ("1e-400", "string"), ("2.5e-310", "string"), ("-1.5e308", "double"),
            ("-1.7976931348623157e308", "double"),
        ])
    func numberSchemaTypes(literal: String, type: String) throws {
        let text = #"{"type":"Feature","properties":{"n":\#(literal)},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let (_, features, _) = try FormatIO.read(text, as: .geoJSON)
        let (kml, diagnostics) = try writeKML(features)
        #expect(kml.contains(#"<SimpleField name="n" type="\#(type)"/>"#), "\(literal): \(kml)")
        #expect(kml.contains("<SimpleData name=\"n\">\(literal)</SimpleData>"))  // every digit kept
        #expect((diagnostics.entries["kml.number-as-text"] != nil) == (type == "string"))
    }
}
