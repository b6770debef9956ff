import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `--style` rules (issue 47): what each feature gets, where, and every report with its exact
/// message and place.
@Suite struct StyleRulesTests {
    /// Parks (polygons), roads (lines), stops (points), one feature of each kind per class.
    static let places = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":1,"properties":{"name":"Oak park","kind":"park","colour":"#ff8800","pop":10},
         "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
        {"type":"Feature","id":2,"properties":{"name":"Main st","kind":"road","colour":"blurple","pop":20},
         "geometry":{"type":"LineString","coordinates":[[0,0],[2,2]]}},
        {"type":"Feature","id":3,"properties":{"name":"Station","kind":"stop","colour":"rgb(10, 20, 30)","pop":30},
         "geometry":{"type":"Point","coordinates":[0.5,0.5]}},
        {"type":"Feature","id":4,"properties":{"name":"Elm park","kind":"park","stroke":"#0000ff","pop":40},
         "geometry":{"type":"Polygon","coordinates":[[[2,2],[3,2],[3,3],[2,3],[2,2]]]}}
        ]}
        """

    /// The features `rules` make of `input`, read back from GeoJSON, and the log.
    static func styled(
        _ rules: [String], input: String = places, strict: Bool = false
    ) throws -> (features: [Feature], log: DiagnosticLog, output: [UInt8]) {
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .geoJSON, strict: strict)
        options.styleRules = rules.enumerated().map { StyleRuleText($1, line: $0 + 1) }
        let report = try Converter().convert(
            .memory(Array(input.utf8), name: "in.geojson"), to: .memory, options: options)
        let back = try OverlayDocument.load(
            .memory(report.output, name: "out.geojson"), options: ConversionOptions(inputFormat: .geoJSON))
        return (back.features, report.diagnostics, report.output)
    }

    @Test("Rules apply in order, later ones key by key; what no rule sets stays as the input had it")
    func orderAndOverrides() throws {
        let (features, _, _) = try Self.styled([
            "*: stroke=#333 stroke-width=1",
            "kind = 'park': fill=#2e7d32 fill-opacity=0.5 stroke-width=2",
            "pop > 30: stroke-opacity=0.25",
        ])
        let oak = features[0].style
        #expect(oak.strokeColor == Color(red: 0x33, green: 0x33, blue: 0x33))
        #expect(oak.strokeWidth == 2 && oak.fillColor == Color(red: 0x2e, green: 0x7d, blue: 0x32, opacity: 0.5))
        #expect(features[1].style.strokeWidth == 1 && features[1].style.fillColor == nil)
        // Elm park: the last rule's opacity on the colour the first rule set; the input's own
        // stroke (#0000ff) replaced by the first rule's.
        #expect(features[3].style.strokeColor == Color(red: 0x33, green: 0x33, blue: 0x33, opacity: 0.25))
        #expect(features[3].properties["pop"] == .number(JSONNumber(40)))
    }

    @Test("An opacity alone applies to the feature's own colour, else to simplestyle's grey")
    func opacityAlone() throws {
        let (features, _, _) = try Self.styled(["kind = 'park': stroke-opacity=0.5 fill-opacity=0.2"])
        #expect(features[3].style.strokeColor == Color(red: 0, green: 0, blue: 255, opacity: 0.5))
        #expect(features[0].style.fillColor == Color(red: 0x55, green: 0x55, blue: 0x55, opacity: 0.2))
    }

    @Test("{property} values: colours, numbers and labels from each feature's own properties")
    func templates() throws {
        let (features, log, _) = try Self.styled([
            "kind = 'stop': marker-color={colour} label='{name} ({pop})' icon-scale={pop}",
            "kind = 'park': fill={colour}",
        ])
        #expect(features[2].style.markerColor == Color(red: 10, green: 20, blue: 30))
        #expect(features[2].title == "Station (30)" && features[2].style.iconScale == 30)
        #expect(features[0].style.fillColor == Color(red: 0xff, green: 0x88, blue: 0))
        // Elm park has no colour: the key sets nothing, and nothing is reported.
        #expect(features[3].style.fillColor == nil && log.entries["style.bad-value"] == nil)
    }

    @Test("The model's other keys: z-index, geodesic, icon, hidden, label-scale, highlight")
    func otherKeys() throws {
        let (features, _, output) = try Self.styled([
            "kind = 'road': z-index=3 geodesic=yes label-scale=1.5 hidden=true highlight.stroke=red"
                + " highlight.stroke-width=4",
            "kind = 'stop': icon='https://example.com/bus.png' icon-heading=90",
        ])
        let road = features[1]
        #expect(road.style.zIndex == 3 && road.style.geodesic == true)
        #expect(road.properties["label-scale"] == .number(JSONNumber(uncheckedLiteral: "1.5")))
        #expect(road.properties["visibility"] == .bool(false))
        #expect(
            road.properties["geoconv:highlight-style"]
                == .object(["stroke": .string("#ff0000"), "stroke-width": .number(JSONNumber(4))]))
        #expect(features[2].style.icon == "https://example.com/bus.png" && features[2].style.rotation == 90)
        #expect(String(decoding: output, as: UTF8.self).contains(#""geoconv:z-index":3"#))
    }

    @Test("KML: one shared Style per distinct outcome, each placemark pointing to its class's")
    func kmlSharedStyles() throws {
        let colors = ["#d73027", "#fc8d59", "#fee090", "#e0f3f8", "#91bfdb", "#4575b4"]
        var features: [String] = []
        for index in 0..<60 {
            features.append(
                #"{"type":"Feature","id":\#(index),"properties":{"v":\#(index)},"#
                    + #""geometry":{"type":"Point","coordinates":[\#(index),1]}}"#)
        }
        let input = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.styleRules = colors.indices.map { StyleRuleText("v >= \($0 * 10): marker-color=\(colors[$0])") }
        let report = try Converter().convert(
            .memory(Array(input.utf8), name: "v.geojson"), to: .memory, options: options)
        let kml = String(decoding: report.output, as: UTF8.self)
        #expect(kml.components(separatedBy: "<Style id=").count - 1 == 6)
        let back = try OverlayDocument.load(
            .memory(report.output, name: "v.kml"), options: ConversionOptions(inputFormat: .kml)
        ).features
        #expect(back.count == 60)
        for (index, feature) in back.enumerated() {
            #expect(feature.style.markerColor == Color(css: colors[index / 10]), "feature \(index)")
        }
    }

    @Test("A value that is not of its key's kind: a warning at its line and column, an error when strict")
    func badValues() throws {
        let (features, log, _) = try Self.styled(["*: stroke-width=2 fill-opacity=2"])
        let bad = try #require(log.entries["style.bad-value"]?.first)
        #expect(bad.message == "fill-opacity=2: '2' is not a number from 0 to 1: the key is left out")
        #expect(bad.location?.description == "--style:1:32")
        #expect(features[0].style.strokeWidth == 2 && features[0].style.fillColor == nil)
        let error = #expect(throws: GeoConvError.self) { _ = try Self.styled(["*: fill=blurple"], strict: true) }
        #expect(error?.location?.description == "--style:1:9")
        #expect(error?.message == "fill=blurple: 'blurple' is not a colour: the key is left out [style.bad-value]")
        // One a property gives a feature: placed at the feature, naming the rule's key.
        let (_, fromProperty, _) = try Self.styled(["kind = 'road': stroke={colour}"])
        #expect(
            fromProperty.entries["style.bad-value"]?.first.message
                == "stroke=blurple: 'blurple' is not a colour (from stroke at --style:1:16): this rule sets no "
                + "stroke on the feature; an earlier rule's holds")
    }

    @Test("Where a {property} gives a feature no value (missing, or not a colour), the earlier rule's holds")
    func templateFallsBack() throws {
        let (features, _, _) = try Self.styled([
            "*: stroke=#123456 fill=#abcdef", "kind = 'park' OR kind = 'road': stroke={colour} fill={colour}",
        ])
        // Oak park: its own colour; Main st: 'blurple' is no colour; Elm park: no colour property.
        #expect(features[0].style.strokeColor == Color(red: 0xff, green: 0x88, blue: 0x00))
        #expect(features[1].style.strokeColor == Color(red: 0x12, green: 0x34, blue: 0x56))
        #expect(features[3].style.strokeColor == Color(red: 0x12, green: 0x34, blue: 0x56))
        #expect(features[3].style.fillColor == Color(red: 0xab, green: 0xcd, blue: 0xef))
        // The station matched only the first rule.
        #expect(features[2].style.fillColor == Color(red: 0xab, green: 0xcd, blue: 0xef))
    }

    @Test("A key an earlier rule gives where a later {property} gives nothing is drawn: not reported")
    func fallbackIsDrawn() throws {
        let (_, log, _) = try Self.styled(["kind = 'park': fill=grey", "kind = 'park': fill={colour}"])
        #expect(log.entries["style.key-not-drawn"] == nil)
        #expect(log.entries["style.rule-unused"] == nil)
    }

    @Test("A feature matching what the one before matched takes its style, unless its kind or own style differs")
    func repeatedMatches() throws {
        let point = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#
        let polygon = #"{"type":"Feature","properties":{},"geometry":\#(square)}"#
        let rules = ["*: fill=#ff0000 marker-color=#00ff00"]
        let red = Color(red: 0xff, green: 0, blue: 0)
        // A polygon after two points matching the same rule still tells that fill drew.
        let kinds = try Self.styled(
            rules, input: #"{"type":"FeatureCollection","features":[\#(point),\#(point),\#(polygon)]}"#)
        #expect(kinds.features.map(\.style.fillColor) == [red, red, red])
        #expect(kinds.log.entries["style.key-not-drawn"] == nil)
        // A polygon with a stroke of its own after one without keeps its stroke.
        var transform = try StyleRules(rules.map { StyleRuleText($0) })
        let ring = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
            Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 0, longitude: 0),
        ]
        var own = Style()
        own.strokeColor = Color(red: 0, green: 0, blue: 0xff)
        let log = DiagnosticLog()
        let styled = try [Style(), Style(), own].flatMap { style in
            try transform.transform(
                Feature(geometry: .polygon(PolygonRings(outer: Path(ring))), style: style), diagnostics: log)
        }
        #expect(styled.map(\.style.fillColor) == [red, red, red])
        #expect(styled.map(\.style.strokeColor) == [nil, nil, Color(red: 0, green: 0, blue: 0xff)])
    }

    @Test("A heading of -0 after one of 0 is written -0 (the style memo tells them apart)")
    func negativeZeroHeading() throws {
        let (_, _, output) = try Self.styled(["kind = 'road': icon-heading=0", "kind = 'stop': icon-heading=-0"])
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains(#""icon-heading":0"#) && text.contains(#""icon-heading":-0"#))
    }

    @Test("A rule that matched nothing, a key nothing it matched draws, features no rule matched")
    func unusedRules() throws {
        let (_, log, _) = try Self.styled([
            "kind = 'lake': fill=blue", "kind = 'road': fill=red stroke=red", "kind = 'stop': marker-color=red",
        ])
        let unused = try #require(log.entries["style.rule-unused"]?.first)
        #expect(unused.message == "the style rule 'kind = 'lake': fill=blue' matched no feature")
        #expect(unused.location?.description == "--style:1:1")
        let notDrawn = try #require(log.entries["style.key-not-drawn"])
        #expect(notDrawn.count == 1)
        #expect(
            notDrawn.first.message
                == "fill draws nothing on the features its rule matched (polygons and circles draw it)")
        #expect(notDrawn.first.location?.description == "--style:2:16")
        let unmatched = try #require(log.entries["style.no-rule-matched"])
        #expect(unmatched.count == 2 && unmatched.first.isNote)
        #expect(unmatched.first.message == "features no style rule matched keep their style")
        // A rule for every feature leaves none unmatched.
        #expect(try Self.styled(["*: stroke=red"]).log.entries["style.no-rule-matched"] == nil)
    }

    @Test(
        "Rules that do not parse: usage errors at their column",
        arguments: [
            (
                "kind = 'park' fill=red", "--style:1:23",
                "style rule: a style rule is SELECTOR: key=value …, and this one has no ':'"
            ),
            ("kind = 'park': fil=red", "--style:1:16", "style rule: 'fil' is not a style key"),
            (
                "kind = = 'park': fill=red", "--style:1:8",
                "style rule: the selector: expected a property or a value, found '='"
            ),
            ("*: highlight.label=x", "--style:1:4", "style rule: 'label' has no highlighted state"),
            ("*: fill", "--style:1:4", "style rule: 'fill' has no value: keys are written key=value"),
            ("*:", "--style:1:3", "style rule: the rule sets no key after ':'"),
        ])
    func parseErrors(rule: String, place: String, message: String) throws {
        let error = #expect(throws: GeoConvError.self) { _ = try StyleRule(rule) }
        #expect(error?.code == .usage)
        #expect(error?.location?.description == place)
        #expect(error?.message == message)
    }

    @Test("A style file: one rule a line, comments and blank lines skipped, each placed at its line")
    func styleFile() throws {
        let rules = StyleRuleText.lines(
            of: "# parks\n\n  kind = 'park': fill=#2e7d32   # green\r\n* : stroke='#333 #x'\n", file: "r.txt")
        #expect(rules.map(\.text) == ["kind = 'park': fill=#2e7d32", "* : stroke='#333 #x'"])
        #expect(rules.map(\.line) == [3, 4] && rules.map(\.column) == [3, 1])
        let error = #expect(throws: GeoConvError.self) {
            _ = try StyleRule(StyleRuleText("kind = 'park': fil=1", file: "r.txt", line: 3, column: 3))
        }
        #expect(error?.location?.description == "r.txt:3:18")
    }

    @Test("The library's rules: made from parts, applied as a transform, reported on after")
    func libraryRules() throws {
        let rules = StyleRules([
            try StyleRule(where: "kind = 'park'", ["fill": "#2e7d32", "highlight.fill": "yellow"]),
            try StyleRule(where: nil, ["stroke-width": "3"]),
        ])
        let report = try Converter().convert(
            .memory(Array(Self.places.utf8), name: "in.geojson"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .geoJSON), transforms: [rules])
        try rules.reportUnused(into: report.diagnostics)
        let back = try OverlayDocument.load(
            .memory(report.output, name: "out.geojson"), options: ConversionOptions(inputFormat: .geoJSON)
        ).features
        #expect(back[0].style.fillColor == Color(red: 0x2e, green: 0x7d, blue: 0x32))
        #expect(back.allSatisfy { $0.style.strokeWidth == 3 })
        #expect(report.diagnostics.entries["style.rule-unused"] == nil)
    }
}
