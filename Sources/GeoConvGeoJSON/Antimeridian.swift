public import GeoConvCore

/// Cuts geometries that cross the antimeridian into parts on either side of it, as RFC 7946
/// §3.1.9 asks of writers — but only where the input *means* a crossing:
///
/// - a position's longitude is beyond ±180° (a line from 170° to 190° goes through 180°);
/// - or the source draws edges the shorter way round (`shorterWay`: KML as Google Earth
///   draws it, geodesic lines), and an edge's longitudes differ by more than 180° (a
///   line from 170° to -170° goes through 180°, not through 0°).
///
/// Planar GeoJSON and WKT edges are straight in longitude/latitude, so a polygon from -100°
/// to 100° covers the 200° through 0° and is never cut (GDAL leaves it alone too).
///
/// Crossing points are interpolated linearly in longitude/latitude; each part is shifted
/// into [-180, 180]. Polygons are clipped at the boundary (Sutherland–Hodgman), each side
/// becoming one polygon; a ring around a pole (it does not come back to its start when
/// unwrapped) is left as it is. Geometries with a longitude beyond ±540° or a latitude beyond
/// ±90° are not geographic and never cut (they are reported as out of range elsewhere).
/// Every number produced is finite.
public enum Antimeridian {
    /// The cut geometry, or `nil` when nothing crosses.
    ///
    /// - Parameter shorterWay: whether edges go the shorter way round (see the type's notes).
    public static func cut(_ geometry: Geometry, shorterWay: Bool) -> Geometry? {
        switch geometry {
        case .lineString(let path):
            guard let parts = cutLine(path, shorterWay: shorterWay) else { return nil }
            return parts.count == 1 ? .lineString(parts[0]) : .multiLineString(parts)
        case .multiLineString(let lines):
            var changed = false
            var parts: [Path] = []
            for line in lines {
                if let cut = cutLine(line, shorterWay: shorterWay) {
                    changed = true
                    parts += cut
                } else {
                    parts.append(line)
                }
            }
            return changed ? .multiLineString(parts) : nil
        case .polygon(let rings):
            guard let parts = cutPolygon(rings, shorterWay: shorterWay) else { return nil }
            return parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(parts)
        case .multiPolygon(let polygons):
            var changed = false
            var parts: [PolygonRings] = []
            for polygon in polygons {
                if let cut = cutPolygon(polygon, shorterWay: shorterWay) {
                    changed = true
                    parts += cut
                } else {
                    parts.append(polygon)
                }
            }
            return changed ? .multiPolygon(parts) : nil
        case .point(let c):
            guard let shifted = normalized(c) else { return nil }
            return .point(shifted)
        case .multiPoint(let points):
            guard points.contains(where: { normalized($0) != nil }) else { return nil }
            return .multiPoint(points.map { normalized($0) ?? $0 })
        case .geometryCollection(let members):
            var changed = false
            let result = members.map { member -> Geometry in
                if let cut = cut(member, shorterWay: shorterWay) {
                    changed = true
                    return cut
                }
                return member
            }
            return changed ? .geometryCollection(result) : nil
        case .circle, .empty:
            return nil
        }
    }

    /// The furthest longitude that is still cut; beyond it data is not geographic.
    static let limit = 540.0

    /// A position beyond ±180° (and within ±540°) moved into range; `nil` when it is in range,
    /// or not geographic (a latitude beyond ±90°: a projected shapefile without its `.prj`).
    static func normalized(_ c: Coordinate) -> Coordinate? {
        guard abs(c.longitude) > 180, abs(c.longitude) <= limit, abs(c.latitude) <= 90 else { return nil }
        return Coordinate(
            latitude: c.latitude, longitude: c.longitude + (c.longitude > 0 ? -360 : 360), altitude: c.altitude)
    }

    static func interpolate(_ a: Double?, _ b: Double?, _ t: Double) -> Double? {
        guard let a, let b else { return a ?? b }
        return a + (b - a) * t
    }

    /// The positions with longitudes made continuous from the first (or from `reference`):
    /// no jump of more than 180°, so some may go beyond ±180°. In closed form, so that huge
    /// longitudes cannot make it loop.
    public static func unwrap(_ ring: Path, reference: Double? = nil) -> [Coordinate] {
        var result: [Coordinate] = []
        result.reserveCapacity(ring.count)
        guard var previous = reference ?? ring.first?.longitude else { return result }
        for c in ring {
            var longitude = c.longitude
            let jump = longitude - previous
            if jump > 180 || jump < -180 { longitude -= 360 * (jump / 360).rounded() }
            result.append(Coordinate(latitude: c.latitude, longitude: longitude, altitude: c.altitude))
            previous = longitude
        }
        return result
    }

    /// Whether the positions can be cut: all finite and within ±540°, and one beyond ±180°.
    static func needsCut(_ positions: [Coordinate]) -> Bool {
        var beyond = false
        for c in positions {
            guard c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= limit else { return false }
            if abs(c.longitude) > 180 { beyond = true }
        }
        return beyond
    }

