import GeoConvCore
import GeoConvTestSupport
import Testing

@Suite("Color")
struct ColorTests {
    @Test("KML aabbggrr to CSS and back (appendix: 7fff0000 is blue at 50 %)")
    func kmlColours() throws {
        let blue = try #require(Color(kml: "7fff0000"))
        #expect(blue.red == 0 && blue.green == 0 && blue.blue == 255)
        #expect(blue.cssHex == "#0000ff")
        #expect(abs(blue.opacity - 0.498) < 0.0005)
        #expect(blue.kmlHex == "7fff0000")
        let red = try #require(Color(kml: "ff0000ff"))
        #expect(red == .red)
        #expect(Color(kml: " #FF00FF00\n")?.cssHex == "#00ff00")
    }

    @Test(
        "CSS spellings",
        arguments: [
            ("#f00", "ff0000ff"), ("#00FF00", "ff00ff00"), ("0000ff", "ffff0000"), ("#0000ff80", "80ff0000"),
            ("white", "ffffffff"), ("transparent", "00000000"), ("Orange", "ff00a5ff"),
        ])
    func css(text: String, kml: String) throws {
        #expect(try #require(Color(css: text)).kmlHex == kml)
    }

    @Test("Rejected spellings", arguments: ["", "#12", "#12345", "#gggggg", "7fff000", "notacolor", "#ff0000ff00"])
    func rejected(text: String) {
        #expect(Color(css: text) == nil)
        #expect(Color(kml: text) == nil)
    }

    @Test("Opacity is kept as a fraction and rounded only for KML")
    func opacity() {
        let half = Color.red.withOpacity(0.5)
        #expect(half.opacity == 0.5)
        #expect(half.kmlHex == "800000ff")
        #expect(Color(red: 1, green: 2, blue: 3, opacity: 7).opacity == 1)
        #expect(Color(red: 1, green: 2, blue: 3, opacity: -1).opacity == 0)
    }
}

@Suite("Camera position clamping")
struct CameraTests {
    @Test("Latitude 100 clamps to 85, longitude 480 wraps to 120 (seed 001)")
    func clamping() {
        let camera = CameraPosition(target: Coordinate(latitude: 100, longitude: 480), zoom: 5)
        #expect(camera.target.latitude == 85)
        #expect(camera.target.longitude == 120)
        #expect(CameraPosition(target: Coordinate(latitude: -90, longitude: 180), zoom: 1).target.longitude == -180)
        #expect(CameraPosition(target: Coordinate(latitude: -90, longitude: -540), zoom: 1).target.longitude == -180)
        #expect(CameraPosition(target: Coordinate(latitude: -90, longitude: 0), zoom: 1).target.latitude == -85)
    }

    @Test("Zoom 4 in the range 10…15 becomes 10 (seed 001)")
    func zoomRange() {
        let camera = CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 4)
        #expect(camera.zoom == 4)
        #expect(camera.clamped(toZoomRange: 10...15).zoom == 10)
        #expect(CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 30).zoom == 22)
    }

    @Test("Viewing angle is at most 30° at zoom ≤ 10 and 65° at zoom ≥ 16, interpolated between")
    func viewingAngle() {
        func angle(_ zoom: Double) -> Double {
            CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: zoom, viewingAngle: 90).viewingAngle
        }
        #expect(angle(5) == 30)
        #expect(angle(10) == 30)
        #expect(angle(13) == 47.5)
        #expect(angle(16) == 65)
        #expect(angle(20) == 65)
        #expect(
            CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 12, viewingAngle: -4).viewingAngle == 0)
    }

    @Test("Bearing wraps into [0, 360)")
    func bearing() {
        #expect(CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 1, bearing: -90).bearing == 270)
        #expect(CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 1, bearing: 725).bearing == 5)
    }
}

@Suite("Coordinate bounds")
struct BoundsTests {
    @Test("Two corners make the smaller box, across the antimeridian when that is smaller")
    func corners() {
        let pacific = CoordinateBounds(
            Coordinate(latitude: -10, longitude: 170), Coordinate(latitude: 10, longitude: -170))
        #expect(pacific.crossesAntimeridian)
        #expect(pacific.west == 170 && pacific.east == -170)
        #expect(pacific.longitudeSpan == 20)
        #expect(pacific.contains(Coordinate(latitude: 0, longitude: 180)))
        #expect(pacific.contains(Coordinate(latitude: 0, longitude: -175)))
        #expect(!pacific.contains(Coordinate(latitude: 0, longitude: 0)))
        #expect(pacific.center.longitude == -180 || pacific.center.longitude == 180)

        let europe = CoordinateBounds(Coordinate(latitude: 40, longitude: -5), Coordinate(latitude: 55, longitude: 20))
        #expect(!europe.crossesAntimeridian)
        #expect(europe.center == Coordinate(latitude: 47.5, longitude: 7.5))
    }

