public import GeoConvCore
public import GeoConvFormatKit

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The shape of the Earth used for measuring.
public enum EarthModel: String, Hashable, Sendable, CaseIterable {
    /// A sphere of radius 6,371,009 m (the Maps SDK and android-maps-utils).
    case sphere
    /// The WGS84 ellipsoid (a = 6,378,137 m, f = 1/298.257223563).
    case wgs84
}

/// Measurements on the sphere of radius 6,371,009 m, with the semantics of
/// android-maps-utils' `SphericalUtil` (distances in metres, headings in degrees clockwise
/// from north in [-180, 180)).
public enum Spherical {
    /// The Maps SDK's Earth radius.
    public static let radius = 6_371_009.0

    static func rad(_ d: Double) -> Double { d * .pi / 180 }
    static func cosine(_ x: Double) -> Double { cos(x) }
    static func deg(_ r: Double) -> Double { r * 180 / .pi }

    /// The central angle between two points, radians (haversine form, stable for short distances).
    public static func angle(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = rad(a.latitude)
        let φ2 = rad(b.latitude)
        let dλ = rad(b.longitude - a.longitude)
        let h = pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin(dλ / 2), 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    /// Great-circle distance in metres.
    public static func distance(_ a: Coordinate, _ b: Coordinate, radius: Double = radius) -> Double {
        angle(a, b) * radius
    }

    /// Initial heading from `a` to `b`, degrees clockwise from north in [-180, 180).
    public static func heading(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = rad(a.latitude)
        let φ2 = rad(b.latitude)
        let dλ = rad(b.longitude - a.longitude)
        let h = deg(atan2(sin(dλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)))
        return CameraPosition.wrapLongitude(h)
    }

    /// The point `distance` metres from `from` on the great circle leaving at `heading` degrees.
    public static func offset(
        from: Coordinate, distance: Double, heading: Double, radius: Double = radius
    ) -> Coordinate {
        let δ = distance / radius
        let θ = rad(heading)
        let φ1 = rad(from.latitude)
        let λ1 = rad(from.longitude)
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return Coordinate(latitude: deg(φ2), longitude: CameraPosition.wrapLongitude(deg(λ2)))
    }

    /// The point a fraction (0…1) of the way from `a` to `b` along the great circle.
    public static func interpolate(from a: Coordinate, to b: Coordinate, fraction: Double) -> Coordinate {
        let φ1 = rad(a.latitude)
        let λ1 = rad(a.longitude)
        let φ2 = rad(b.latitude)
        let λ2 = rad(b.longitude)
        let δ = angle(a, b)
        guard δ > 1e-12 else {
            return Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * fraction,
                longitude: a.longitude + (b.longitude - a.longitude) * fraction)
        }
        let s = sin(δ)
        let wa = sin((1 - fraction) * δ) / s
        let wb = sin(fraction * δ) / s
        let x = wa * cos(φ1) * cos(λ1) + wb * cos(φ2) * cos(λ2)
        let y = wa * cos(φ1) * sin(λ1) + wb * cos(φ2) * sin(λ2)
        let z = wa * sin(φ1) + wb * sin(φ2)
        var altitude: Double?
        if let h1 = a.altitude, let h2 = b.altitude { altitude = h1 + (h2 - h1) * fraction }
        return Coordinate(
            latitude: deg(atan2(z, (x * x + y * y).squareRoot())), longitude: deg(atan2(y, x)), altitude: altitude)
    }

