#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import Foundation
import GeoConvCore
import GeoConvGeometry
import GeoConvRender
import GeoConvTestSupport
import Testing

/// The renderer (`geoconv render`): pixels where the Maps SDK would put them.
@Suite("Rendering")
struct RenderTests {
    static let camera = CameraPosition(target: Coordinate(latitude: -33.86, longitude: 151.21), zoom: 14)
    static let white = Color(red: 255, green: 255, blue: 255)

    static func render(
        _ features: [Feature], scale: Double = 1, camera: CameraPosition? = camera,
        log: DiagnosticLog = DiagnosticLog()
    ) throws -> (RenderedImage, ScreenProjection) {
        let options = RenderOptions(width: 400, height: 300, scale: scale, camera: camera, background: white)
        let renderer = try OverlayRenderer(features: features, options: options, diagnostics: log)
        return (try renderer.image(features), renderer.projection)
    }

    static func isBackground(_ c: (red: Int, green: Int, blue: Int, alpha: Int)) -> Bool {
        c.red > 250 && c.green > 250 && c.blue > 250
    }

    static func line(_ coordinates: [Coordinate], color: Color, width: Double, spans: [StyleSpan] = []) -> Feature {
        var feature = Feature(geometry: .lineString(Path(coordinates)))
        feature.style.strokeColor = color
        feature.style.strokeWidth = width
        feature.style.spans = spans
        return feature
    }

    @Test("A red 10-point line has red pixels where its path projects and none elsewhere; --scale 2 doubles it")
    func redLine() throws {
        let a = Coordinate(latitude: -33.86, longitude: 151.20)
        let b = Coordinate(latitude: -33.86, longitude: 151.22)
        let feature = Self.line([a, b], color: Color(red: 255, green: 0, blue: 0), width: 10)
        let (image, projection) = try Self.render([feature])
        let pa = projection.point(a)
        let pb = projection.point(b)
        let y = Int(pa.y)
        #expect(abs(pa.y - pb.y) < 0.001 && abs(pa.y - 150) < 1, "a horizontal line through the centre: \(pa) \(pb)")
        for x in stride(from: Int(pa.x) + 6, to: Int(pb.x) - 6, by: 10) {
            let c = image.color(x: x, y: y)
            #expect(c.red > 240 && c.green < 20 && c.blue < 20, "(\(x), \(y)): \(c)")
            #expect(Self.isBackground(image.color(x: x, y: y + 8)) && Self.isBackground(image.color(x: x, y: y - 8)))
        }
        #expect(Self.isBackground(image.color(x: 5, y: 5)) && Self.isBackground(image.color(x: Int(pb.x) + 12, y: y)))
        // Half the width is 5 points: red 4 points off the centre, not 6.
        #expect(image.color(x: 200, y: y + 4).red > 200 && Self.isBackground(image.color(x: 200, y: y + 6)))

        let (double, _) = try Self.render([feature], scale: 2)
        #expect(double.width == 800 && double.height == 600)
        #expect(double.color(x: 400, y: 2 * y + 8).red > 200 && Self.isBackground(double.color(x: 400, y: 2 * y + 12)))
    }

    @Test("A polygon's hole is empty; the ring between is filled")
    func hole() throws {
        let outer = Path([
            Coordinate(latitude: -33.85, longitude: 151.20), Coordinate(latitude: -33.85, longitude: 151.22),
            Coordinate(latitude: -33.87, longitude: 151.22), Coordinate(latitude: -33.87, longitude: 151.20),
        ])
        let hole = Path([
            Coordinate(latitude: -33.855, longitude: 151.205), Coordinate(latitude: -33.855, longitude: 151.215),
            Coordinate(latitude: -33.865, longitude: 151.215), Coordinate(latitude: -33.865, longitude: 151.205),
        ])
        var feature = Feature(geometry: .polygon(PolygonRings(outer: outer, holes: [hole])))
        feature.style.fillColor = Color(red: 0, green: 200, blue: 0)
        feature.style.strokeWidth = 0
        let (image, projection) = try Self.render([feature])
        let centre = projection.point(Coordinate(latitude: -33.86, longitude: 151.21))
        #expect(Self.isBackground(image.color(x: Int(centre.x), y: Int(centre.y))), "the hole is empty")
        let between = projection.point(Coordinate(latitude: -33.86, longitude: 151.2025))
        let fill = image.color(x: Int(between.x), y: Int(between.y))
        #expect(fill.green == 200 && fill.red == 0, "\(fill)")
    }

