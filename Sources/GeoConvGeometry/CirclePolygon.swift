public import GeoConvCore
public import GeoConvFormatKit

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Circles as polygons: every vertex exactly `radius` metres (geodesic, WGS84) from the centre.
public enum CirclePolygon {
    /// The vertex count that keeps the polygon within `tolerance` metres of the true circle
    /// (the sagitta of each edge), at least 16 and at most 4,096.
    public static func vertexCount(radius: Double, tolerance: Double) -> Int {
        guard radius > 0, tolerance > 0 else { return 16 }
        let ratio = min(1, tolerance / radius)
        let n = Double.pi / acos(1 - ratio)
        guard n.isFinite else { return 4096 }
        return min(4096, max(16, Int(n.rounded(.up))))
    }

    /// The default tolerance: 0.1 % of the radius, at most 1 m.
    public static func defaultTolerance(radius: Double) -> Double { min(1, radius * 0.001) }

    /// The closed ring approximating the circle, counter-clockwise, starting due north.
    public static func ring(center: Coordinate, radius: Double, tolerance: Double? = nil) -> Path {
        let n = vertexCount(radius: radius, tolerance: tolerance ?? defaultTolerance(radius: radius))
        var points: [Coordinate] = []
        points.reserveCapacity(n + 1)
        for i in 0..<n {
            // Counter-clockwise on the map: bearings decreasing from north.
            let bearing = 360 - Double(i) * 360 / Double(n)
            points.append(
                Geodesic.wgs84.destination(
                    from: center, distance: radius, bearing: bearing.truncatingRemainder(dividingBy: 360)))
        }
        points.append(points[0])
        return Path(points)
    }
}

extension CirclePolygon {
    /// The circle a ring approximates, if it does: at least 16 vertices, closed, all within
    /// `tolerance` (a fraction of the radius, default 0.5 %) of one geodesic distance from
    /// their centre. This recognises geoconv's own circle polygons and those of most tools.
    public static func recognize(_ ring: Path, tolerance: Double = 0.005) -> (center: Coordinate, radius: Double)? {
        guard ring.count >= 17, ring.isClosed else { return nil }
        let vertices = ring.dropLast()
        // Centre: the normalised mean of the unit vectors.
        var x = 0.0
        var y = 0.0
        var z = 0.0
        for c in vertices {
            let φ = c.latitude * .pi / 180
            let λ = c.longitude * .pi / 180
            x += cos(φ) * cos(λ)
            y += cos(φ) * sin(λ)
            z += sin(φ)
        }
        let norm = (x * x + y * y + z * z).squareRoot()
        guard norm > 1e-9 else { return nil }
        var center = Coordinate(latitude: asin(z / norm) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
        // Refine on the ellipsoid: least squares for the point equidistant from the vertices
        // (the residuals d_i − r̄ shift the centre along the bearings to the vertices).
        for _ in 0..<4 {
            let solutions = vertices.map { Geodesic.wgs84.inverse(center, $0) }
            let mean = solutions.reduce(0) { $0 + $1.distance } / Double(solutions.count)
            var east = 0.0
            var north = 0.0
            for s in solutions {
                let θ = s.initialBearing * .pi / 180
                east += (s.distance - mean) * sin(θ)
                north += (s.distance - mean) * cos(θ)
            }
            east *= 2 / Double(solutions.count)
            north *= 2 / Double(solutions.count)
            let shift = (east * east + north * north).squareRoot()
            if shift < 1e-6 { break }
            center = Geodesic.wgs84.destination(from: center, distance: shift, bearing: atan2(east, north) * 180 / .pi)
        }
        let distances = vertices.map { Geodesic.wgs84.inverse(center, $0).distance }
        let radius = distances.reduce(0, +) / Double(distances.count)
        guard radius > 0, distances.allSatisfy({ abs($0 - radius) <= tolerance * radius }) else { return nil }
        // The vertices must go round the centre evenly (no large gap), as a circle's do.
        let bearings = vertices.map { Geodesic.wgs84.inverse(center, $0).initialBearing }.sorted()
        var largestGap = 360 - (bearings.last ?? 0) + (bearings.first ?? 0)
        for (a, b) in zip(bearings, bearings.dropFirst()) { largestGap = max(largestGap, b - a) }
        guard largestGap < 360 / Double(vertices.count) * 3 else { return nil }
        return (center, radius)
    }
}

/// Turns polygons that are circles (see `CirclePolygon.recognize`) back into circles
/// (`--detect-circles`), noting each one.
public struct RecognizeCircles: FeatureTransform {
    /// Creates the transform.
    public init() {}

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard case .polygon(let rings)? = feature.geometry, rings.holes.isEmpty,
            let circle = CirclePolygon.recognize(rings.outer)
        else { return [feature] }
        var copy = feature
        copy.geometry = .circle(center: circle.center, radius: circle.radius)
        diagnostics.note(
            GeometryCode.circleRecognized, "polygons that are circles are written as circles (--detect-circles)")
        return [copy]
    }
}