    @Test("Including a point grows the box the shorter way")
    func including() {
        var bounds = CoordinateBounds(Coordinate(latitude: 0, longitude: 170), Coordinate(latitude: 1, longitude: 175))
        bounds.include(Coordinate(latitude: 2, longitude: -175))
        #expect(bounds.west == 170 && bounds.east == -175 && bounds.north == 2)
        bounds.include(Coordinate(latitude: -3, longitude: 160))
        #expect(bounds.west == 160 && bounds.south == -3)
    }

    @Test("Geometry bounds of a line across the antimeridian")
    func geometryBounds() throws {
        let line = Geometry.lineString([
            Coordinate(latitude: 45, longitude: 170), Coordinate(latitude: 45, longitude: -170),
        ])
        let bounds = try #require(line.bounds)
        #expect(bounds.west == 170 && bounds.east == -170)
        #expect(Geometry.empty(.point).bounds == nil)
    }
}

@Suite("Geometry, features and overlays")
struct GeometryModelTests {
    @Test("Kinds, emptiness and counts")
    func kinds() {
        let polygon = Geometry.polygon(
            PolygonRings(outer: [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                Coordinate(latitude: 1, longitude: 1),
            ]))
        #expect(polygon.kind == .polygon)
        #expect(polygon.coordinateCount == 3)
        #expect(!polygon.isEmpty)
        #expect(Geometry.empty(.multiPolygon).kind == .multiPolygon)
        #expect(Geometry.empty(.point).isEmpty)
        #expect(Geometry.geometryCollection([.empty(.lineString)]).isEmpty)
        #expect(Geometry.circle(center: Coordinate(latitude: 1, longitude: 2), radius: 50).coordinateCount == 1)
        let moved = polygon.mapCoordinates { Coordinate(latitude: $0.latitude + 1, longitude: $0.longitude) }
        guard case .polygon(let rings) = moved else {
            Issue.record("kind changed")
            return
        }
        #expect(rings.outer[2] == Coordinate(latitude: 2, longitude: 1))
    }

    @Test("A path closes itself only when open")
    func closing() {
        let open: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
            Coordinate(latitude: 1, longitude: 1),
        ]
        #expect(!open.isClosed)
        #expect(open.closed.count == 4 && open.closed.isClosed)
        #expect(open.closed.closed.count == 4)
    }

    @Test("Style spans need a positive, finite segment count")
    func spans() {
        #expect(StyleSpan(style: .solid(.red), segments: 0) == nil)
        #expect(StyleSpan(style: .solid(.red), segments: -1) == nil)
        #expect(StyleSpan(style: .solid(.red), segments: .nan) == nil)
        #expect(StyleSpan(style: .solid(.red), segments: 0.5)?.segments == 0.5)
        #expect(StyleSpan(style: .solid(.red)).segments == 1)
        let gradient = StrokeStyle.gradient(from: .black, to: .white)
        #expect(gradient.isGradient)
        #expect(gradient.color(at: 0.5).red == 128)
        #expect(!StrokeStyle.solid(.blue, stamp: StampStyle(.sprite, image: "arrow.png")).isGradient)
    }

    @Test("Overlays carry the Maps SDK defaults")
    func defaults() throws {
        let path: Path = [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1)]
        let polyline = Polyline(path: path)
        #expect(
            polyline.strokeWidth == 1 && polyline.strokeColor == .blue && !polyline.geodesic && polyline.spans.isEmpty)
        let circle = Circle(position: Coordinate(latitude: 1, longitude: 2), radius: 1000)
        #expect(circle.strokeColor == .black && circle.fillColor == .clear && circle.strokeWidth == 1)
        let polygon = Polygon(path: path)
        #expect(polygon.strokeColor == .black && polygon.strokeWidth == 1)
        let marker = Marker(position: Coordinate(latitude: 1, longitude: 2), title: "Pin")
        #expect(marker.groundAnchor == Anchor(x: 0.5, y: 1) && marker.infoWindowAnchor == Anchor(x: 0.5, y: 0))

        // A bare feature reads with the defaults; an overlay survives the trip through Feature.
        let read = try #require(Polyline(Feature(geometry: .lineString(path))))
        #expect(read == polyline)
        var styled = Polyline(path: path)
        styled.spans = [StyleSpan(style: .gradient(from: .red, to: .blue))]
        styled.geodesic = true
        #expect(Polyline(styled.feature) == styled)
        #expect(Circle(circle.feature) == circle)
        #expect(Marker(marker.feature) == marker)
        #expect(Polygon(Feature(geometry: .point(Coordinate(latitude: 0, longitude: 0)))) == nil)
    }
}