    @Test("A 1 km circle's radius in pixels is 1000 m over the metres per pixel at its latitude and zoom")
    func circleRadius() throws {
        var feature = Feature(geometry: .circle(center: Self.camera.target, radius: 1000))
        feature.style.fillColor = Color(red: 0, green: 0, blue: 255)
        feature.style.strokeWidth = 0
        for scale in [1.0, 2.0] {
            let (image, projection) = try Self.render([feature], scale: scale)
            let radius = 1000 / projection.metresPerPoint(atLatitude: Self.camera.target.latitude) * scale
            // The SDK's scale: 156,543.03392 m per point at zoom 0 on the equator (126.04 points here).
            let expected = 1000 / (156_543.033_92 * cos(33.86 * .pi / 180) / 16_384) * scale
            #expect(
                abs(radius - expected) < 0.01 * scale,
                "1 km at zoom 14, latitude -33.86: \(radius) px, expected \(expected)")
            let cx = Int(200 * scale)
            let cy = Int(150 * scale)
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let inside = image.color(x: cx + dx * Int(radius - 2), y: cy + dy * Int(radius - 2))
                let outside = image.color(x: cx + dx * Int(radius + 2), y: cy + dy * Int(radius + 2))
                #expect(inside.blue == 255 && inside.red == 0, "scale \(scale) (\(dx), \(dy)) inside: \(inside)")
                #expect(Self.isBackground(outside), "scale \(scale) (\(dx), \(dy)) outside: \(outside)")
            }
        }
    }

    @Test("Span colours change where the span boundaries project, at fractional segments")
    func spans() throws {
        let path = [
            Coordinate(latitude: -33.86, longitude: 151.20), Coordinate(latitude: -33.86, longitude: 151.21),
            Coordinate(latitude: -33.86, longitude: 151.22),
        ]
        let spans = [
            StyleSpan(style: .solid(Color(red: 255, green: 0, blue: 0)), segments: 1.5),
            StyleSpan(style: .solid(Color(red: 0, green: 0, blue: 255)), segments: 1),
        ].compactMap { $0 }
        let (image, projection) = try Self.render([
            Self.line(path, color: Color(red: 0, green: 0, blue: 0), width: 6, spans: spans)
        ])
        let boundary = projection.point(Coordinate(latitude: -33.86, longitude: 151.215)).x
        let y = Int(projection.point(path[0]).y)
        let before = image.color(x: Int(boundary) - 6, y: y)
        let after = image.color(x: Int(boundary) + 6, y: y)
        #expect(before.red > 240 && before.blue < 20, "\(before)")
        #expect(after.blue > 240 && after.red < 20, "\(after)")
    }

    @Test("A marker is a pin in its colour with its tip at the position")
    func marker() throws {
        var feature = Feature(geometry: .point(Self.camera.target))
        feature.style.markerColor = Color(red: 0, green: 128, blue: 255)
        let (image, _) = try Self.render([feature])
        let head = image.color(x: 200, y: 150 - 43 + 7)  // the pin's head, above the tip
        #expect(head.blue == 255 && head.green == 128, "\(head)")
        #expect(Self.isBackground(image.color(x: 200, y: 155)), "nothing below the tip")
    }

    @Test("A stamp image on a span is reported as not drawn: the renderer draws no sprite")
    func stampNotDrawn() throws {
        var stamped = Self.line(
            [Coordinate(latitude: -33.86, longitude: 151.20), Coordinate(latitude: -33.86, longitude: 151.22)],
            color: Color(red: 0, green: 0, blue: 0), width: 4,
            spans: [
                StyleSpan(
                    style: .solid(Color(red: 1, green: 2, blue: 3), stamp: StampStyle(.sprite, image: "arrow.png")),
                    segments: 1)
            ].compactMap { $0 })
        stamped.style.icon = nil
        let log = DiagnosticLog()
        _ = try Self.render([stamped], log: log)
        #expect(log.entries["render.stamp-not-drawn"] != nil)
    }

    @Test(
        "--cluster draws markers clustered at the camera's zoom: a bubble in its bucket's colour where they crowd, a pin where one stands alone"
    )
    func clusterBubbles() throws {
        var features: [Feature] = (0..<25).map { i in
            Feature(
                geometry: .point(
                    Coordinate(latitude: -33.86 + Double(i % 5) * 0.0004, longitude: 151.21 + Double(i / 5) * 0.0004)))
        }
        var lonely = Feature(geometry: .point(Coordinate(latitude: -33.86, longitude: 151.2265)))
        lonely.style.markerColor = Color(red: 0, green: 200, blue: 0)
        features.append(lonely)
        var options = RenderOptions(width: 400, height: 300, camera: Self.camera, background: Self.white)
        options.clustersMarkers = true
        let renderer = try OverlayRenderer(features: features, options: options, diagnostics: DiagnosticLog())
        let image = try renderer.image(features)
        // 25 markers within ~20 points: one "20+" bubble (0x669900), drawn at the marker that
        // started the cluster, as the utility libraries place it.
        let crowd = renderer.projection.point(Coordinate(latitude: -33.86, longitude: 151.21))
        let rim = image.color(x: Int(crowd.x), y: Int(crowd.y) + 15)  // below the label, inside the white ring
        #expect(rim.red == 0x66 && rim.green == 0x99 && rim.blue == 0, "\(rim)")
        let alone = renderer.projection.point(
            lonely.geometry.flatMap { if case .point(let c) = $0 { c } else { nil } } ?? Self.camera.target)
        let head = image.color(x: Int(alone.x), y: Int(alone.y) - 36)
        #expect(head.green == 200 && head.red == 0, "the lone marker keeps its pin: \(head)")
    }

    @Test(
        "A marker's PNG icon is drawn with its anchor at the position; an icon that cannot be found is a pin and a warning"
    )
    func icons() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 20 × 20 magenta icon, drawn by the renderer itself.
        let magenta = Color(red: 255, green: 0, blue: 255)
        let iconRenderer = try OverlayRenderer(
            features: [], options: RenderOptions(width: 20, height: 20, camera: Self.camera, background: magenta),
            diagnostics: DiagnosticLog())
        try iconRenderer.write([], to: directory.appendingPathComponent("icon.png").path)
        var marker = Feature(geometry: .point(Self.camera.target))
        marker.style.icon = "icon.png"
        marker.style.groundAnchor = Anchor(x: 0, y: 0)  // top-left corner at the position
        let log = DiagnosticLog()
        let renderer = try OverlayRenderer(
            features: [marker],
            options: RenderOptions(width: 400, height: 300, camera: Self.camera, background: Self.white),
            iconDirectory: directory.path, diagnostics: log)
        let image = try renderer.image([marker])
        let inside = image.color(x: 210, y: 160)
        let outside = image.color(x: 195, y: 145)
        #expect(inside.red == 255 && inside.green == 0 && inside.blue == 255, "\(inside)")
        #expect(Self.isBackground(outside), "the icon hangs right and down from its anchor: \(outside)")
        #expect(log.entries.isEmpty)
        marker.style.icon = "missing.png"
        let missing = DiagnosticLog()
        let fallback = try OverlayRenderer(
            features: [marker], options: RenderOptions(width: 400, height: 300, camera: Self.camera),
            iconDirectory: directory.path, diagnostics: missing)
        _ = try fallback.image([marker])
        #expect(missing.entries["render.icon-missing"] != nil)
    }
}
#else
import Testing

@Suite("Rendering (needs the Rendering trait)")
struct RenderSkipped {
    @Test("Drawing with Cairo and MBTiles with SQLite", .disabled("built without the Rendering trait"))
    func skipped() {}
}
#endif