    /// The length of a path along great circles, metres.
    public static func length(_ path: Path, radius: Double = radius) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1, radius: radius) }
    }

    /// The signed area of a closed path, m²: positive counter-clockwise (android-maps-utils'
    /// `computeSignedArea`, which treats the path as closed and its edges as great circles).
    public static func signedArea(_ path: Path, radius: Double = radius) -> Double {
        guard path.count >= 3 else { return 0 }
        var total = 0.0
        var previous = path[path.count - 1]
        var prevTan = tan((.pi / 2 - rad(previous.latitude)) / 2)
        var prevLng = rad(previous.longitude)
        for point in path {
            let tanLat = tan((.pi / 2 - rad(point.latitude)) / 2)
            let lng = rad(point.longitude)
            total += polarTriangleArea(tanLat, lng, prevTan, prevLng)
            prevTan = tanLat
            prevLng = lng
            previous = point
        }
        return total * radius * radius
    }

    private static func polarTriangleArea(_ tan1: Double, _ lng1: Double, _ tan2: Double, _ lng2: Double) -> Double {
        let deltaLng = lng1 - lng2
        let t = tan1 * tan2
        return 2 * atan2(t * sin(deltaLng), 1 + t * cos(deltaLng))
    }

    /// The area of a closed path, m².
    public static func area(_ path: Path, radius: Double = radius) -> Double { abs(signedArea(path, radius: radius)) }

    /// Whether `point` is inside the polygon `ring` (edges geodesic or rhumb), as the Maps SDK's
    /// `containsLocation`: the South Pole is outside every polygon that does not contain it
    /// explicitly; a vertex counts as inside.
    public static func contains(_ point: Coordinate, in ring: Path, geodesic: Bool) -> Bool {
        guard ring.count >= 3 else { return false }
        let lat3 = rad(point.latitude)
        let lng3 = rad(point.longitude)
        var previous = ring[ring.count - 1]
        var lat1 = rad(previous.latitude)
        var lng1 = rad(previous.longitude)
        var intersections = 0
        for vertex in ring {
            let dLng3 = wrapRadians(lng3 - lng1)
            if lat3 == lat1 && dLng3 == 0 { return true }
            let lat2 = rad(vertex.latitude)
            let lng2 = rad(vertex.longitude)
            if intersects(lat1, lat2, wrapRadians(lng2 - lng1), lat3, dLng3, geodesic) { intersections += 1 }
            lat1 = lat2
            lng1 = lng2
            previous = vertex
        }
        return intersections % 2 != 0
    }

    static func wrapRadians(_ x: Double) -> Double {
        guard x < -.pi || x >= .pi else { return x }
        let r = (x + .pi).truncatingRemainder(dividingBy: 2 * .pi)
        return (r < 0 ? r + 2 * .pi : r) - .pi
    }

    private static func mercatorY(_ lat: Double) -> Double { log(tan(lat * 0.5 + .pi / 4)) }

    private static func tanLatGC(_ lat1: Double, _ lat2: Double, _ lng2: Double, _ lng3: Double) -> Double {
        (tan(lat1) * sin(lng2 - lng3) + tan(lat2) * sin(lng3)) / sin(lng2)
    }

    private static func mercatorLatRhumb(_ lat1: Double, _ lat2: Double, _ lng2: Double, _ lng3: Double) -> Double {
        (mercatorY(lat1) * (lng2 - lng3) + mercatorY(lat2) * lng3) / lng2
    }

    /// android-maps-utils' segment/meridian intersection test (longitudes relative to lng1).
    private static func intersects(
        _ lat1: Double, _ lat2: Double, _ lng2: Double, _ lat3: Double, _ lng3: Double, _ geodesic: Bool
    ) -> Bool {
        if (lng3 >= 0 && lng3 >= lng2) || (lng3 < 0 && lng3 < lng2) { return false }
        if lat3 <= -.pi / 2 { return false }
        if lat1 <= -.pi / 2 || lat2 <= -.pi / 2 || lat1 >= .pi / 2 || lat2 >= .pi / 2 { return false }
        if lng2 <= -.pi { return false }
        let linearLat = (lat1 * (lng2 - lng3) + lat2 * lng3) / lng2
        if lat1 >= 0 && lat2 >= 0 && lat3 < linearLat { return false }
        if lat1 <= 0 && lat2 <= 0 && lat3 >= linearLat { return true }
        if lat3 >= .pi / 2 { return true }
        return geodesic
            ? tan(lat3) >= tanLatGC(lat1, lat2, lng2, lng3)
            : mercatorY(lat3) >= mercatorLatRhumb(lat1, lat2, lng2, lng3)
    }

    /// Whether `point` is within `tolerance` metres of the path (the Maps SDK's `isLocationOnPath`).
    public static func isOnPath(_ point: Coordinate, _ path: Path, geodesic: Bool, tolerance: Double) -> Bool {
        guard let first = path.first else { return false }
        if path.count == 1 { return distance(point, first) <= tolerance }
        for (a, b) in zip(path, path.dropFirst()) {
            if distanceToSegment(point, a, b, geodesic: geodesic) <= tolerance { return true }
        }
        return false
    }

    /// Distance in metres from `p` to the segment a–b (great circle or rhumb).
    static func distanceToSegment(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate, geodesic: Bool) -> Double {
        // Closest point by ternary search on the fraction: the distance along a segment is unimodal.
        var low = 0.0
        var high = 1.0
        func at(_ t: Double) -> Coordinate {
            geodesic ? interpolate(from: a, to: b, fraction: t) : Rhumb.interpolate(from: a, to: b, fraction: t)
        }
        for _ in 0..<80 {
            let m1 = low + (high - low) / 3
            let m2 = high - (high - low) / 3
            if distance(p, at(m1)) < distance(p, at(m2)) { high = m2 } else { low = m1 }
        }
        return min(distance(p, a), distance(p, b), distance(p, at((low + high) / 2)))
    }
}