@Suite("Numbers and JSON values")
struct NumberTests {
    @Test(
        "Shortest decimals, without exponents",
        arguments: [
            (38.5, "38.5"), (-120.2, "-120.2"), (1e-05, "0.00001"), (-1.5e-07, "-0.00000015"), (0.0, "0"), (-0.0, "-0"),
            (123.0, "123"), (1e16, "10000000000000000"), (1.25e17, "125000000000000000"),
            (0.1 + 0.2, "0.30000000000000004"),
        ])
    func shortest(value: Double, text: String) {
        #expect(DecimalFormatter.shortest(value) == text)
        #expect(Double(DecimalFormatter.shortest(value)) == value || value == 0)
    }

    @Test("Fixed decimals round half away from zero and drop trailing zeros")
    func fixed() {
        #expect(DecimalFormatter.fixed(1.23456, digits: 3) == "1.235")
        #expect(DecimalFormatter.fixed(-1.23456, digits: 3) == "-1.235")
        #expect(DecimalFormatter.fixed(2.5, digits: 0) == "3")
        #expect(DecimalFormatter.fixed(1.10, digits: 4) == "1.1")
    }

    @Test("JSON number literals keep their text")
    func literals() throws {
        let big = try #require(JSONNumber(literal: "12345678901234567890"))
        #expect(big.literal == "12345678901234567890")
        #expect(big.isInteger)
        #expect(JSONNumber(literal: "-0.5e+10") != nil)
        for bad in ["", "-", "01", "1.", ".5", "1e", "+1", "NaN", "1e999x", "0x10"] {
            #expect(JSONNumber(literal: bad) == nil, "\(bad) is not JSON")
        }
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(0.1)?.literal == "0.1")
        let value: JSONValue = ["name": "Hyde Park", "area": 16, "tags": ["park", true, nil]]
        #expect(value.objectValue?.keys.elementsEqual(["name", "area", "tags"]) == true)
    }
}

@Suite("Errors and diagnostics")
struct DiagnosticsTests {
    @Test("Errors render like compiler diagnostics")
    func rendering() {
        let error = GeoConvError(
            .invalidInput, "bad thing", at: SourceLocation(file: "in.kml", line: 120, column: 17),
            hint: "fix it")
        #expect(error.description == "in.kml:120:17: error: bad thing\n  hint: fix it")
        #expect(GeoConvError(.io, "x", at: SourceLocation(byteOffset: 12)).description == "byte 12: error: x")
        #expect(
            GeoConvError(.io, "x", at: SourceLocation(byteOffset: 12)).inFile("a.polyline").description
                == "a.polyline: byte 12: error: x")
    }

    @Test("Warnings are counted by kind; strict mode throws the first")
    func counting() throws {
        let log = DiagnosticLog()
        try log.warn(LetterCode.a, "dropped A", at: SourceLocation(file: "f", line: 1))
        try log.warn(LetterCode.a, "dropped A", at: SourceLocation(file: "f", line: 2))
        try log.warn(LetterCode.b, "dropped B")
        #expect(log.count == 3)
        // The document's own (no place) first, then by first place, whatever order they came in.
        #expect(log.summary == ["warning: dropped B [b]", "f:1: warning: dropped A [a] (2 times)"])
        try log.warn(LetterCode.c, "dropped C", at: SourceLocation(file: "f", line: 1, column: 1))
        #expect(log.summary.last == "f:1:1: warning: dropped C [c]")

        let strict = DiagnosticLog(strict: true)
        #expect(throws: GeoConvError.self) { try strict.warn(LetterCode.a, "dropped A") }
        do {
            try strict.warn(LetterCode.a, "dropped A")
        } catch {
            #expect(error.code == .dataLoss)
        }
    }
}

