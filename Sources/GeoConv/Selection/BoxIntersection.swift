import GeoConvCore
import GeoConvFormatKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a geometry intersects `--bbox` in the plane of its coordinates (x = longitude,
/// y = latitude), edges included: a point in the box, an edge through it, or a polygon
/// around it (holes excluded). As ogr2ogr's `-spat` with GEOS, not only the envelopes.
struct SelectionBoxes: Hashable, Sendable {
    struct Box: Hashable, Sendable {
        var minX, minY, maxX, maxY: Double

        @inline(__always) func contains(_ x: Double, _ y: Double) -> Bool {
            x >= minX && x <= maxX && y >= minY && y <= maxY
        }
    }

    /// One box, or two for a box across the antimeridian (west > east).
    let boxes: [Box]

    init(_ box: FeatureSelection.Box) {
        let south = min(box.south, box.north)
        let north = max(box.south, box.north)
        if box.west <= box.east {
            boxes = [Box(minX: box.west, minY: south, maxX: box.east, maxY: north)]
        } else {
            boxes = [
                Box(minX: box.west, minY: south, maxX: 180, maxY: north),
                Box(minX: -180, minY: south, maxX: box.east, maxY: north),
            ]
        }
    }

    /// Whether `geometry` intersects any of the boxes.
    func intersects(_ geometry: Geometry) -> Bool {
        boxes.contains { Self.intersects(geometry, $0) }
    }

    private static func intersects(_ geometry: Geometry, _ box: Box) -> Bool {
        switch geometry {
        case .point(let c): return box.contains(c.longitude, c.latitude)
        case .multiPoint(let points): return points.contains { box.contains($0.longitude, $0.latitude) }
        case .lineString(let path): return intersects(path.coordinates, box)
        case .multiLineString(let lines): return lines.contains { intersects($0.coordinates, box) }
        case .polygon(let rings): return intersects(rings, box)
        case .multiPolygon(let polygons): return polygons.contains { intersects($0, box) }
        case .geometryCollection(let members): return members.contains { intersects($0, box) }
        case .circle(let center, let radius):
            // The centre within the box grown by the radius (metres as degrees on the sphere).
            let dy = radius / 111_319.490_793_273_57
            let dx = dy / max(1e-9, cos(center.latitude * .pi / 180))
            return Box(minX: box.minX - dx, minY: box.minY - dy, maxX: box.maxX + dx, maxY: box.maxY + dy)
                .contains(center.longitude, center.latitude)
        case .empty: return false
        }
    }

    /// A polygon meets the box when one of its rings does or the box lies inside it.
    private static func intersects(_ rings: PolygonRings, _ box: Box) -> Bool {
        if intersects(rings.outer.coordinates, box) || rings.holes.contains(where: { intersects($0.coordinates, box) })
        {
            return true
        }
        // No edge meets the box: it is wholly inside or outside the polygon; test one corner.
        var inside = false
        for ring in rings.rings where ring.planarEncloses(box.minX, box.minY) { inside.toggle() }
        return inside
    }

    /// Whether the line through `points` touches the box.
    private static func intersects(_ points: [Coordinate], _ box: Box) -> Bool {
        guard let first = points.first else { return false }
        if box.contains(first.longitude, first.latitude) { return true }
        for i in points.indices.dropFirst() {
            let a = points[i - 1]
            let b = points[i]
            if segmentMeets(a.longitude, a.latitude, b.longitude, b.latitude, box) { return true }
        }
        return false
    }

    /// Liang–Barsky clipping: whether the segment (x0, y0)–(x1, y1) has a point in the box.
    private static func segmentMeets(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ box: Box) -> Bool {
        var t0 = 0.0
        var t1 = 1.0
        let dx = x1 - x0
        let dy = y1 - y0
        // Narrows [t0, t1] to where the segment is inside one edge: p·t ≤ q.
        @inline(__always) func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                t0 = max(t0, r)
            } else {
                if r < t0 { return false }
                t1 = min(t1, r)
            }
            return true
        }
        guard clip(-dx, x0 - box.minX), clip(dx, box.maxX - x0), clip(-dy, y0 - box.minY), clip(dy, box.maxY - y0)
        else { return false }
        return t0 <= t1
    }
}
