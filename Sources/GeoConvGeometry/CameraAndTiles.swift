public import GeoConvCore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Distances on the screen, in points, from each edge of the viewport.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double, left: Double, bottom: Double, right: Double

    /// Per-edge insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same padding on every edge.
    public init(padding: Double) { self.init(top: padding, left: padding, bottom: padding, right: padding) }

    /// No insets.
    public static let zero = EdgeInsets(padding: 0)
}

/// World coordinates of the map: at zoom 0 the world is 256 points wide; x grows east from
/// the antimeridian, y grows south from latitude 85.0511287798066°.
public enum WorldPoints {
    /// Points at zoom 0 per world width.
    public static let tileSize = 256.0
    /// The Web Mercator latitude limit.
    public static let maximumLatitude = 85.0511287798066

    /// The point of a coordinate at zoom 0, in [0, 256).
    public static func point(_ c: Coordinate) -> (x: Double, y: Double) {
        let lat = max(-maximumLatitude, min(maximumLatitude, c.latitude))
        let s = sin(lat * .pi / 180)
        let x = (c.longitude + 180) / 360 * tileSize
        let y = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * tileSize
        return (x, y)
    }

    /// The coordinate of a point at zoom 0.
    public static func coordinate(x: Double, y: Double) -> Coordinate {
        let longitude = x / tileSize * 360 - 180
        let n = .pi - 2 * .pi * y / tileSize
        return Coordinate(latitude: atan(sinh(n)) * 180 / .pi, longitude: longitude)
    }
}

/// A change to a camera (the Maps SDK's `GMSCameraUpdate`).
public enum CameraUpdate: Hashable, Sendable {
    case zoomIn
    case zoomOut
    case zoomTo(Double)
    case zoomBy(Double)
    case setTarget(Coordinate)
    case setTargetAndZoom(Coordinate, Double)
    /// Moves the view by points on the screen (right and down are positive), turned by the bearing.
    case scrollBy(x: Double, y: Double)
    /// Fits bounds into the viewport with padding on every edge (64 points by default).
    case fitBounds(CoordinateBounds, padding: Double = 64)
    /// Fits bounds into the viewport with per-edge insets.
    case fitBoundsWithInsets(CoordinateBounds, EdgeInsets)
}

extension CameraPosition {
    /// The camera after an update, for a viewport of `viewport` points (needed by scroll and fit).
    public func applying(
        _ update: CameraUpdate, viewport: (width: Double, height: Double) = (256, 256),
        zoomRange: ClosedRange<Double> = CameraPosition.defaultZoomRange
    ) -> CameraPosition {
        func make(_ target: Coordinate, _ zoom: Double) -> CameraPosition {
            CameraPosition(
                target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle, zoomRange: zoomRange)
        }
        switch update {
        case .zoomIn: return make(target, zoom + 1)
        case .zoomOut: return make(target, zoom - 1)
        case .zoomTo(let z): return make(target, z)
        case .zoomBy(let delta): return make(target, zoom + delta)
        case .setTarget(let c): return make(c, zoom)
        case .setTargetAndZoom(let c, let z): return make(c, z)
        case .scrollBy(let dx, let dy):
            let scale = pow(2, zoom)
            let θ = bearing * .pi / 180
            let ex = dx * cos(θ) - dy * sin(θ)
            let ey = dx * sin(θ) + dy * cos(θ)
            let p = WorldPoints.point(target)
            return make(WorldPoints.coordinate(x: p.x + ex / scale, y: p.y + ey / scale), zoom)
        case .fitBounds(let bounds, let padding):
            return CameraPosition.fitting(
                bounds, viewport: viewport, insets: EdgeInsets(padding: padding), zoomRange: zoomRange)
        case .fitBoundsWithInsets(let bounds, let insets):
            return CameraPosition.fitting(bounds, viewport: viewport, insets: insets, zoomRange: zoomRange)
        }
    }

