import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// The per-feature fast paths (member names matched as bytes, style names told apart by
/// length and first byte, byte-level XML escaping, in-place transforms) give the same
/// results as the general paths they shortcut.
@Suite("Per-feature fast paths")
struct PerFeaturePathTests {
    @Test("NameSet answers exactly like a Set, including names that share a length and first byte")
    func nameSet() {
        let names = ["name", "nose", "stroke", "stroke-width", "s", String(repeating: "x", count: 70)]
        let set = NameSet(names)
        for name in names { #expect(set.contains(name)) }
        for other in [
            "", "nam", "nbme", "names", "Stroke", "stroke-widtH", "t", String(repeating: "x", count: 69),
            String(repeating: "x", count: 71), "näme",
        ] {
            #expect(!set.contains(other), "\(other)")
        }
    }

    @Test("Style names are recognised only exactly; model fields are derived from them and nothing else")
    func styleNames() throws {
        for key in [
            "name", "title", "description", "stroke", "stroke-opacity", "stroke-width", "fill", "fill-opacity",
            "marker-color", "icon-color", "icon-opacity", "marker-symbol", "marker-size", "icon", "icon-scale",
            "icon-heading", "geoconv:geodesic", "geoconv:spans", "geoconv:ground-anchor",
            "geoconv:info-window-anchor", "geoconv:opacity", "geoconv:z-index",
        ] {
            #expect(StyleProperties.isStyleName(key), "\(key)")
            #expect(StyleProperties.names.contains(key))
        }
        for key in ["nane", "Name", "names", "strokes", "fill ", "id", "icon-colour", "geoconv:radius", "marker-colr"] {
            #expect(!StyleProperties.isStyleName(key), "\(key)")
        }
        var feature = Feature(
            geometry: .point(Coordinate(latitude: 1, longitude: 2)),
            properties: [
                "id": 7, "nane": "not a title", "title": "T", "icon-color": "#ff0000",
                "marker-color": 5, "stroke-width": 3,
            ])
        StyleProperties.derive(into: &feature)
        #expect(feature.title == "T")
        #expect(feature.style.markerColor?.cssHex == "#ff0000")  // marker-color is not a string: icon-color is read
        #expect(feature.style.strokeWidth == 3)
        // Nothing in the model: the properties are written as they are, in order.
        let plain = Feature(geometry: nil, properties: ["id": 1, "nane": "x"])
        #expect(Array(StyleProperties.merged(plain).keys) == ["id", "nane"])
    }

    @Test(
        "Merged properties without a new dictionary: the feature's own in order, disagreeing ones replaced in place, the rest after"
    )
    func mergedProperties() throws {
        var properties: JSONObject = ["id": 1]
        for i in 0..<40 { properties["p\(i)"] = .number(JSONNumber(Double(i))!) }  // enough for a hash table
        properties["stroke"] = "#ff0000"  // what the model says: kept as written
        properties["name"] = "old"  // the model's title differs: replaced in place
        properties["geoconv:radius"] = 1
        var feature = Feature(geometry: nil, title: "new", properties: properties)
        feature.style.strokeColor = Color(red: 255, green: 0, blue: 0)
        feature.snippet = "about"
        var merged = MergedProperties(feature)
        func members(_ merged: MergedProperties) -> [(String, JSONValue)] {
            var all: [(String, JSONValue)] = []
            merged.forEach { all.append(($0, $1)) }
            return all
        }
        let keys = members(merged).map(\.0)
        #expect(keys == Array(properties.keys) + ["description"])
        #expect(members(merged).first { $0.0 == "name" }?.1 == "new")
        #expect(members(merged).first { $0.0 == "stroke" }?.1 == "#ff0000")
        #expect(members(merged).last?.1 == "about")
        #expect(Array(merged.object.keys) == keys)
        #expect(merged.object.values.elementsEqual(members(merged).map(\.1)))
        #expect(StyleProperties.merged(feature) == merged.object)
        // A value set replaces the one in place, or comes after the others.
        merged.set("geoconv:radius", 2)
        merged.set("p3", "three")
        merged.set("extra", true)
        merged.set("extra", false)
        let after = members(merged)
        #expect(after.map(\.0) == keys + ["extra"])
        #expect(after.first { $0.0 == "geoconv:radius" }?.1 == 2)
        #expect(after.first { $0.0 == "p3" }?.1 == "three")
        #expect(after.first { $0.0 == "name" }?.1 == "new")
        #expect(after.last?.1 == false)
        // Nothing in the model: the feature's own dictionary, as it is.
        let plain = MergedProperties(Feature(geometry: nil, properties: properties))
        #expect(plain.object == properties)
        #expect(members(plain).map(\.0) == Array(properties.keys))
        #expect(!plain.isEmpty && MergedProperties(Feature(geometry: nil)).isEmpty)
    }

    @Test("Member names split across escapes, repeated, or in the wrong case are read as before")
    func memberNames() throws {
        let escaped = try readGeoJSON(
            #"{"type":"Feature","\u0070roperties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#)
        #expect(escaped.features.first?.properties["a"] == 1)
        let repeated = try readGeoJSON(#"{"type":"Feature","id":1,"id":2,"properties":{},"geometry":null}"#)
        #expect(repeated.features.first?.id == .number(JSONNumber(2)))
        // the second "id"
        #expect(repeated.diagnostics.entries["geojson.duplicate-member"]?.first.location?.column == 26)
        let foreign = try readGeoJSON(#"{"type":"Feature","x":1,"x":2,"properties":{},"geometry":null}"#)
        #expect(foreign.diagnostics.entries["geojson.duplicate-member"]?.count == 1)
        #expect(foreign.features.first?.foreignMembers["x"] == 2)
        let cased = try readGeoJSON(#"{"type":"point","coordinates":[3,4]}"#)
        #expect(cased.features.first?.geometry == .point(Coordinate(latitude: 4, longitude: 3)))
        #expect(cased.diagnostics.entries["geojson.type-case"] != nil)
        // "coordinates" on a Feature is a foreign member, kept as JSON.
        let misplaced = try readGeoJSON(#"{"type":"Feature","coordinates":[1,2],"properties":{},"geometry":null}"#)
        #expect(misplaced.features.first?.foreignMembers["coordinates"] == [1, 2])
        // Non-ASCII strings are still checked to be UTF-8.
        #expect(throws: GeoConvError.self) {
            _ = try readGeoJSON(
                bytes: Array(#"{"type":"Feature","properties":{"n":""#.utf8) + [0xC3, 0x28]
                    + Array(#""},"geometry":null}"#.utf8))
        }
        let accented = try readGeoJSON(#"{"type":"Feature","properties":{"n":"Zürich"},"geometry":null}"#)
        #expect(accented.features.first?.properties["n"] == "Zürich")
    }

    @Test(
        "A geometry written {\"type\", \"coordinates\"} reads as through the general member loop, whatever follows or fails"
    )
    func commonGeometryForm() throws {
        /// The feature with `geometry`, and the same with the geometry's "type" value escaped,
        /// which the byte match refuses (the general loop reads it): what each says, by code,
        /// count, JSON Pointer and line (columns differ by the escape's five bytes).
        func read(_ geometry: String) -> (feature: Feature?, messages: [String], error: String?) {
            let text =
                #"{"type":"FeatureCollection","features":["# + "\n" + #"{"type":"Feature","properties":{},"geometry":"#
                + geometry + "}]}"
            do {
                let read = try readGeoJSON(text)
                let messages = read.diagnostics.entries.map { code, entry in
                    "\(code) ×\(entry.count) at \(entry.first.location?.pointer ?? "-") line \(entry.first.location?.line ?? 0)"
                }
                return (read.features.first, messages, nil)
            } catch {
                return (
                    nil, [],
                    "\(error.code) \(error.message) at \(error.location?.pointer ?? "-") line \(error.location?.line ?? 0)"
                )
            }
        }
        let geometries = [
            #"{"type":"Point","coordinates":[1.5,-2.25]}"#,
            #"{ "type" : "Point" , "coordinates" : [ 1 , 2 , 3 ] }"#,
            #"{"type":"Point","coordinates":[1,2,3,4]}"#,
            #"{"type":"Point","coordinates":[]}"#,
            #"{"type":"LineString","coordinates":[[1,2]]}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0,0],[0,1]]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}"#,
            // Members after the coordinates: read on by the general loop.
            #"{"type":"Point","coordinates":[1,2],"bbox":[1,2,1,2]}"#,
            #"{"type":"Point","coordinates":[1,2],"name":"kept"}"#,
            #"{"type":"Point","coordinates":[1,2],"type":"LineString"}"#,
            #"{"type":"Point","coordinates":[1,2],"coordinates":[3,4]}"#,
            #"{"type":"Point","coordinates":[1,2],"properties":{}}"#,
            // Not the common form: the general loop from the start.
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}]}"#,
            #"{"type":"point","coordinates":[1,2]}"#,
            #"{"type":"Point","bbox":[1,2,1,2],"coordinates":[1,2]}"#,
            #"{"type":"Point"}"#,
            // Failures, at the same element.
            #"{"type":"Point","coordinates":[1,"x"]}"#,
            #"{"type":"Point","coordinates":[1,2] "bbox":1}"#,
            #"{"type":"Point","coordinates":[[1,2]]}"#,
        ]
        for geometry in geometries {
            let escaped = geometry.replacingOccurrences(
                of: #":"Point""#, with: #":"\u0050oint""#, options: [], range: nil
            )
            .replacingOccurrences(
                of: #""type":"LineString","coordinates""#, with: #""type":"\u004CineString","coordinates""#
            )
            .replacingOccurrences(of: #""type":"Polygon""#, with: #""type":"\u0050olygon""#)
            .replacingOccurrences(of: #""type":"MultiPolygon""#, with: #""type":"\u004DultiPolygon""#)
            .replacingOccurrences(of: #""type" : "Point""#, with: #""type" : "\u0050oint""#)
            let common = read(geometry)
            let general = read(escaped)
            #expect(common.feature == general.feature, "\(geometry)")
            #expect(common.messages == general.messages, "\(geometry)")
            #expect(common.error == general.error, "\(geometry)")
        }
        // What some of them read as, to the coordinate and the place.
        #expect(read(geometries[0]).feature?.geometry == .point(Coordinate(latitude: -2.25, longitude: 1.5)))
        #expect(read(geometries[7]).feature?.foreignMembers["geometry"] == ["bbox": [1, 2, 1, 2]])
        #expect(read(geometries[8]).feature?.foreignMembers["geometry"] == ["name": "kept"])
        // A second "type" re-reads the coordinates for it.
        #expect(
            read(geometries[9]).error?.hasPrefix("invalid-input LineString coordinates are not nested deeply enough")
                == true)
        #expect(
            read(geometries[16]).error
                == "invalid-input each element of a position must be a number, found a string at /features/0/geometry/coordinates/1 line 2"
        )
        let failure = try #require(throws: GeoConvError.self) {
            _ = try readGeoJSON(#"{"type":"Point","coordinates":[1,2] "bbox":1}"#)
        }
        #expect(failure.code == .invalidInput)
        #expect(failure.location?.column == 37)
    }

    @Test(
        "A feature written {\"type\": \"Feature\", …} reads as through the general member loop, whatever it holds or fails on"
    )
    func commonFeatureForm() throws {
        /// The collection's features, and the same with each "Feature" type value escaped,
        /// which the byte match refuses (the general loop reads them): what each says, by
        /// code, count, JSON Pointer and line.
        func read(_ features: [String]) -> (features: [Feature], messages: [String], error: String?) {
            let text = #"{"type":"FeatureCollection","features":["# + "\n" + features.joined(separator: ",\n") + "]}"
            do {
                let read = try readGeoJSON(text)
                let messages = read.diagnostics.entries.map { code, entry in
                    "\(code) ×\(entry.count) at \(entry.first.location?.pointer ?? "-") line \(entry.first.location?.line ?? 0)"
                }
                return (read.features, messages, nil)
            } catch {
                return (
                    features: [], messages: [],
                    error:
                        "\(error.code) \(error.message) at \(error.location?.pointer ?? "-") line \(error.location?.line ?? 0)"
                )
            }
        }
        let features = [
            #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
            #"{ "type" : "Feature" , "geometry" : null , "id" : "x" , "properties" : { } }"#,
            ##"{"type":"Feature","id":7,"properties":{"geoconv:radius":100,"stroke":"#ff0000"},"geometry":{"type":"Point","coordinates":[1,2]}}"##,
            // What the common form does not have, from the first such member on: the general loop's.
            #"{"type":"Feature","properties":{},"geometry":null,"bbox":[1,2,1,2]}"#,
            #"{"type":"Feature","properties":{},"geometry":null,"name":"foreign"}"#,
            #"{"type":"Feature","properties":{"a":1},"properties":{"b":2},"geometry":null}"#,
            #"{"type":"Feature","properties":null,"geometry":null}"#,
            #"{"type":"Feature","properties":[1],"geometry":null}"#,
            #"{"type":"Feature","properties":{}}"#,
            #"{"type":"Feature","geometry":null}"#,
            #"{"type":"Feature","id":{"no":1},"properties":{},"geometry":null}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2],"extra":true}}"#,
            #"{"type":"Feature","properties":{},"geometry":null,"coordinates":[1,2]}"#,
            #"{"type":"Feature","properties":{},"geometry":null,"type":"Feature"}"#,
            #"{"type":"Feature","properties":{},"geometry":null,"features":[]}"#,
            // Not the common form: the general loop from the start.
            #"{"properties":{},"type":"Feature","geometry":null}"#,
            #"{"type":"feature","properties":{},"geometry":null}"#,
        ]
        func escaped(_ feature: String) -> String {
            feature.replacingOccurrences(of: #""Feature""#, with: #""\u0046eature""#)
        }
        let common = read(features)
        let general = read(features.map(escaped))
        #expect(common.features == general.features)
        #expect(common.features.count == features.count)
        #expect(common.messages == general.messages)
        #expect(common.error == nil, "\(common.error ?? "")")
        #expect(general.error == nil)
        for feature in features {
            let one = read([feature])
            let other = read([escaped(feature)])
            #expect(one.features == other.features, "\(feature)")
            #expect(one.messages == other.messages, "\(feature)")
        }
        // What some of them read as.
        #expect(common.features[0].properties == ["a": 1])
        #expect(common.features[1].id == FeatureID.string("x"))
        #expect(
            common.features[2].geometry == Geometry.circle(center: Coordinate(latitude: 2, longitude: 1), radius: 100))
        #expect(common.features[2].style.strokeColor?.cssHex == "#ff0000")
        #expect(common.features[4].foreignMembers["name"] == "foreign")
        #expect(common.features[5].properties == ["b": 2])
        // and the second "type"
        #expect(common.messages.contains { $0.hasPrefix("geojson.duplicate-member ×2 at /features/5 line 7") })
        // The same as the records of a newline-delimited text sequence.
        func readSequence(_ records: [String]) throws -> (features: [Feature], messages: [String]) {
            let log = DiagnosticLog()
            var reader = GeoJSONReader(
                try ByteReader(.memory(Array(records.joined(separator: "\n").utf8), name: "in.geojsonl")),
                options: GeoJSONReadOptions(isSequence: true), diagnostics: log)
            _ = try reader.readHeader()
            var read: [Feature] = []
            while let feature = try reader.next() { read.append(feature) }
            let messages = log.entries.map { code, entry in
                "\(code) ×\(entry.count) at \(entry.first.location?.pointer ?? "-") line \(entry.first.location?.line ?? 0)"
            }
            return (read, messages)
        }
        let sequence = try readSequence(features)
        let escapedSequence = try readSequence(features.map(escaped))
        #expect(sequence.features == common.features)
        #expect(sequence.features == escapedSequence.features)
        #expect(sequence.messages == escapedSequence.messages)
        #expect(sequence.messages.contains { $0.hasPrefix("geojson.duplicate-member ×2 at /5 line 6") })
        // Failures, at the same element, from the fast path and the general loop alike.
        for bad in [
            #"{"type":"Feature","properties":{"a":},"geometry":null}"#,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,"x"]}}"#,
            #"{"type":"Feature","properties":{} "geometry":null}"#,
            #"{"type":"Feature","properties":{},"geometry":null"#,
        ] {
            let one = read([features[0], bad])
            let other = read([features[0], escaped(bad)])
            #expect(one.error != nil, "\(bad)")
            #expect(one.error == other.error, "\(bad)")
        }
    }

    @Test(
        "Warnings and notes are counted under their own codes, however they alternate, also after the log is replaced")
    func diagnosticCounts() throws {
        enum Code: String, DiagnosticCodes {
            case one = "a.one", two = "b.two", three = "c.three", four = "d.four"
        }
        let log = DiagnosticLog()
        let sequence: [Code] = [.one, .two, .one, .three, .two, .one, .three, .three, .four]
        for (index, code) in sequence.enumerated() {
            if code == .three { log.note(code, "note \(index)") } else { try log.warn(code, "warning \(index)") }
        }
        #expect(Array(log.entries.keys) == ["a.one", "b.two", "c.three", "d.four"])
        #expect(log.entries.values.map(\.count) == [3, 2, 3, 1])
        #expect(log.entries["b.two"]?.first.message == "warning 1")
        let other = DiagnosticLog()
        try other.warn(Code.four, "other")
        log.replace(with: other)
        try log.warn(Code.one, "again")
        try log.warn(Code.four, "again")
        #expect(Array(log.entries.keys) == ["d.four", "a.one"])
        #expect(log.entries.values.map(\.count) == [2, 1])
    }

    @Test("KML text escaping: markup as entities, XML-forbidden characters dropped, the rest byte for byte")
    func kmlEscaping() throws {
        let feature = Feature(
            geometry: .point(Coordinate(latitude: 1, longitude: 2)),
            properties: ["a": "x < y & \"z\" \u{1}\u{FFFE}ok\tü", "b\"q": 1])
        let output = try ByteWriter(.memory)
        let log = DiagnosticLog()
        var writer = KMLWriter(output, diagnostics: log)
        try writer.begin(DocumentHeader())
        try writer.write(feature)
        try writer.finish()
        let text = String(decoding: output.memoryContents, as: UTF8.self)
        #expect(text.contains(#"<SimpleData name="a">x &lt; y &amp; "z" ok"# + "\tü</SimpleData>"))
        #expect(text.contains(#"<SimpleData name="b&quot;q">1</SimpleData>"#))
        #expect(log.entries["kml.control-characters-dropped"]?.count == 1)
    }

    @Test("Transforms in place: one feature in, one out, in order; a split keeps order too")
    func inPlaceTransforms() throws {
        struct Split: FeatureTransform {
            mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
                var a = feature
                var b = feature
                a.title = (feature.title ?? "") + "a"
                b.title = (feature.title ?? "") + "b"
                return [a, b]
            }
        }
        var transforms: [any FeatureTransform] = [GeographicRangeCheck(), Split(), Split()]
        let log = DiagnosticLog()
        let out = try transforms.apply(
            to: Feature(geometry: .point(Coordinate(latitude: 100, longitude: 0)), title: "f"),
            diagnostics: log)
        #expect(out.map(\.title) == ["faa", "fab", "fba", "fbb"])
        #expect(log.entries["coordinate.out-of-range"]?.count == 1)
    }

    @Test("info lists each target's losses with the counts a conversion to it reports, across batches of features")
    func inspectionCounts() throws {
        // Every 7th feature has what KML (and so KMZ) loses: a null and a list; every 11th a
        // control character, which KML drops (info finds it without writing the data out).
        let features = (0..<5000).map { i in
            let extra = (i % 7 == 0 ? #","gone":null,"list":[1,2]"# : "") + (i % 11 == 0 ? #","t":"a\u0001b""# : "")
            return
                #"{"type":"Feature","properties":{"n":\#(i)\#(extra)},"geometry":{"type":"Point","coordinates":[\#(Double(i % 90)),1]}}"#
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        let input = InputSource.memory(Array(text.utf8), name: "in.geojson")
        let report = try Converter().inspect(input, options: ConversionOptions(inputFormat: .geoJSON))
        #expect(report.featureCount == 5000)
        // KMZ writes its features as KML does: info writes them once for both, and each
        // still lists what its own conversion reports.
        for target in ["wkt", "polyline", "kml", "kmz"] {
            let converted = try Converter().convert(
                input, to: .memory,
                options: ConversionOptions(
                    inputFormat: .geoJSON, outputFormat: FormatRegistry.standard.format(named: target)))
            #expect(report.losses[target] == converted.diagnostics.summary, "\(target)")
        }
        #expect(report.losses["wkt"]?.contains { $0.contains("(5000 times)") } == true)
        #expect(
            report.losses["kmz"]?.contains { $0.contains("[kml.null-dropped] (715 times)") } == true,
            "\(report.losses["kmz"] ?? [])")
        #expect(
            report.losses["kml"]?.contains { $0.contains("[kml.control-characters-dropped] (455 times)") } == true,
            "\(report.losses["kml"] ?? [])")
    }

    @Test("One thread or several print the same messages in the same order")
    func messageOrderAcrossJobs() throws {
        let path = Fixtures.testdata("geojson/faithful.geojson")
        let summaries = try [1, 2, 4].map { jobs in
            var options = ConversionOptions(outputFormat: .kml)
            options.jobs = jobs
            return try Converter().convert(.file(path), to: .memory, options: options).diagnostics.summary
        }
        #expect(summaries[0].count >= 4)
        #expect(summaries[1] == summaries[0] && summaries[2] == summaries[0], "\(summaries)")
        // The document's own first, then by place: the circle's note (feature 8) after feature 0's warnings.
        #expect(summaries[0].first?.contains("document.parts-dropped") == true)
        #expect(summaries[0].last?.contains("circle.drawn-as-polygon") == true)
    }

    @Test(
        "info's losses for every target are the conversion's warnings, finish-time ones included",
        arguments: [
            "geojson/faithful.geojson", "geojson/markers.geojson", "shapefile/source/mixed.geojson",
            "kml/screen-overlay.kml", "kml/track-arrays.kml", "gpx/hike.gpx", "gpx/sensors.gpx",
        ])
    func inspectionMatchesConversion(_ fixture: String) throws {
        let path = Fixtures.testdata(fixture)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let report = try Converter().inspect(.file(path))
        var compared = 0
        for format in FormatRegistry.standard.formats where format.makeWriter != nil && format.name != report.format {
            guard let losses = report.losses[format.name], !losses.contains(where: { $0.contains(".refused]") }) else {
                continue
            }
            let converted: ConversionReport
            do {
                converted = try Converter().convert(
                    .file(path), to: .memory,
                    options: ConversionOptions(outputFormat: format))
            } catch {
                continue
            }
            // (Reading's own warnings are listed once, apart: "beyond reading".)
            let reading = Set(report.readWarnings)
            let expected = converted.diagnostics.summary.filter { !reading.contains($0) }
            #expect(losses == expected, "\(fixture) → \(format.name)")
            compared += 1
        }
        #expect(compared >= 5, "\(fixture): \(compared) targets compared")
    }

    @Test(
        "info reads runs of features on several threads with the report of one thread: counts, bounds, types, warnings and their places"
    )
    func inspectionRuns() throws {
        // Mixed kinds and property types, positions on both sides of the antimeridian, a title
        // every 3rd; late in the input (in a later run), a position out of range every 250
        // features (a read warning) and a null every 100 (which KML drops): placed in the input.
        let features = (0..<3000).map { i -> String in
            let lon = i % 2 == 0 ? 179.5 - Double(i % 40) / 100 : -179.5 + Double(i % 30) / 100
            let lat = i >= 2000 && i % 250 == 17 ? 100.0 : Double(i % 80) - 40
            let geometry =
                i % 5 == 0
                ? #"{"type":"LineString","coordinates":[[\#(lon),\#(lat)],[\#(lon),\#(lat + 1)]]}"#
                : #"{"type":"Point","coordinates":[\#(lon),\#(lat)]}"#
            let value = i % 3 == 0 ? #""s\#(i)""# : (i % 3 == 1 ? "\(i)" : "true")
            let title = (i % 3 == 0 ? #","name":"f\#(i)""# : "") + (i >= 2500 && i % 100 == 0 ? #","gone":null"# : "")
            return #"{"type":"Feature","properties":{"v":\#(value)\#(title)},"geometry":\#(geometry)}"#
        }
        let text = #"{"type":"FeatureCollection","features":[\#n"# + features.joined(separator: ",\n") + "]}"
        let input = InputSource.memory(Array(text.utf8), name: "runs.geojson")
        var serial = ConversionOptions(inputFormat: .geoJSON)
        serial.jobs = 1
        var parallel = serial
        parallel.jobs = 3
        parallel.chunkBytes = 16 << 10  // runs of ~4 KB: dozens of them, several per round
        let one = try Converter().inspect(input, options: serial)
        let many = try Converter().inspect(input, options: parallel)
        #expect(one.featureCount == 3000)
        #expect(one.geometryKinds == ["LineString": 600, "Point": 2400])
        #expect(one.properties["v"]?.types == ["string", "number", "boolean"])
        #expect(one.titled == 1000)
        #expect(
            one.bounds.map { $0.west > 0 && $0.east < 0 } == true,
            "crosses the antimeridian: \(String(describing: one.bounds))")
        #expect(
            one.readWarnings.contains { $0.contains("runs.geojson:2019:1") && $0.contains("(4 times)") },
            "\(one.readWarnings)")
        #expect(
            one.losses["kml"]?.contains { $0.contains("runs.geojson:2502:1") && $0.contains("(5 times)") } == true,
            "\(one.losses["kml"] ?? [])")
        #expect(many.featureCount == one.featureCount)
        #expect(many.geometryKinds == one.geometryKinds)
        #expect(many.coordinateCount == one.coordinateCount)
        #expect(many.bounds == one.bounds)
        #expect(many.properties == one.properties)
        #expect(many.titled == one.titled)
        #expect(many.readWarnings == one.readWarnings)
        #expect(many.losses == one.losses)
    }
}
