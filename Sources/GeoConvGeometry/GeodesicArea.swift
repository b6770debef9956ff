public import GeoConvCore

/// The area of a polygon with geodesic edges, Karney (2013) §6: the areas between each edge
/// and the equator (S₁₂, eq. 58–62) summed, and the polygon's crossings of the prime
/// meridian counted, so that a ring around a pole gets the half of the ellipsoid it encloses.
extension Geodesic {
    /// The signed area of the polygon whose vertices are `ring` (closed or not), m²:
    /// positive when they go round it counter-clockwise, and within ± half the ellipsoid's
    /// area (what PROJ's `geod_polygonarea` gives).
    public func signedArea(_ ring: Path) -> Double {
        var count = ring.count
        if count > 1, let first = ring.first, let last = ring.last, first.latitude == last.latitude,
            first.longitude == last.longitude
        {
            count -= 1
        }
        guard count >= 3 else { return 0 }
        let vertices = ring.coordinates
        // A compensated sum: edges' areas are large numbers of opposite signs.
        var sum = 0.0
        var error = 0.0
        var crossings = 0
        for i in 0..<count {
            let from = vertices[i]
            let to = vertices[(i + 1) % count]
            let edge = solveInverse(from.latitude, from.longitude, to.latitude, to.longitude, area: true)
            let (s, e) = GeodesicAngles.sum(sum, edge.area)
            sum = s
            error += e
            crossings += Self.transit(from.longitude, to.longitude)
        }
        var area = sum + error
        let whole = 4 * Double.pi * c2
        // S₁₂ is clockwise positive: an odd number of crossings means the ring goes round a pole.
        if crossings & 1 != 0 { area += (area < 0 ? 1 : -1) * whole / 2 }
        area = -area  // counter-clockwise positive
        if area > whole / 2 {
            area -= whole
        } else if area <= -whole / 2 {
            area += whole
        }
        return area + 0
    }

    /// +1 when the edge from `lon1` to `lon2` crosses the prime meridian going east, −1 going
    /// west, 0 when it does not.
    static func transit(_ lon1: Double, _ lon2: Double) -> Int {
        let from = GeodesicAngles.normalized(lon1)
        let to = GeodesicAngles.normalized(lon2)
        let lon12 = GeodesicAngles.difference(from, to).difference
        if from <= 0 && to > 0 && lon12 > 0 { return 1 }
        if to <= 0 && from > 0 && lon12 < 0 { return -1 }
        return 0
    }
}