@Suite("Model keys")
struct ModelKeyTests {
    @Test("The written names stay as files hold them")
    func names() {
        let names = [
            ModelKey.radius.name, ModelKey.opacity.name, ModelKey.circleCenter.name, ModelKey.spans.name,
            ModelKey.groundAnchor.name,
            ModelKey.infoWindowAnchor.name, ModelKey.zIndex.name, ModelKey.span.name, ModelKey.geodesic.name,
            ModelKey.extrude.name,
            ModelKey.altitudeMode.name, ModelKey.balloonText.name, ModelKey.folder.name, ModelKey.latLonQuad.name,
            ModelKey.highlightStyle.name, ModelKey.view.name, ModelKey.region.name, ModelKey.displayNames.name,
            ModelKey.latLonBox.name,
            ModelKey.camera.name, ModelKey.tileLayers.name, ModelKey.id.name,
        ]
        #expect(
            names == [
                "geoconv:radius", "geoconv:opacity", "geoconv:circle-center", "geoconv:spans", "geoconv:ground-anchor",
                "geoconv:info-window-anchor", "geoconv:z-index", "geoconv:span", "geoconv:geodesic", "geoconv:extrude",
                "geoconv:altitudeMode", "geoconv:balloonText", "geoconv:folder", "geoconv:latLonQuad",
                "geoconv:highlight-style", "geoconv:view", "geoconv:region", "geoconv:display-names",
                "geoconv:latLonBox",
                "geoconv:camera", "geoconv:tileLayers", "geoconv:id",
            ])
        #expect(names.allSatisfy(ModelKey.isModelKey))
        #expect(!ModelKey.isModelKey("marker-symbol"))
    }

    @Test("Typed access reads the value's kind and writes its JSON")
    func typedAccess() {
        var feature = Feature(
            geometry: nil,
            properties: ["geoconv:radius": 12, "geoconv:z-index": "3", "geoconv:altitudeMode": "absolute"])
        #expect(feature[model: .radius] == 12)
        #expect(feature.properties[.radius] == 12)
        #expect(feature[model: .zIndex] == nil)  // a string, not an integer
        #expect(feature[model: .altitudeMode] == "absolute")
        feature[model: .zIndex] = 4
        feature[model: .folder] = ["Walks"]
        feature[model: .altitudeMode] = nil
        #expect(feature.properties == ["geoconv:radius": 12, "geoconv:z-index": 4, "geoconv:folder": ["Walks"]])
        #expect(feature.properties.removeValue(forKey: .radius) == 12)
    }
}

/// Codes for the log's tests: one letter each.
private enum LetterCode: String, DiagnosticCodes {
    case a, b, c
}

@Suite("Style.isEmpty")
struct StyleEmptinessTests {
    @Test("isEmpty: true with no field set (and once a set field is unset), false with any one field set")
    func eachField() {
        let setters: [(String, (inout Style) -> Void)] = [
            ("strokeColor", { $0.strokeColor = .red }), ("strokeWidth", { $0.strokeWidth = 2 }),
            ("fillColor", { $0.fillColor = .red }), ("geodesic", { $0.geodesic = false }),
            ("spans", { $0.spans = [StyleSpan(style: .solid(.red))] }), ("icon", { $0.icon = "a.png" }),
            ("iconScale", { $0.iconScale = 1 }), ("markerColor", { $0.markerColor = .red }),
            ("markerSymbol", { $0.markerSymbol = "bus" }), ("markerSize", { $0.markerSize = "small" }),
            ("groundAnchor", { $0.groundAnchor = Anchor(x: 0.5, y: 1) }),
            ("infoWindowAnchor", { $0.infoWindowAnchor = Anchor(x: 0.5, y: 0) }), ("rotation", { $0.rotation = 0 }),
            ("opacity", { $0.opacity = 1 }), ("zIndex", { $0.zIndex = 0 }),
        ]
        #expect(Style().isEmpty)
        for (name, set) in setters {
            var style = Style()
            set(&style)
            #expect(!style.isEmpty, "\(name)")
        }
        var style = Style()
        style.strokeColor = .red
        style.strokeColor = nil
        #expect(style.isEmpty)
    }
}
