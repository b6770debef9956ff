import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `--classify` (issue 47): the classes each method makes, the colour each feature gets at
/// its own place, the KML's shared styles, the legend, the pictures, and every report.
@Suite struct ClassificationTests {
    /// Ten points with `pop` 1…10 (the tenth as text "10"), a `kind` of three values, and a
    /// line and a polygon with `pop` 5 and none.
    static let places: String = {
        var features: [String] = []
        let kinds = ["park", "road", "park", "Park", "stop", "park", "road", "stop", "park", "road"]
        for index in 1...10 {
            let pop = index == 10 ? "\"10\"" : "\(index)"
            features.append(
                """
                {"type":"Feature","properties":{"pop":\(pop),"kind":"\(kinds[index - 1])"},\
                "geometry":{"type":"Point","coordinates":[\(index),\(index)]}}
                """)
        }
        features.append(
            """
            {"type":"Feature","properties":{"pop":5},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}
            """)
        features.append(
            """
            {"type":"Feature","properties":{"name":"no pop"},\
            "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}
            """)
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }()

    static func hex(_ text: String) -> Color {
        Color(css: text) ?? Color(red: 0, green: 0, blue: 0)
    }

    /// A file holding `places`, converted with `classify` to `format`, read back.
    static func classified(
        _ classify: String, to format: FileFormat = .geoJSON, extension ext: String = "geojson",
        style: [String] = []
    ) throws -> (features: [Feature], report: ConversionReport, output: String) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("places.geojson").path
        try Data(places.utf8).write(to: URL(fileURLWithPath: input))
        var options = ConversionOptions(outputFormat: format)
        options.classification = try Classification(classify)
        options.styleRules = style.enumerated().map { StyleRuleText($1, line: $0 + 1) }
        let output = directory.appendingPathComponent("out.\(ext)").path
        let report = try Converter().convert(.file(input), to: .file(output), options: options)
        let back = try OverlayDocument.load(.file(output))
        let text = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data(), as: UTF8.self)
        return (back.features, report, text)
    }

    @Test("Quantiles: equal counts, bounds at the values i·n/k places in, text numbers read as numbers")
    func quantile() throws {
        let (features, report, _) = try Self.classified("pop classes=3 ramp=Blues")
        let legend = try #require(report.legend)
        // pop values 1…10 and the line's 5 (11 values): bounds at sorted[3] = 4 and sorted[7] = 7.
        #expect(legend.method == .quantile)
        #expect(legend.entries.map(\.label) == ["1 – 4", "4 – 7", "7 – 10"])
        #expect(legend.entries.map(\.count) == [3, 4, 4])
        #expect(legend.unclassified == 1)
        let blues = ColorBrewer.colors(named: "Blues", count: 3) ?? []
        #expect(blues == [Self.hex("#deebf7"), Self.hex("#9ecae1"), Self.hex("#3182bd")])
        // Each point's marker, at its own feature; the line's stroke (auto); the polygon untouched.
        for index in 0..<10 {
            let pop = index + 1
            let expected = blues[pop < 4 ? 0 : (pop < 7 ? 1 : 2)]
            #expect(features[index].style.markerColor == expected, "feature \(index)")
            #expect(features[index].style.fillColor == nil && features[index].style.strokeColor == nil)
        }
        #expect(features[10].style.strokeColor == blues[1] && features[10].style.markerColor == nil)
        #expect(features[11].style.isEmpty)
        let note = try #require(report.diagnostics.entries["classify.unclassified"])
        #expect(note.first.message == "features in no class of --classify pop keep their style")
        #expect(note.first.isNote && note.count == 1)
    }

    @Test("Equal intervals, explicit breaks with open ends, other=, target=fill")
    func intervalsAndBreaks() throws {
        let equal = try #require(try Self.classified("pop method=equal-interval classes=3").report.legend)
        #expect(equal.entries.map(\.lower) == [1, 4, 7])
        #expect(equal.entries.map(\.upper) == [4, 7, 10])
        #expect(equal.entries.map(\.count) == [3, 4, 4])

        let (features, report, _) = try Self.classified(
            "pop breaks=3,8 colors=red,#00ff00,rgb(0,0,255) other=#999 target=fill")
        let legend = try #require(report.legend)
        #expect(legend.method == .breaks)
        #expect(legend.entries.map(\.label) == ["< 3", "3 – 8", "≥ 8"])
        #expect(legend.entries.map(\.count) == [2, 6, 3])
        #expect(legend.other?.count == 1 && legend.unclassified == 0)
        #expect(features[0].style.fillColor == Self.hex("red"))
        #expect(features[2].style.fillColor == Self.hex("#00ff00"))
        #expect(features[9].style.fillColor == Self.hex("blue"))
        #expect(features[11].style.fillColor == Self.hex("#999999"))
        #expect(report.diagnostics.entries["classify.unclassified"] == nil)
    }

    @Test("Categories: exact values (Park is not park), ordered by value, the most frequent kept")
    func categories() throws {
        let (features, report, _) = try Self.classified("kind")
        let legend = try #require(report.legend)
        #expect(legend.method == .categories)
        #expect(legend.entries.map(\.label) == ["Park", "park", "road", "stop"])
        #expect(legend.entries.map(\.count) == [1, 4, 3, 2])
        let set2 = ColorBrewer.colors(named: "Set2", count: 4) ?? []
        #expect(features[3].style.markerColor == set2[0])
        #expect(features[0].style.markerColor == set2[1])
        #expect(features[1].style.markerColor == set2[2])

        let two = try Self.classified("kind classes=2 other=black")
        let kept = try #require(two.report.legend)
        #expect(kept.entries.map(\.label) == ["park", "road"])
        #expect(kept.other?.count == 5)
        let warning = try #require(two.report.diagnostics.entries["classify.classes-merged"])
        #expect(
            warning.first.message
                == "--classify kind: 4 values, 2 classes: the 2 least frequent values are in none")
        #expect(two.features[3].style.markerColor == Self.hex("black"))
    }

    @Test("Quantiles that share values make fewer classes, and say so")
    func mergedQuantiles() throws {
        let (_, report, _) = try Self.classified(
            "pop classes=12 colors="
                + Array(repeating: "red", count: 12)
                .joined(separator: ","))
        let legend = try #require(report.legend)
        #expect(legend.entries.count == 10)
        let warning = try #require(report.diagnostics.entries["classify.classes-merged"])
        #expect(warning.first.message == "--classify pop: 10 classes, not 12: so many features share values")
    }

    @Test("KML: one shared Style per class, every Placemark pointing to its class's; style rules refine")
    func sharedKMLStyles() throws {
        let (features, _, kml) = try Self.classified(
            "pop classes=3 ramp=Reds", to: .kml, extension: "kml", style: ["kind = 'park': icon-scale=1.5"])
        // Parks (pop 1, 3, 6, 9) in each of the 3 classes with the scale, the other points
        // without: 6 for the points, and the line's stroke in class 2.
        #expect(kml.components(separatedBy: "<Style ").count - 1 == 7)
        let reds = ColorBrewer.colors(named: "Reds", count: 3) ?? []
        #expect(features[0].style.markerColor == reds[0] && features[0].style.iconScale == 1.5)
        #expect(features[1].style.markerColor == reds[0] && features[1].style.iconScale == nil)
        #expect(features[9].style.markerColor == reds[2])
        let plain = try Self.classified("pop classes=3 ramp=Reds", to: .kml, extension: "kml").output
        let urls = plain.components(separatedBy: "<styleUrl>").dropFirst().map { $0.prefix(while: { $0 != "<" }) }
        #expect(plain.components(separatedBy: "<Style ").count - 1 == 4)  // 3 markers, 1 line
        #expect(urls.prefix(10) == ["#s1", "#s1", "#s1", "#s2", "#s2", "#s2", "#s3", "#s3", "#s3", "#s3"])
    }

    @Test("Malformed specs are usage errors at their column")
    func usageErrors() {
        func error(_ text: String) -> GeoConvError? {
            do {
                _ = try Classification(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("pop clases=3")?.message == "unknown --classify key 'clases'")
        #expect(error("pop clases=3")?.location == SourceLocation(file: "--classify", line: 1, column: 5))
        #expect(error("pop method=jenks")?.message == "method=jenks: no such method")
        #expect(error("pop ramp=Rainbow")?.hint?.hasPrefix("name one of Spectral, RdYlGn") == true)
        #expect(error("pop ramp=Blues classes=10")?.message == "ramp=Blues has at most 9 classes, not 10")
        #expect(error("pop breaks=5,3")?.message == "breaks=5,3: the breaks do not ascend")
        #expect(error("pop breaks=3,5 colors=red,blue")?.message == "2 colours for 3 classes")
        #expect(error("pop other=blurple")?.message == "other=blurple: not a colour")
        #expect(error("'land use")?.message == "a quote opened here is not closed")
        #expect(error("'land use' classes=3") == nil)
        #expect((try? Classification("'land use' classes=3"))?.property == "land use")
    }

    @Test("No number for a numeric method, and standard input for a method that reads the values")
    func unusableInputs() throws {
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .geoJSON)
        options.classification = try Classification("name method=quantile")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("places.geojson").path
        try Data(Self.places.utf8).write(to: URL(fileURLWithPath: input))
        #expect(
            throws: GeoConvError(
                .usage, "--classify name: no feature read has a number there",
                hint: "check the property's name (its case too), or classify its values with method=categories")
        ) {
            try Converter().convert(.file(input), to: .memory, options: options)
        }
        options.classification = try Classification("pop")
        #expect(
            throws: GeoConvError(
                .usage,
                "--classify pop learns its classes from the values, and standard input is read once",
                hint: "give the input as a file, or the classes as breaks=…")
        ) {
            try Converter().convert(.standardInput, to: .memory, options: options)
        }
    }

    @Test("The legend's JSON")
    func legendJSON() throws {
        let legend = try #require(try Self.classified("pop breaks=5 colors=#fff,#000").report.legend)
        let text = String(decoding: JSONText.compact(legend.json), as: UTF8.self)
        #expect(
            text == """
                {"property":"pop","method":"breaks","target":"auto","classes":[{"label":"< 5","color":"#ffffff",\
                "max":5,"count":4},{"label":"≥ 5","color":"#000000","min":5,"count":7}],"other":null,\
                "unclassified":1}
                """)
    }

    /// `places` as a file, converted with these options to GeoJSON in memory.
    static func converted(_ options: ConversionOptions, input: String = places) throws -> ConversionReport {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("in.geojson").path
        try Data(input.utf8).write(to: URL(fileURLWithPath: path))
        var options = options
        options.outputFormat = .geoJSON
        return try Converter().convert(.file(path), to: .memory, options: options)
    }

    @Test("The first reading sees the property --select leaves out, and each feature once with --explode-collections")
    func firstReadingBeforeSelect() throws {
        var options = ConversionOptions()
        options.classification = try Classification("pop classes=2")
        options.selection.properties = ["kind"]
        options.selection.explodesCollections = true
        let legend = try #require(try Self.converted(options).legend)
        #expect(legend.entries.map(\.count) == [4, 7])  // 1…10 and the line's 5: the bound is the 6th of 11
        #expect(legend.entries.map(\.label) == ["1 – 5", "5 – 10"])
    }

    @Test("A property no feature has: a usage error naming it, whatever the method")
    func missingProperty() throws {
        var options = ConversionOptions()
        options.classification = try Classification("popp colors=red,blue")
        #expect(
            throws: GeoConvError(
                .usage, "--classify popp: no feature read has a value there",
                hint: "check the property's name (its case too)")
        ) { try Self.converted(options) }
    }

    @Test("Categories: a number written as text is that number; booleans are the categories true and false")
    func textNumbersAndBooleans() throws {
        let input = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"v":"10","open":true},"geometry":null},
            {"type":"Feature","properties":{"v":3,"open":false},"geometry":null},
            {"type":"Feature","properties":{"v":"3","open":true},"geometry":null},
            {"type":"Feature","properties":{"v":"n/a","open":true},"geometry":null}
            ]}
            """
        var options = ConversionOptions()
        options.classification = try Classification("v colors=red,green,blue")
        let values = try #require(try Self.converted(options, input: input).legend)
        #expect(values.method == .categories)
        #expect(values.entries.map(\.label) == ["3", "10", "n/a"])
        #expect(values.entries.map(\.count) == [2, 1, 1])
        options.classification = try Classification("open")
        let flags = try #require(try Self.converted(options, input: input).legend)
        #expect(flags.method == .categories)
        #expect(flags.entries.map(\.label) == ["false", "true"])
        #expect(flags.entries.map(\.count) == [1, 3])
    }

    @Test("classes= that disagrees with breaks= is a usage error")
    func classesAndBreaks() {
        #expect(
            throws: GeoConvError(
                .usage, "classes=5 with 2 breaks, which make 3 classes",
                at: SourceLocation(file: "--classify", line: 1, column: 1),
                hint: "drop classes=, or give one break fewer than classes")
        ) { try Classification("pop breaks=10,100 classes=5") }
    }

    @Test("--legend - beside an output on standard output is refused")
    func legendOnStandardOutput() throws {
        let result = try CLI.run([
            "convert", "in.geojson", "-", "--to", "geojson", "--classify", "pop", "--legend", "-",
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--legend - and the output would both be written to standard output"))
    }

    #if Rendering
    @Test("render draws each class's colour where its polygon is, and the legend's swatches")
    func renderedClasses() throws {
        let squares = (0..<3).map { index in
            """
            {"type":"Feature","properties":{"v":\(index * 10)},"geometry":{"type":"Polygon","coordinates":\
            [[[\(index * 2),0],[\(index * 2 + 1),0],[\(index * 2 + 1),1],[\(index * 2),1],[\(index * 2),0]]]}}
            """
        }
        let input = "{\"type\":\"FeatureCollection\",\"features\":[" + squares.joined(separator: ",") + "]}"
        var options = ConversionOptions(inputFormat: .geoJSON)
        options.classification = try Classification("v method=categories colors=#ff0000,#00ff00,#0000ff")
        let document = try OverlayDocument.load(.memory(Array(input.utf8), name: "v.geojson"), options: options)
        var renderOptions = RenderOptions(width: 400, height: 300, padding: 20, background: Self.hex("white"))
        renderOptions.legend = document.legend
        let renderer = try OverlayRenderer(
            features: document.features, options: renderOptions, diagnostics: DiagnosticLog())
        let image = try renderer.image(document.features)
        let expected: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        for index in 0..<3 {
            let centre = renderer.projection.point(Coordinate(latitude: 0.5, longitude: Double(index * 2) + 0.5))
            let pixel = image.color(x: Int(centre.x), y: Int(centre.y))
            #expect(
                (pixel.red, pixel.green, pixel.blue) == expected[index], "square \(index) at \(centre): \(pixel)")
        }
        // The legend's swatches, bottom left: 8 margin, 6 padding, rows 16 apart after the title.
        for index in 0..<3 {
            let y = 300 - 8 - (4 * 16 + 12) + 6 + (index + 1) * 16 + 8
            let pixel = image.color(x: 8 + 6 + 6, y: y)
            #expect((pixel.red, pixel.green, pixel.blue) == expected[index], "swatch \(index) at y \(y): \(pixel)")
        }
    }
    #endif
}