    /// The camera that shows `bounds` as large as possible inside the viewport less the
    /// insets (the Maps SDK's `camera(for:insets:)`): bearing and tilt 0, target at the
    /// bounds' Mercator centre, zoom from the tighter of the two directions.
    public static func fitting(
        _ bounds: CoordinateBounds, viewport: (width: Double, height: Double),
        insets: EdgeInsets = EdgeInsets(padding: 64),
        zoomRange: ClosedRange<Double> = CameraPosition.defaultZoomRange
    ) -> CameraPosition {
        let southWest = WorldPoints.point(Coordinate(latitude: bounds.south, longitude: bounds.west))
        let northEast = WorldPoints.point(Coordinate(latitude: bounds.north, longitude: bounds.east))
        var width = northEast.x - southWest.x
        if width < 0 { width += WorldPoints.tileSize }  // across the antimeridian
        let height = southWest.y - northEast.y
        let availableWidth = max(1, viewport.width - insets.left - insets.right)
        let availableHeight = max(1, viewport.height - insets.top - insets.bottom)
        var zoom = zoomRange.upperBound
        if width > 0 { zoom = min(zoom, log2(availableWidth / width)) }
        if height > 0 { zoom = min(zoom, log2(availableHeight / height)) }
        // Centre of the visible area, shifted by unequal insets.
        let scale = pow(2, zoom)
        let cx = southWest.x + width / 2 + (insets.right - insets.left) / 2 / scale
        let cy = northEast.y + height / 2 + (insets.bottom - insets.top) / 2 / scale
        let x = cx.truncatingRemainder(dividingBy: WorldPoints.tileSize)
        return CameraPosition(target: WorldPoints.coordinate(x: x, y: cy), zoom: zoom, zoomRange: zoomRange)
    }

    /// The bounds visible in a viewport (bearing and tilt ignored).
    public func visibleBounds(viewport: (width: Double, height: Double)) -> CoordinateBounds {
        let p = WorldPoints.point(target)
        let scale = pow(2, zoom)
        let nw = WorldPoints.coordinate(x: p.x - viewport.width / 2 / scale, y: p.y - viewport.height / 2 / scale)
        let se = WorldPoints.coordinate(x: p.x + viewport.width / 2 / scale, y: p.y + viewport.height / 2 / scale)
        return CoordinateBounds(
            south: se.latitude, west: CameraPosition.wrapLongitude(nw.longitude), north: nw.latitude,
            east: CameraPosition.wrapLongitude(se.longitude))
    }
}

/// A map tile: x grows east, y grows south, origin (0, 0) at the north-west; 2^z × 2^z tiles.
public struct Tile: Hashable, Sendable, CustomStringConvertible, Comparable {
    public var x: Int, y: Int, z: Int

    /// A tile from its XYZ address.
    public init(x: Int, y: Int, z: Int) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The tile holding a coordinate at a zoom (latitudes clamped to Web Mercator's ±85.05°).
    public init(containing c: Coordinate, zoom: Int) {
        let n = Double(1 << zoom)
        let p = WorldPoints.point(
            Coordinate(latitude: c.latitude, longitude: CameraPosition.wrapLongitude(c.longitude)))
        let max = (1 << zoom) - 1
        self.init(
            x: Swift.min(max, Swift.max(0, Int((p.x / WorldPoints.tileSize * n).rounded(.down)))),
            y: Swift.min(max, Swift.max(0, Int((p.y / WorldPoints.tileSize * n).rounded(.down)))), z: zoom)
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }

    public static func < (a: Tile, b: Tile) -> Bool { (a.z, a.y, a.x) < (b.z, b.y, b.x) }

    /// The tile's bounds.
    public var bounds: CoordinateBounds {
        let n = Double(1 << z)
        let nw = WorldPoints.coordinate(
            x: Double(x) / n * WorldPoints.tileSize, y: Double(y) / n * WorldPoints.tileSize)
        let se = WorldPoints.coordinate(
            x: Double(x + 1) / n * WorldPoints.tileSize, y: Double(y + 1) / n * WorldPoints.tileSize)
        return CoordinateBounds(south: se.latitude, west: nw.longitude, north: nw.latitude, east: se.longitude)
    }

    /// Bing Maps quadkey: one digit per zoom, digit = x bit + 2 × y bit.
    public var quadkey: String {
        var key = ""
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            key.append(Character(String((x & mask != 0 ? 1 : 0) + (y & mask != 0 ? 2 : 0))))
        }
        return key
    }

    /// The tile a quadkey names; `nil` for characters other than 0–3.
    public init?(quadkey: String) {
        var x = 0
        var y = 0
        for character in quadkey {
            guard let digit = character.wholeNumberValue, (0...3).contains(digit) else { return nil }
            x = x << 1 | (digit & 1)
            y = y << 1 | (digit >> 1)
        }
        self.init(x: x, y: y, z: quadkey.count)
    }

