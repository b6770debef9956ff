#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
public import GeoConvCore
import GeoConvGeometry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A picture's pixels, for tests and tiles: `argb` row by row, 0xAARRGGBB premultiplied.
public struct RenderedImage: Sendable {
    /// Size in pixels.
    public let width: Int, height: Int
    /// The pixels.
    public let argb: [UInt32]

    /// The colour at a pixel, alpha un-premultiplied: red, green, blue 0…255, alpha 0…255.
    public func color(x: Int, y: Int) -> (red: Int, green: Int, blue: Int, alpha: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0, 0) }
        let value = argb[y * width + x]
        let a = Int(value >> 24)
        let r = Int(value >> 16 & 0xFF)
        let g = Int(value >> 8 & 0xFF)
        let b = Int(value & 0xFF)
        guard a > 0 else { return (0, 0, 0, 0) }
        return (min(255, r * 255 / a), min(255, g * 255 / a), min(255, b * 255 / a), a)
    }
}

/// Draws overlays as the Maps SDK shows them: Web Mercator at a camera, stroke widths in
/// points, spans (solid and gradient) at their fractional positions, geodesic lines along
/// the great circle, polygons with holes, circles as true geodesic circles, markers as the
/// default pin in their colour or as their icon (a local PNG or one inside a KMZ), anchors
/// honoured. The SDK's defaults: lines 1 point blue; polygons filled blue with a 1-point
/// black outline; circles a 1-point black outline; pins red.
///
/// What it cannot draw is reported, as a conversion reports what it cannot write: stamp
/// images of spans, icons it cannot find or read, altitudes (drawn on the ground), tilt.
public struct OverlayRenderer {
    /// The options.
    public let options: RenderOptions
    /// Where points go in the picture.
    public let projection: ScreenProjection
    private let diagnostics: DiagnosticLog
    private let iconDirectory: String?
    private let embeddedFiles: EmbeddedFiles?

    /// A renderer for `features` (WGS84): the camera from `options`, else fitted to them.
    /// `iconDirectory` is where relative icon paths are found (the input's folder).
    /// - Throws: `invalidInput` when no camera is given and nothing has a position.
    public init(
        features: [Feature], header: DocumentHeader = DocumentHeader(), options: RenderOptions,
        iconDirectory: String? = nil,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        self.options = options
        self.diagnostics = diagnostics
        self.iconDirectory = iconDirectory
        embeddedFiles = header.embeddedFiles
        let camera: CameraPosition
        if let given = options.camera {
            camera = given
        } else {
            var bounds: CoordinateBounds?
            for feature in features {
                var geometry = feature.geometry
                if case .circle(let c, let r)? = geometry {
                    geometry = .polygon(PolygonRings(outer: CirclePolygon.ring(center: c, radius: r)))
                }
                if let box = geometry?.bounds { bounds = bounds.map { $0.union(box) } ?? box }
            }
            guard let bounds else {
                throw GeoConvError(
                    .invalidInput, "nothing to draw: no feature has a position",
                    hint: "give a camera with --camera LAT,LNG,ZOOM")
            }
            camera = CameraPosition.fitting(
                bounds, viewport: (options.width, options.height), insets: EdgeInsets(padding: options.padding))
        }
        projection = ScreenProjection(camera: camera, width: options.width, height: options.height)
    }

    /// A renderer with a projection of its own (a tile's).
    init(
        projection: ScreenProjection, options: RenderOptions, iconDirectory: String?, embeddedFiles: EmbeddedFiles?,
        diagnostics: DiagnosticLog
    ) {
        self.projection = projection
        self.options = options
        self.iconDirectory = iconDirectory
        self.embeddedFiles = embeddedFiles
        self.diagnostics = diagnostics
    }

    /// Draws `features` into PNG bytes; `nil` when nothing was drawn (every pixel clear).
    func png(_ features: [Feature]) throws(GeoConvError) -> [UInt8]? {
        let canvas = try Canvas(imageWidth: options.width, height: options.height, scale: options.scale)
        try draw(features, on: canvas)
        guard !canvas.isClear() else { return nil }
        return try canvas.pngData()
    }

