#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
public import GeoConvCore
import GeoConvGeometry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator as the Maps SDK shows it: a coordinate's point in the view, in points from
/// the top-left corner, for a camera (target at the view's centre, the world 256 · 2^zoom
/// points wide, turned by the bearing).
public struct ScreenProjection: Sendable {
    /// The camera.
    public let camera: CameraPosition
    /// The view's size in points.
    public let width: Double, height: Double
    /// The world's width in points at the camera's zoom.
    public let worldSize: Double
    private let center: (x: Double, y: Double)
    private let cosine: Double, sine: Double

    /// The projection of a camera onto a view of `width` × `height` points.
    public init(camera: CameraPosition, width: Double, height: Double) {
        self.camera = camera
        self.width = width
        self.height = height
        worldSize = WorldPoints.tileSize * pow(2, camera.zoom)
        let c = WorldPoints.point(camera.target)
        center = (c.x * worldSize / WorldPoints.tileSize, c.y * worldSize / WorldPoints.tileSize)
        let bearing = camera.bearing * .pi / 180
        cosine = cos(bearing)
        sine = sin(bearing)
    }

    /// A north-up view centred on a point of the world (in points at zoom 0, so that tiles
    /// near the poles, whose centres a camera would clamp, are placed exactly).
    public init(worldCenter: (x: Double, y: Double), zoom: Double, width: Double, height: Double) {
        camera = CameraPosition(target: WorldPoints.coordinate(x: worldCenter.x, y: worldCenter.y), zoom: zoom)
        self.width = width
        self.height = height
        worldSize = WorldPoints.tileSize * pow(2, zoom)
        center = (worldCenter.x * worldSize / WorldPoints.tileSize, worldCenter.y * worldSize / WorldPoints.tileSize)
        cosine = 1
        sine = 0
    }

    /// Metres per point at a latitude (156,543 m per point at zoom 0 on the equator, as the Maps SDK).
    public func metresPerPoint(atLatitude latitude: Double) -> Double {
        40_075_016.686 / worldSize * cos(latitude * .pi / 180)
    }

    /// The point of `c` in the view. Of the world's copies, the one nearest `nearX` (a
    /// previous vertex, so that a line crossing ±180° continues), else nearest the centre.
    public func point(_ c: Coordinate, nearX: Double? = nil) -> (x: Double, y: Double) {
        let world = WorldPoints.point(c)
        var dx = world.x * worldSize / WorldPoints.tileSize - center.x
        let dy = world.y * worldSize / WorldPoints.tileSize - center.y
        let reference = nearX.map { $0 - width / 2 } ?? 0
        // Unrotated x of the reference (bearing turns it; for the nearest copy an estimate does).
        while dx - reference > worldSize / 2 { dx -= worldSize }
        while dx - reference < -worldSize / 2 { dx += worldSize }
        // A map turned by the bearing: north points `bearing` degrees anticlockwise of up.
        let x = dx * cosine + dy * sine
        let y = -dx * sine + dy * cosine
        return (x + width / 2, y + height / 2)
    }

    /// The points of a path: along the great circle when `geodesic` (a point every degree
    /// of arc), else straight between the vertices in the projection, each vertex the copy
    /// nearest the one before.
    public func points(_ path: [Coordinate], geodesic: Bool) -> [(x: Double, y: Double)] {
        var result: [(x: Double, y: Double)] = []
        result.reserveCapacity(path.count)
        var previous: Coordinate?
        for c in path {
            if geodesic, let a = previous {
                let steps = Int((Spherical.angle(a, c) * 180 / .pi).rounded(.up))
                if steps > 1 {
                    for i in 1..<steps {
                        let between = Spherical.interpolate(from: a, to: c, fraction: Double(i) / Double(steps))
                        result.append(point(between, nearX: result.last.map { unrotatedX($0) }))
                    }
                }
            }
            result.append(point(c, nearX: result.last.map { unrotatedX($0) }))
            previous = c
        }
        return result
    }

    /// The view x a point had before the bearing turned it (to find the nearest world copy).
    private func unrotatedX(_ p: (x: Double, y: Double)) -> Double {
        let x = p.x - width / 2
        let y = p.y - height / 2
        return x * cosine - y * sine + width / 2
    }
}
#endif
