#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
public import GeoConvCore
public import GeoConvFormatKit

/// What `OverlayRenderer` draws and how: the view, the pixel density, the background.
public struct RenderOptions: Hashable, Sendable {
    /// The picture's size in points (the Maps SDK's view size).
    public var width: Double
    /// The picture's height in points.
    public var height: Double
    /// Pixels per point (2 for Retina): every measure in points is multiplied by it.
    public var scale: Double
    /// The camera; `nil` fits every feature in the view with `padding` on each side (the
    /// Maps SDK's `camera(for:insets:)`).
    public var camera: CameraPosition?
    /// Points kept free on every side when the camera is fitted (64, as `fitBounds`).
    public var padding: Double
    /// The colour under the overlays; `nil` for transparent (PNG, SVG, PDF keep it).
    public var background: Color?
    /// Draw point markers clustered at the camera's zoom as the Maps utility libraries show
    /// them: a bubble with the count (or its bucket, "10+") for each cluster of two or more.
    public var clustersMarkers = false
    /// A legend to draw in the bottom-left corner: `--classify`'s classes, each a swatch of
    /// its colour, its label and its count (`render --legend`).
    public var legend: ClassLegend?

    /// Creates options: 512 × 512 points, scale 1, fitted, a pale map-like background.
    public init(
        width: Double = 512, height: Double = 512, scale: Double = 1, camera: CameraPosition? = nil,
        padding: Double = 64,
        background: Color? = Color(red: 0xF2, green: 0xEF, blue: 0xE9)
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.camera = camera
        self.padding = padding
        self.background = background
    }
}

/// The kind of picture, by the output's extension.
public enum RenderFormat: String, Hashable, Sendable, CaseIterable {
    case png, svg, pdf

    /// The format a path's extension names, if any.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
#endif