    /// Draws `features` into `path`: PNG, SVG or PDF by its extension. The file appears
    /// whole or not at all.
    public func write(_ features: [Feature], to path: String) throws(GeoConvError) {
        guard let format = RenderFormat(path: path) else {
            throw GeoConvError(
                .usage, "cannot tell the picture format of '\(path)'", hint: "name it .png, .svg or .pdf")
        }
        let temporary = path + ".geoconv-\(getpid()).tmp"
        do throws(GeoConvError) {
            if format == .png {
                let canvas = try Canvas(imageWidth: options.width, height: options.height, scale: options.scale)
                try draw(features, on: canvas)
                try canvas.writePNG(to: temporary)
            } else {
                let canvas = try Canvas(vector: format, path: temporary, width: options.width, height: options.height)
                try draw(features, on: canvas)
                try canvas.finish()
            }
            guard rename(temporary, path) == 0 else { throw GeoConvError(.io, "cannot write '\(path)'") }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Draws `features` into pixels (`options.scale` pixels per point).
    public func image(_ features: [Feature]) throws(GeoConvError) -> RenderedImage {
        let canvas = try Canvas(imageWidth: options.width, height: options.height, scale: options.scale)
        try draw(features, on: canvas)
        let (width, height, argb) = canvas.pixels()
        return RenderedImage(width: width, height: height, argb: argb)
    }

    private func draw(_ features: [Feature], on canvas: Canvas) throws(GeoConvError) {
        if let background = options.background { canvas.fillBackground(background) }
        defer { if let legend = options.legend { canvas.legend(legend, height: options.height) } }
        if projection.camera.viewingAngle > 0 {
            try diagnostics.warn(RenderCode.tiltIgnored, "the camera's tilt is not drawn: pictures look straight down")
        }
        // The SDK's order: z-index, then the order they were added.
        let ordered = features.enumerated().sorted { a, b in
            let za = a.element.style.zIndex ?? 0
            let zb = b.element.style.zIndex ?? 0
            return za != zb ? za < zb : a.offset < b.offset
        }
        var markers: [(index: Int, position: Coordinate)] = []
        for (index, feature) in ordered {
            guard let geometry = feature.geometry else { continue }
            if options.clustersMarkers, case .point(let position) = geometry {
                markers.append((index, position))  // drawn clustered, on top
                continue
            }
            if let mode = feature[model: .altitudeMode], mode != "clampToGround", mode != "clampToSeaFloor" {
                diagnostics.note(
                    RenderCode.altitudeFlattened,
                    "3-D altitude modes are drawn on the ground, as the Maps SDK draws overlays")
            }
            try draw(geometry, of: feature, on: canvas)
        }
        guard !markers.isEmpty else { return }
        let clusterer = MarkerClusterer(positions: markers.map(\.position))
        for cluster in clusterer.clusters(atZoom: projection.camera.zoom) {
            if cluster.members.count == 1, let only = cluster.members.first {
                try marker(markers[only].position, features[markers[only].index], on: canvas)
                continue
            }
            // The utility libraries' buckets and their colours (GMUDefaultClusterIconGenerator).
            let count = cluster.members.count
            let bucket = Self.buckets.last { count >= $0.size }
            let label = bucket.map { "\($0.size)+" } ?? String(count)
            let color = bucket?.color ?? Color(red: 0x00, green: 0x99, blue: 0xCC)
            canvas.bubble(
                at: projection.point(cluster.position), radius: 14 + 2 * Double(min(6, label.count)), color: color,
                label: label)
        }
    }

    /// Cluster sizes shown as buckets ("10+") and the colours the Maps utility libraries use.
    static let buckets: [(size: Int, color: Color)] = [
        (10, Color(red: 0x00, green: 0x99, blue: 0xCC)), (20, Color(red: 0x66, green: 0x99, blue: 0x00)),
        (50, Color(red: 0x66, green: 0x99, blue: 0x00)), (100, Color(red: 0xFF, green: 0x88, blue: 0x00)),
        (200, Color(red: 0xFF, green: 0x88, blue: 0x00)), (500, Color(red: 0xCC, green: 0x00, blue: 0x00)),
        (1000, Color(red: 0x99, green: 0x33, blue: 0xCC)),
    ]

    private func draw(_ geometry: Geometry, of feature: Feature, on canvas: Canvas) throws(GeoConvError) {
        let style = feature.style
        switch geometry {
        case .point(let c): try marker(c, feature, on: canvas)
        case .multiPoint(let points): for c in points { try marker(c, feature, on: canvas) }
        case .lineString(let path): try polyline(path.coordinates, style, on: canvas)
        case .multiLineString(let lines): for line in lines { try polyline(line.coordinates, style, on: canvas) }
        case .polygon(let rings):
            polygon(
                rings, fill: style.fillColor ?? Self.blue, stroke: style.strokeColor ?? Self.black, style, on: canvas)
        case .multiPolygon(let polygons):
            for rings in polygons {
                polygon(
                    rings, fill: style.fillColor ?? Self.blue, stroke: style.strokeColor ?? Self.black, style,
                    on: canvas)
            }
        case .circle(let center, let radius):
            let ring = CirclePolygon.ring(center: center, radius: radius)
            polygon(
                PolygonRings(outer: ring), fill: style.fillColor ?? Self.clear, stroke: style.strokeColor ?? Self.black,
                style, on: canvas,
                geodesicEdges: false)
        case .geometryCollection(let members): for member in members { try draw(member, of: feature, on: canvas) }
        case .empty: break
        }
    }

    static let blue = Color(red: 0, green: 0, blue: 255)
    static let black = Color(red: 0, green: 0, blue: 0)
    static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    static let pinRed = Color(red: 0xEA, green: 0x43, blue: 0x35)

    private func polygon(
        _ rings: PolygonRings, fill: Color, stroke: Color, _ style: Style, on canvas: Canvas, geodesicEdges: Bool? = nil
    ) {
        let geodesic = geodesicEdges ?? (style.geodesic ?? false)
        canvas.clearPath()
        for ring in rings.rings where !ring.isEmpty {
            canvas.add(projection.points(ring.closed.coordinates, geodesic: geodesic), closed: true)
        }
        canvas.fillPreserve(fill)
        let width = style.strokeWidth ?? 1
        if width > 0 { canvas.stroke(width: width, color: stroke) } else { canvas.clearPath() }
    }

    private func polyline(_ path: [Coordinate], _ style: Style, on canvas: Canvas) throws(GeoConvError) {
        guard path.count >= 2 else { return }
        let width = style.strokeWidth ?? 1
        let geodesic = style.geodesic ?? false
        guard !style.spans.isEmpty else {
            canvas.clearPath()
            canvas.add(projection.points(path, geodesic: geodesic), closed: false)
            canvas.stroke(width: width, color: style.strokeColor ?? Self.blue)
            return
        }
        if style.spans.contains(where: { $0.style.stamp != nil }) {
            try diagnostics.warn(
                RenderCode.stampNotDrawn, "stamp images of style spans are not drawn; their colours are")
        }
        // Each piece of the line between span boundaries (and, in a gradient, every
        // sixteenth of a segment) in its colour, at the span's fractional position.
        for piece in SpanPieces(segments: path.count - 1, spans: style.spans) {
            let a = Self.along(path, piece.start, geodesic: geodesic)
            let b = Self.along(path, piece.end, geodesic: geodesic)
            var points = [a]
            let first = Int(piece.start.rounded(.down)) + 1
            let last = Int(piece.end.rounded(.up)) - 1
            if first <= last { for i in first...last { points.append(path[i]) } }
            points.append(b)
            canvas.clearPath()
            canvas.add(projection.points(points, geodesic: geodesic), closed: false)
            canvas.stroke(width: width, color: piece.color)  // round caps fill the wedge where pieces meet at a vertex
        }
    }

    /// The position `t` segments along `path` (fractions between vertices along the great
    /// circle when geodesic, else straight in the projection).
    static func along(_ path: [Coordinate], _ t: Double, geodesic: Bool) -> Coordinate {
        let i = min(path.count - 2, max(0, Int(t.rounded(.down))))
        let f = min(1, max(0, t - Double(i)))
        let a = path[i]
        let b = path[i + 1]
        if f == 0 { return a }
        if f == 1 { return b }
        if geodesic { return Spherical.interpolate(from: a, to: b, fraction: f) }
        let pa = WorldPoints.point(a)
        let pb = WorldPoints.point(b)
        return WorldPoints.coordinate(x: pa.x + (pb.x - pa.x) * f, y: pa.y + (pb.y - pa.y) * f)
    }

    private func marker(_ c: Coordinate, _ feature: Feature, on canvas: Canvas) throws(GeoConvError) {
        let point = projection.point(c)
        let style = feature.style
        let opacity = style.opacity ?? 1
        if let icon = style.icon {
            if let file = try iconFile(icon) {
                let drawn = canvas.image(
                    at: point, pngPath: file.path, anchor: style.groundAnchor, scale: style.iconScale ?? 1)
                file.cleanUp()  // an icon taken out of the KMZ is removed, drawn or not
                if drawn { return }
            }
            try diagnostics.warn(
                RenderCode.iconMissing,
                "a marker icon that is not a PNG file beside the input or among the files it carries is drawn as the default pin",
                hint: "icons on the web are never fetched")
        }
        var color = style.markerColor ?? Self.pinRed
        color.opacity *= opacity
        canvas.pin(at: point, color: color, anchor: style.groundAnchor)
    }

    /// A local file for an icon: beside the input, or extracted from the KMZ to a temporary file.
    private func iconFile(_ icon: String) throws(GeoConvError) -> (path: String, cleanUp: () -> Void)? {
        guard !icon.contains("://"), icon.lowercased().hasSuffix(".png") else { return nil }
        if let files = embeddedFiles, files.paths.contains(icon) {
            let bytes = try files.contents(of: icon)
            let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            let path = directory + "/geoconv-icon-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).png"
            guard let handle = fopen(path, "wb") else { return nil }
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
            fclose(handle)
            return (path, { unlink(path) })
        }
        let path = icon.hasPrefix("/") ? icon : (iconDirectory.map { $0 + "/" } ?? "") + icon
        return access(path, R_OK) == 0 ? (path, {}) : nil
    }
}
#endif