    /// The same tile numbered TMS-style (y grows north); the conversion is its own inverse.
    public var flippedY: Tile { Tile(x: x, y: (1 << z) - 1 - y, z: z) }

    /// A URL template with `{x}`, `{y}`, `{z}` (also `{zoom}`), `{-y}` (TMS) and `{quadkey}` filled in.
    public func url(_ template: String) -> String {
        template.replacing("{x}", with: String(x)).replacing("{y}", with: String(y)).replacing(
            "{-y}", with: String(flippedY.y)
        )
        .replacing("{z}", with: String(z)).replacing("{zoom}", with: String(z)).replacing("{quadkey}", with: quadkey)
    }

    /// The tiles covering a geometry at a zoom, sorted: a point's tile, the tiles a line
    /// passes through (every segment walked in steps under a quarter tile), and for polygons
    /// also every tile whose centre is inside.
    public static func covering(_ geometry: Geometry, zoom: Int) -> [Tile] {
        var tiles = Set<Tile>()
        let n = Double(1 << zoom)
        func walk(_ a: Coordinate, _ b: Coordinate) {
            let p = WorldPoints.point(a)
            let q = WorldPoints.point(b)
            var dx = q.x - p.x
            if dx > WorldPoints.tileSize / 2 {
                dx -= WorldPoints.tileSize
            } else if dx < -WorldPoints.tileSize / 2 {
                dx += WorldPoints.tileSize
            }
            let dy = q.y - p.y
            let tileLength = WorldPoints.tileSize / n
            let steps = max(1, Int((max(abs(dx), abs(dy)) / (tileLength / 4)).rounded(.up)))
            for i in 0...steps {
                let t = Double(i) / Double(steps)
                var x = p.x + dx * t
                x = x.truncatingRemainder(dividingBy: WorldPoints.tileSize)
                if x < 0 { x += WorldPoints.tileSize }
                tiles.insert(Tile(containing: WorldPoints.coordinate(x: x, y: p.y + dy * t), zoom: zoom))
            }
        }
        func path(_ p: Path) {
            if p.count == 1 { tiles.insert(Tile(containing: p[0], zoom: zoom)) }
            for (a, b) in zip(p, p.dropFirst()) { walk(a, b) }
        }
        func polygon(_ rings: PolygonRings) {
            for ring in rings.rings { path(ring.closed) }
            guard let box = Geometry.polygon(rings).bounds else { return }
            let nw = Tile(containing: Coordinate(latitude: box.north, longitude: box.west), zoom: zoom)
            let se = Tile(containing: Coordinate(latitude: box.south, longitude: box.east), zoom: zoom)
            guard !box.crossesAntimeridian, (se.x - nw.x + 1) * (se.y - nw.y + 1) <= 1 << 22 else { return }
            for y in nw.y...se.y {
                for x in nw.x...se.x {
                    let tile = Tile(x: x, y: y, z: zoom)
                    let center = tile.bounds.center
                    if Spherical.contains(center, in: rings.outer, geodesic: false)
                        && !rings.holes.contains(where: { Spherical.contains(center, in: $0, geodesic: false) })
                    {
                        tiles.insert(tile)
                    }
                }
            }
        }
        switch geometry {
        case .point(let c): tiles.insert(Tile(containing: c, zoom: zoom))
        case .circle(let c, let radius): polygon(PolygonRings(outer: CirclePolygon.ring(center: c, radius: radius)))
        case .lineString(let p): path(p)
        case .multiPoint(let points): for c in points { tiles.insert(Tile(containing: c, zoom: zoom)) }
        case .multiLineString(let lines): for l in lines { path(l) }
        case .polygon(let rings): polygon(rings)
        case .multiPolygon(let polygons): for p in polygons { polygon(p) }
        case .geometryCollection(let members): for m in members { tiles.formUnion(covering(m, zoom: zoom)) }
        case .empty: break
        }
        return tiles.sorted()
    }
}

extension TileLayer {
    /// The URL of a tile of this layer. A 512-point layer's tile at zoom z covers the area of
    /// a 256-point tile at zoom z - 1, so the same addresses serve both.
    public func url(for tile: Tile) -> String { tile.url(urlTemplate) }
}