/// Rhumb lines (loxodromes): constant bearing, straight on a Mercator map. On the sphere and
/// on the WGS84 ellipsoid (isometric latitude and meridian distance series, to n⁶).
public enum Rhumb {
    static let a = 6_378_137.0
    static let f = 1 / 298.257223563
    static let e2 = f * (2 - f)
    static let e = e2.squareRoot()
    static let n = f / (2 - f)

    /// Isometric latitude ψ of a geodetic latitude (radians), ellipsoidal.
    static func isometric(_ φ: Double, ellipsoid: Bool) -> Double {
        let s = sin(φ)
        return ellipsoid ? asinh(tan(φ)) - e * atanh(e * s) : asinh(tan(φ))
    }

    /// Meridian distance from the equator to latitude φ (radians), metres (Helmert's series
    /// in the third flattening n to n⁴; the next terms are below 1e-7 m).
    static func meridian(_ φ: Double, ellipsoid: Bool, radius: Double) -> Double {
        guard ellipsoid else { return radius * φ }
        let n2 = n * n
        let n3 = n2 * n
        let n4 = n3 * n
        return a / (1 + n)
            * ((1 + n2 / 4 + n4 / 64) * φ - (1.5 * n - 3.0 / 16 * n3) * sin(2 * φ)
                + 15.0 / 16 * (n2 - n4 / 4) * sin(4 * φ) - 35.0 / 48 * n3 * sin(6 * φ) + 315.0 / 512 * n4 * sin(8 * φ))
    }

    /// dm/dψ = N cos φ (the parallel's radius), metres per unit of isometric latitude.
    static func parallelRadius(_ φ: Double, ellipsoid: Bool, radius: Double) -> Double {
        guard ellipsoid else { return radius * cos(φ) }
        return a * cos(φ) / (1 - e2 * sin(φ) * sin(φ)).squareRoot()
    }

    /// The radius of curvature of the meridian, M.
    static func meridionalRadius(_ φ: Double, ellipsoid: Bool, radius: Double) -> Double {
        guard ellipsoid else { return radius }
        let w = 1 - e2 * sin(φ) * sin(φ)
        return a * (1 - e2) / (w * w.squareRoot())
    }

    /// Nodes and weights of 8-point Gauss–Legendre quadrature on [-1, 1].
    static let gaussLegendre8: [(Double, Double)] = [
        (-0.9602898564975363, 0.1012285362903763), (-0.7966664774136267, 0.2223810344533745),
        (-0.5255324099163290, 0.3137066458778873), (-0.1834346424956498, 0.3626837833783620),
        (0.1834346424956498, 0.3626837833783620), (0.5255324099163290, 0.3137066458778873),
        (0.7966664774136267, 0.2223810344533745), (0.9602898564975363, 0.1012285362903763),
    ]

