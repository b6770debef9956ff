import GeoConv
import GeoConvTestSupport
import Testing

/// The documented correspondences of the structural comparison (docs/conservation.md), each
/// allowed exactly where the writer's format declares it and nowhere else.
@Suite struct StructuralRulesTests {
    private static func c(_ longitude: Double, _ latitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    private static let square = PolygonRings(outer: Path([c(0, 0), c(10, 0), c(10, 10), c(0, 0)]), holes: [])
    private static let line = Path([c(0, 0), c(1, 1)])
    private static let other = Path([c(2, 2), c(3, 3)])

    private func categories(
        _ expected: [ComparedFeature], _ got: [ComparedFeature], as format: FileFormat
    )
        -> [String]
    {
        StructuralComparison(format: format).differences(expected: expected, got: got).map(\.category)
    }

    @Test("A one-part multi is its part, a collection of lines a MultiLineString: in KML and Shapefile only")
    func geometryKindsMergeWhereTheFormatSaysSo() {
        let onePart = ComparedFeature(properties: [], geometry: .multiPolygon([Self.square]))
        let polygon = ComparedFeature(properties: [], geometry: .polygon(Self.square))
        #expect(categories([onePart], [polygon], as: .kml).isEmpty)
        #expect(categories([onePart], [polygon], as: .geoJSON) == ["shape.kind"])
        let lines = ComparedFeature(
            properties: [],
            geometry: .geometryCollection([
                .lineString(Self.line),
                .lineString(Self.other),
            ]))
        let multi = ComparedFeature(properties: [], geometry: .multiLineString([Self.line, Self.other]))
        #expect(categories([lines], [multi], as: .kml).isEmpty)
        #expect(categories([lines], [multi], as: .geoJSON) == ["shape.kind"])
        // A collection of two kinds stays a collection; a changed vertex is still a change.
        let mixed = ComparedFeature(
            properties: [],
            geometry: .geometryCollection([
                .lineString(Self.line),
                .point(Self.c(5, 5)),
            ]))
        #expect(categories([mixed], [multi], as: .kml) == ["shape.kind"])
        let moved = ComparedFeature(
            properties: [],
            geometry: .multiLineString([
                Self.line,
                Path([
                    Self.c(2, 2),
                    Self.c(3, 4),
                ]),
            ]))
        #expect(categories([lines], [moved], as: .kml) == ["shape.position"])
        // A one-part track's per-point values, nested once more, are the same values.
        let times: JSONValue = .array([.string("2020-01-01T00:00:00Z"), .string("2020-01-01T00:00:05Z")])
        let nested = ComparedFeature(
            properties: [("coordinateProperties", .object(["times": .array([times])]))],
            geometry: .multiLineString([Self.line]))
        let flat = ComparedFeature(
            properties: [("coordinateProperties", .object(["times": times]))],
            geometry: .lineString(Self.line))
        #expect(categories([nested], [flat], as: .kml).isEmpty)
        #expect(categories([nested], [flat], as: .geoJSON) == ["shape.kind", "property.value"])
    }

    @Test("KML holds a style, not its spelling: #000 is #000000, rgba() a colour and an opacity, to 8 bits")
    func styleComparedByValueInKML() {
        let point = Geometry.point(Self.c(1, 2))
        let css = ComparedFeature(
            properties: [
                ("name", .string("a")), ("stroke", .string("#000")),
                ("fill", .string("rgba(255,0,0,0.5)")),
            ], geometry: point)
        let kml = ComparedFeature(
            properties: [
                ("name", .string("a")), ("stroke", .string("#000000")),
                ("fill", .string("#ff0000")),
                ("fill-opacity", .number(JSONNumber(uncheckedLiteral: "0.50196"))),
            ],
            geometry: point)
        #expect(categories([css], [kml], as: .kml).isEmpty)
        #expect(categories([css], [kml], as: .geoJSON) == ["property.value", "property.value", "property.added"])
        // Another colour is a change; so is another title beside the same style.
        let red = ComparedFeature(
            properties: [
                ("name", .string("a")), ("stroke", .string("#100000")),
                ("fill", .string("#ff0000")),
                ("fill-opacity", .number(JSONNumber(uncheckedLiteral: "0.5"))),
            ],
            geometry: point)
        #expect(categories([css], [red], as: .kml).contains("property.value"))
        let renamed = ComparedFeature(
            properties: [("name", .string("b"))] + kml.properties.dropFirst(),
            geometry: point)
        #expect(categories([css], [renamed], as: .kml) == ["property.value"])
    }

    @Test("A feature's id read back as the id column of a format without ids, and as nothing else")
    func idColumnIsTheID() {
        let point = Geometry.point(Self.c(1, 2))
        let expected = ComparedFeature(
            properties: [("a", .number(JSONNumber(1)))], geometry: point,
            id: .string("nc72"))
        let got = ComparedFeature(
            properties: [("id", .string("nc72")), ("a", .number(JSONNumber(1)))],
            geometry: point)
        #expect(categories([expected], [got], as: .csv).isEmpty)
        #expect(categories([expected], [got], as: .geoJSON) == ["property.added"])
        let wrong = ComparedFeature(
            properties: [("id", .string("nc73")), ("a", .number(JSONNumber(1)))],
            geometry: point)
        #expect(categories([expected], [wrong], as: .csv) == ["property.added"])
    }

    @Test("One header: the keys come back in the file's column order, not each feature's; the model's keys anywhere")
    func columnOrderIsTheFilesOrder() {
        let point = Geometry.point(Self.c(1, 2))
        let one = JSONValue.number(JSONNumber(1))
        let first = ComparedFeature(properties: [("a", one), ("b", one)], geometry: point)
        let second = ComparedFeature(properties: [("b", one), ("c", one), ("a", one)], geometry: point)
        let secondAsColumns = ComparedFeature(properties: [("a", one), ("b", one), ("c", one)], geometry: point)
        #expect(categories([first, second], [first, secondAsColumns], as: .csv).isEmpty)
        #expect(categories([first, second], [first, secondAsColumns], as: .geoJSON) == ["property.order"])
        // In the columns' order, b before a is still a change.
        let swapped = ComparedFeature(properties: [("b", one), ("a", one)], geometry: point)
        #expect(categories([first], [swapped], as: .csv) == ["property.order"])
        // The title given by the format (GPX's name) has the writer's place.
        var titled = ComparedFeature(properties: [("time", one), ("name", .string("x"))], geometry: point)
        titled.modelKeys = ["name"]
        let nameFirst = ComparedFeature(properties: [("name", .string("x")), ("time", one)], geometry: point)
        #expect(categories([titled], [nameFirst], as: .csv).isEmpty)
    }

    @Test("GPX's order: waypoints, routes, tracks; what GPX does not hold is a missing feature, named by its warning")
    func gpxOrderIsTheWritersRank() {
        let track = ComparedFeature(
            properties: [("n", .number(JSONNumber(1)))],
            geometry: .multiLineString([Self.line]))
        let polygon = ComparedFeature(properties: [("n", .number(JSONNumber(2)))], geometry: .polygon(Self.square))
        let waypoint = ComparedFeature(properties: [("n", .number(JSONNumber(3)))], geometry: .point(Self.c(1, 2)))
        let places = [
            SourceLocation(line: 2, column: 1), SourceLocation(line: 5, column: 1),
            SourceLocation(line: 9, column: 1),
        ]
        let input = ConservationStructure.Reading(features: [track, polygon, waypoint], places: places)
        let output = ConservationStructure.Reading(features: [waypoint, track], places: [])
        let structure = ConservationStructure(converter: Converter())
        let silent = structure.changes(from: input, to: output, format: .gpx, warnings: []).silent
        #expect(silent.map(\.category) == ["feature.missing"])
        #expect(silent.first?.feature == 1)
        let dropped = Diagnostic(code: "gpx.dropped", message: "not written", location: places[1])
        #expect(structure.changes(from: input, to: output, format: .gpx, warnings: [dropped]).silent.isEmpty)
        // Without the rule (GeoJSON keeps the order), the same output is every feature changed.
        let unordered = structure.changes(from: input, to: output, format: .geoJSON, warnings: []).silent
        #expect(unordered.contains { $0.category == "feature.count" })
        #expect(unordered.contains { $0.category == "shape.kind" })
    }
}