    /// Shifts a part into [-180, 180] by the multiple of 360° that centres it.
    static func shiftedIntoRange(_ part: [Coordinate]) -> [Coordinate] {
        guard let low = part.map(\.longitude).min(), let high = part.map(\.longitude).max() else { return part }
        let shift = -360 * ((low + high) / 2 / 360).rounded()
        guard shift != 0 else { return part }
        return part.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift, altitude: $0.altitude) }
    }

    static func cutLine(_ path: Path, shorterWay: Bool) -> [Path]? {
        guard path.count >= 2 else { return nil }
        let positions = shorterWay ? unwrap(path) : path.coordinates
        guard needsCut(positions) else { return nil }
        var parts: [[Coordinate]] = []
        var current: [Coordinate] = [positions[0]]
        for (a, b) in zip(positions, positions.dropFirst()) {
            // The odd multiples of 180° strictly between a and b, in the order a line from a meets them.
            let low = min(a.longitude, b.longitude)
            let high = max(a.longitude, b.longitude)
            var boundaries: [Double] = []
            for boundary in [-540.0, -180, 180, 540] where boundary > low && boundary < high {
                boundaries.append(boundary)
            }
            if b.longitude < a.longitude { boundaries.reverse() }
            for boundary in boundaries {
                let t = (boundary - a.longitude) / (b.longitude - a.longitude)
                let crossing = Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: boundary,
                    altitude: interpolate(a.altitude, b.altitude, t))
                current.append(crossing)
                parts.append(current)
                current = [crossing]
            }
            current.append(b)
        }
        parts.append(current)
        return parts.filter { $0.count >= 2 }.map { Path(shiftedIntoRange($0)) }
    }

    static func cutPolygon(_ rings: PolygonRings, shorterWay: Bool) -> [PolygonRings]? {
        guard let first = rings.outer.first else { return nil }
        let outer = shorterWay ? unwrap(rings.outer.closed) : rings.outer.closed.coordinates
        let holes = rings.holes.map { hole in
            shorterWay ? unwrap(hole.closed, reference: first.longitude) : hole.closed.coordinates
        }
        guard needsCut(outer + holes.joined()) else { return nil }
        // A ring around a pole does not come back to its start: leave it alone.
        guard let last = outer.last, abs(last.longitude - outer[0].longitude) < 1e-9 else { return nil }
        let minimum = outer.map(\.longitude).min() ?? 0
        let maximum = outer.map(\.longitude).max() ?? 0
        let boundary: Double = maximum > 180 ? 180 : (minimum < -180 ? -180 : 0)
        guard boundary != 0 else { return nil }

        var result: [PolygonRings] = []
        for keepLow in [true, false] {
            let outerPart = clip(outer, at: boundary, keepLow: keepLow)
            guard outerPart.count >= 4 else { continue }
            let holeParts = holes.map { clip($0, at: boundary, keepLow: keepLow) }.filter { $0.count >= 4 }
            let shift = outerPart.map(\.longitude)
            let centre = ((shift.min() ?? 0) + (shift.max() ?? 0)) / 2
            let offset = -360 * (centre / 360).rounded()
            func moved(_ ring: [Coordinate]) -> Path {
                Path(
                    offset == 0
                        ? ring
                        : ring.map {
                            Coordinate(latitude: $0.latitude, longitude: $0.longitude + offset, altitude: $0.altitude)
                        })
            }
            result.append(PolygonRings(outer: moved(outerPart), holes: holeParts.map(moved)))
        }
        return result.isEmpty ? nil : result
    }

    /// Sutherland–Hodgman clipping of a closed ring against the vertical line `x = boundary`.
    static func clip(_ ring: [Coordinate], at boundary: Double, keepLow: Bool) -> [Coordinate] {
        func inside(_ c: Coordinate) -> Bool { keepLow ? c.longitude <= boundary : c.longitude >= boundary }
        var output: [Coordinate] = []
        let open = Array(ring.dropLast())
        guard !open.isEmpty else { return [] }
        var previous = open[open.count - 1]
        for current in open {
            if inside(current) {
                if !inside(previous) { output.append(intersection(previous, current, boundary)) }
                output.append(current)
            } else if inside(previous) {
                output.append(intersection(previous, current, boundary))
            }
            previous = current
        }
        if let first = output.first { output.append(first) }
        return output
    }

    /// Where the edge a–b meets `x = boundary` (a and b lie on opposite sides, so they differ).
    static func intersection(_ a: Coordinate, _ b: Coordinate, _ boundary: Double) -> Coordinate {
        let span = b.longitude - a.longitude
        let t = span == 0 ? 0 : (boundary - a.longitude) / span
        return Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: boundary,
            altitude: interpolate(a.altitude, b.altitude, t))
    }
}