    /// The rhumb-line distance in metres between two points.
    public static func distance(_ p1: Coordinate, _ p2: Coordinate, model: EarthModel = .wgs84) -> Double {
        let ellipsoid = model == .wgs84
        let radius = Spherical.radius
        let φ1 = Spherical.rad(p1.latitude)
        let φ2 = Spherical.rad(p2.latitude)
        let dλ = Spherical.wrapRadians(Spherical.rad(p2.longitude - p1.longitude))
        let dm = meridian(φ2, ellipsoid: ellipsoid, radius: radius) - meridian(φ1, ellipsoid: ellipsoid, radius: radius)
        if abs(abs(p1.latitude) - 90) < 1e-12 || abs(abs(p2.latitude) - 90) < 1e-12 { return abs(dm) }
        let dψ = isometric(φ2, ellipsoid: ellipsoid) - isometric(φ1, ellipsoid: ellipsoid)
        // dm/dψ. For nearly equal latitudes the plain differences cancel, so both are then
        // integrated over [φ1, φ2] by 8-point Gauss–Legendre quadrature (dm = M dφ,
        // dψ = M / (N cos φ) dφ), which keeps full relative precision.
        let ratio: Double
        if φ1 == φ2 {
            ratio = parallelRadius(φ1, ellipsoid: ellipsoid, radius: radius)
        } else if abs(dψ) < 0.01 {
            var dmQ = 0.0
            var dψQ = 0.0
            let half = (φ2 - φ1) / 2
            let mid = (φ1 + φ2) / 2
            for (x, w) in gaussLegendre8 {
                let φ = mid + half * x
                let meridional = meridionalRadius(φ, ellipsoid: ellipsoid, radius: radius)
                dmQ += w * meridional
                dψQ += w * meridional / parallelRadius(φ, ellipsoid: ellipsoid, radius: radius)
            }
            ratio = dmQ / dψQ
        } else {
            ratio = dm / dψ
        }
        return abs(ratio) * (dψ * dψ + dλ * dλ).squareRoot()
    }

    /// The constant bearing from p1 to p2, degrees clockwise from north.
    public static func bearing(from p1: Coordinate, to p2: Coordinate, model: EarthModel = .wgs84) -> Double {
        let ellipsoid = model == .wgs84
        let dψ =
            isometric(Spherical.rad(p2.latitude), ellipsoid: ellipsoid)
            - isometric(Spherical.rad(p1.latitude), ellipsoid: ellipsoid)
        let dλ = Spherical.wrapRadians(Spherical.rad(p2.longitude - p1.longitude))
        return Spherical.deg(atan2(dλ, dψ))
    }

    /// The point a fraction of the way along the rhumb line (linear in Mercator: longitude and
    /// isometric latitude), on the sphere.
    public static func interpolate(from a: Coordinate, to b: Coordinate, fraction: Double) -> Coordinate {
        let ψ1 = isometric(Spherical.rad(a.latitude), ellipsoid: false)
        let ψ2 = isometric(Spherical.rad(b.latitude), ellipsoid: false)
        let dλ = Spherical.wrapRadians(Spherical.rad(b.longitude - a.longitude))
        let ψ = ψ1 + (ψ2 - ψ1) * fraction
        let λ = Spherical.rad(a.longitude) + dλ * fraction
        var altitude: Double?
        if let h1 = a.altitude, let h2 = b.altitude { altitude = h1 + (h2 - h1) * fraction }
        return Coordinate(
            latitude: Spherical.deg(atan(sinh(ψ))), longitude: CameraPosition.wrapLongitude(Spherical.deg(λ)),
            altitude: altitude)
    }

    /// The area of a polygon with rhumb edges on a sphere, m² (exact: each edge contributes
    /// R²·(Δλ/Δψ)·Δ ln cosh ψ).
    public static func area(_ ring: Path, radius: Double = Spherical.radius) -> Double {
        guard ring.count >= 3 else { return 0 }
        var total = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            let ψ1 = isometric(Spherical.rad(previous.latitude), ellipsoid: false)
            let ψ2 = isometric(Spherical.rad(point.latitude), ellipsoid: false)
            let dλ = Spherical.wrapRadians(Spherical.rad(point.longitude - previous.longitude))
            let dψ = ψ2 - ψ1
            if abs(dψ) > 1e-12 {
                total += dλ / dψ * (log(cosh(ψ2)) - log(cosh(ψ1)))
            } else {
                total += dλ * tanh(ψ1)
            }
            previous = point
        }
        // ∮ sin φ dλ; the enclosed area is R² |∮ (1 - sin φ) dλ| with the winding's Δλ sum 0.
        return abs(total) * radius * radius
    }
}

