/// A marker, as the Maps SDK's `GMSMarker` describes one, with its defaults filled in.
/// Convert to and from `Feature` to read or write it in any format.
public struct Marker: Hashable, Sendable {
    /// Where the marker stands.
    public var position: Coordinate
    /// Info-window title.
    public var title: String?
    /// Info-window text.
    public var snippet: String?
    /// The icon (URL or document-relative path); `nil` is the default pin.
    public var icon: String?
    /// The icon point placed on `position`. Default bottom centre (0.5, 1).
    public var groundAnchor: Anchor = .bottomCenter
    /// The icon point where the info window attaches. Default top centre (0.5, 0).
    public var infoWindowAnchor: Anchor = .topCenter
    /// Degrees clockwise. Default 0.
    public var rotation: Double = 0
    /// 0…1. Default 1.
    public var opacity: Double = 1
    /// Drawing order. Default 0.
    public var zIndex: Int = 0

    /// Creates a marker at a position with the Maps SDK defaults.
    public init(position: Coordinate, title: String? = nil, snippet: String? = nil) {
        self.position = position
        self.title = title
        self.snippet = snippet
    }

    /// Reads a marker from a point feature, filling in the defaults; `nil` for other geometries.
    public init?(_ feature: Feature) {
        guard case .point(let position)? = feature.geometry else { return nil }
        self.init(position: position, title: feature.title, snippet: feature.snippet)
        let style = feature.style
        icon = style.icon
        groundAnchor = style.groundAnchor ?? .bottomCenter
        infoWindowAnchor = style.infoWindowAnchor ?? .topCenter
        rotation = style.rotation ?? 0
        opacity = style.opacity ?? 1
        zIndex = style.zIndex ?? 0
    }

    /// The marker as a feature, every style field explicit.
    public var feature: Feature {
        Feature(
            geometry: .point(position), title: title, snippet: snippet,
            style: Style(
                icon: icon, groundAnchor: groundAnchor, infoWindowAnchor: infoWindowAnchor,
                rotation: rotation, opacity: opacity, zIndex: zIndex))
    }
}

/// A polyline, as the Maps SDK's `GMSPolyline` describes one, with its defaults filled in.
public struct Polyline: Hashable, Sendable {
    /// The vertices.
    public var path: Path
    /// Width in screen points. Default 1.
    public var strokeWidth: Double = 1
    /// Colour where no span applies. Default blue.
    public var strokeColor: Color = .blue
    /// Whether segments follow great circles. Default false.
    public var geodesic: Bool = false
    /// Per-segment styles; when set, `strokeColor` is ignored (as in the Maps SDK).
    public var spans: [StyleSpan] = []
    /// Info-window title.
    public var title: String?
    /// Drawing order. Default 0.
    public var zIndex: Int = 0

    /// Creates a polyline along a path with the Maps SDK defaults.
    public init(path: Path) { self.path = path }

    /// Reads a polyline from a line-string feature, filling in the defaults; `nil` for other geometries.
    public init?(_ feature: Feature) {
        guard case .lineString(let path)? = feature.geometry else { return nil }
        self.init(path: path)
        let style = feature.style
        strokeWidth = style.strokeWidth ?? 1
        strokeColor = style.strokeColor ?? .blue
        geodesic = style.geodesic ?? false
        spans = style.spans
        title = feature.title
        zIndex = style.zIndex ?? 0
    }

    /// The polyline as a feature, every style field explicit.
    public var feature: Feature {
        Feature(
            geometry: .lineString(path), title: title,
            style: Style(
                strokeColor: strokeColor, strokeWidth: strokeWidth, geodesic: geodesic, spans: spans,
                zIndex: zIndex))
    }
}

/// A polygon with holes, as the Maps SDK's `GMSPolygon` describes one, with its defaults
/// filled in (stroke black 1 pt, fill blue as `GMSPolygon` documents).
public struct Polygon: Hashable, Sendable {
    /// The outer boundary.
    public var path: Path
    /// The holes.
    public var holes: [Path] = []
    /// Outline width in points. Default 1.
    public var strokeWidth: Double = 1
    /// Outline colour. Default black.
    public var strokeColor: Color = .black
    /// Interior colour. Default blue.
    public var fillColor: Color = .blue
    /// Whether edges follow great circles. Default false.
    public var geodesic: Bool = false
    /// Info-window title.
    public var title: String?
    /// Drawing order. Default 0.
    public var zIndex: Int = 0

    /// Creates a polygon from its outer boundary and holes with the Maps SDK defaults.
    public init(path: Path, holes: [Path] = []) {
        self.path = path
        self.holes = holes
    }

    /// Reads a polygon from a polygon feature, filling in the defaults; `nil` for other geometries.
    public init?(_ feature: Feature) {
        guard case .polygon(let rings)? = feature.geometry else { return nil }
        self.init(path: rings.outer, holes: rings.holes)
        let style = feature.style
        strokeWidth = style.strokeWidth ?? 1
        strokeColor = style.strokeColor ?? .black
        fillColor = style.fillColor ?? .blue
        geodesic = style.geodesic ?? false
        title = feature.title
        zIndex = style.zIndex ?? 0
    }

    /// The polygon as a feature, every style field explicit.
    public var feature: Feature {
        Feature(
            geometry: .polygon(PolygonRings(outer: path, holes: holes)), title: title,
            style: Style(
                strokeColor: strokeColor, strokeWidth: strokeWidth, fillColor: fillColor,
                geodesic: geodesic, zIndex: zIndex))
    }
}

/// A circle on the Earth's surface, as the Maps SDK's `GMSCircle` describes one, with its
/// defaults filled in (stroke black 1 pt, fill transparent).
public struct Circle: Hashable, Sendable {
    /// The centre.
    public var position: Coordinate
    /// The radius in metres, measured along the surface.
    public var radius: Double
    /// Outline width in points. Default 1.
    public var strokeWidth: Double = 1
    /// Outline colour. Default black.
    public var strokeColor: Color = .black
    /// Interior colour. Default transparent.
    public var fillColor: Color = .clear
    /// Info-window title.
    public var title: String?
    /// Drawing order. Default 0.
    public var zIndex: Int = 0

    /// Creates a circle with the Maps SDK defaults.
    public init(position: Coordinate, radius: Double) {
        self.position = position
        self.radius = radius
    }

    /// Reads a circle from a circle feature, filling in the defaults; `nil` for other geometries.
    public init?(_ feature: Feature) {
        guard case .circle(let center, let radius)? = feature.geometry else { return nil }
        self.init(position: center, radius: radius)
        let style = feature.style
        strokeWidth = style.strokeWidth ?? 1
        strokeColor = style.strokeColor ?? .black
        fillColor = style.fillColor ?? .clear
        title = feature.title
        zIndex = style.zIndex ?? 0
    }

    /// The circle as a feature, every style field explicit.
    public var feature: Feature {
        Feature(
            geometry: .circle(center: position, radius: radius), title: title,
            style: Style(strokeColor: strokeColor, strokeWidth: strokeWidth, fillColor: fillColor, zIndex: zIndex))
    }
}