/// Web Mercator, in the Maps SDK's map-point space: x = longitude / 180, y = ln tan(π/4 + φ/2) / π,
/// so the world is 2 wide; and in EPSG:3857 metres (× 20,037,508.34).
public enum WebMercator {
    /// Map units of the Maps SDK (the world is 2 wide).
    public static func point(_ c: Coordinate) -> (x: Double, y: Double) {
        let φ = Spherical.rad(max(-85.0511287798066, min(85.0511287798066, c.latitude)))
        return (c.longitude / 180, log(tan(.pi / 4 + φ / 2)) / .pi)
    }

    /// Metres per map unit (half the equator of the Web Mercator sphere).
    public static let metresPerUnit = 20_037_508.342789244

    /// The straight Web Mercator distance between two points, in map units.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let p = point(a)
        let q = point(b)
        return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }

    /// The signed area of a ring in map units² (shoelace).
    public static func area(_ ring: Path) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = point(ring[ring.count - 1])
        for c in ring {
            let p = point(c)
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return abs(sum) / 2
    }
}

extension Geodesic {
    /// The length of a path along geodesics, metres.
    public func length(_ path: Path) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + inverse($1.0, $1.1).distance }
    }

    /// The area of a polygon ring with geodesic edges, m² (Karney's algorithm; see `signedArea`).
    public func area(_ ring: Path) -> Double {
        abs(signedArea(ring))
    }
}

/// One measurement API over kinds and models.
public struct Measurer: Sendable {
    /// How edges run.
    public var kind: LengthKind
    /// The Earth's shape.
    public var model: EarthModel

    /// Creates a measurer.
    public init(kind: LengthKind = .geodesic, model: EarthModel = .wgs84) {
        self.kind = kind
        self.model = model
    }

    /// The length of one segment: metres (projected: EPSG:3857 metres).
    public func segmentLength(_ a: Coordinate, _ b: Coordinate) -> Double {
        switch kind {
        case .geodesic: model == .wgs84 ? Geodesic.wgs84.inverse(a, b).distance : Spherical.distance(a, b)
        case .rhumb: Rhumb.distance(a, b, model: model)
        case .projected: WebMercator.distance(a, b) * WebMercator.metresPerUnit
        }
    }

    /// The length of a path.
    public func length(_ path: Path) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + segmentLength($1.0, $1.1) }
    }

    /// The area of a ring: m² (projected: EPSG:3857 m²; rhumb on WGS84 uses the sphere).
    public func area(_ ring: Path) -> Double {
        switch kind {
        case .geodesic: model == .wgs84 ? Geodesic.wgs84.area(ring) : Spherical.area(ring)
        case .rhumb: Rhumb.area(ring)
        case .projected: WebMercator.area(ring) * WebMercator.metresPerUnit * WebMercator.metresPerUnit
        }
    }

    /// Total length of every line and ring of a geometry (a polygon's perimeter), and the area
    /// of its polygons (outer rings less holes); circles by formula.
    public func measure(_ geometry: Geometry) -> (length: Double, area: Double) {
        switch geometry {
        case .point, .multiPoint, .empty: return (0, 0)
        case .lineString(let path): return (length(path), 0)
        case .multiLineString(let lines): return (lines.reduce(0) { $0 + length($1) }, 0)
        case .polygon(let rings): return polygon(rings)
        case .multiPolygon(let polygons):
            return polygons.reduce((0, 0)) { total, rings in
                let m = polygon(rings)
                return (total.0 + m.length, total.1 + m.area)
            }
        case .geometryCollection(let members):
            return members.reduce((0, 0)) { total, member in
                let m = measure(member)
                return (total.0 + m.length, total.1 + m.area)
            }
        case .circle(_, let radius):
            return (2 * .pi * radius, .pi * radius * radius)
        }
    }

    private func polygon(_ rings: PolygonRings) -> (length: Double, area: Double) {
        let perimeter = rings.rings.reduce(0) { $0 + length($1.closed) }
        let area = max(0, self.area(rings.outer) - rings.holes.reduce(0) { $0 + self.area($1) })
        return (perimeter, area)
    }
}
