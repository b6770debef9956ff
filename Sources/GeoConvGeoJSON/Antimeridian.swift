public import GeoConvCore

/// Cuts geometries that cross the antimeridian into parts on either side of it, as RFC 7946
/// §3.1.9 asks of writers: a line from (170, 45) to (-170, 45) becomes the MultiLineString
/// [[170, 45], [180, 45]], [[-180, 45], [-170, 45]].
///
/// A segment crosses when its longitudes differ by more than 180°; the crossing point is
/// interpolated linearly in longitude/latitude. Polygons are unwrapped to continuous
/// longitudes and clipped at ±180° (Sutherland–Hodgman), each side becoming one polygon;
/// a ring around a pole (it crosses an odd number of times) is left as it is.
public enum Antimeridian {
    /// The cut geometry, or `nil` when nothing crosses.
    public static func cut(_ geometry: Geometry) -> Geometry? {
        switch geometry {
        case .lineString(let path):
            guard let parts = cutLine(path) else { return nil }
            return .multiLineString(parts)
        case .multiLineString(let lines):
            var changed = false
            var parts: [Path] = []
            for line in lines {
                if let cut = cutLine(line) {
                    changed = true
                    parts += cut
                } else {
                    parts.append(line)
                }
            }
            return changed ? .multiLineString(parts) : nil
        case .polygon(let rings):
            guard let parts = cutPolygon(rings) else { return nil }
            return parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(parts)
        case .multiPolygon(let polygons):
            var changed = false
            var parts: [PolygonRings] = []
            for polygon in polygons {
                if let cut = cutPolygon(polygon) {
                    changed = true
                    parts += cut
                } else {
                    parts.append(polygon)
                }
            }
            return changed ? .multiPolygon(parts) : nil
        case .geometryCollection(let members):
            var changed = false
            let result = members.map { member -> Geometry in
                if let cut = cut(member) {
                    changed = true
                    return cut
                }
                return member
            }
            return changed ? .geometryCollection(result) : nil
        default:
            return nil
        }
    }

    static func crosses(_ a: Coordinate, _ b: Coordinate) -> Bool { abs(b.longitude - a.longitude) > 180 }

    static func interpolate(_ a: Double?, _ b: Double?, _ t: Double) -> Double? {
        guard let a, let b else { return a ?? b }
        return a + (b - a) * t
    }

    static func cutLine(_ path: Path) -> [Path]? {
        guard path.count >= 2, zip(path, path.dropFirst()).contains(where: { crosses($0, $1) }) else { return nil }
        var parts: [Path] = []
        var current: [Coordinate] = [path[0]]
        for (a, b) in zip(path, path.dropFirst()) {
            if crosses(a, b) {
                let boundary: Double = a.longitude > 0 ? 180 : -180
                let unwrapped = b.longitude + (a.longitude > 0 ? 360 : -360)
                let t = (boundary - a.longitude) / (unwrapped - a.longitude)
                let latitude = a.latitude + (b.latitude - a.latitude) * t
                let altitude = interpolate(a.altitude, b.altitude, t)
                current.append(Coordinate(latitude: latitude, longitude: boundary, altitude: altitude))
                parts.append(Path(current))
                current = [Coordinate(latitude: latitude, longitude: -boundary, altitude: altitude)]
            }
            current.append(b)
        }
        parts.append(Path(current))
        return parts
    }

    /// The ring with longitudes made continuous from `reference` (no jumps of more than 180°).
    static func unwrap(_ ring: Path, reference: Double) -> [Coordinate] {
        var result: [Coordinate] = []
        result.reserveCapacity(ring.count)
        var previous = reference
        for c in ring {
            var longitude = c.longitude
            // In closed form: a loop of ±360 steps never ends on longitudes like 1e300.
            let jump = longitude - previous
            if jump > 180 || jump < -180 { longitude -= 360 * (jump / 360).rounded() }
            result.append(Coordinate(latitude: c.latitude, longitude: longitude, altitude: c.altitude))
            previous = longitude
        }
        return result
    }

    static func cutPolygon(_ rings: PolygonRings) -> [PolygonRings]? {
        let all = rings.rings
        guard all.contains(where: { ring in zip(ring, ring.dropFirst()).contains { crosses($0, $1) } }),
              let first = rings.outer.first
        else { return nil }
        let outer = unwrap(rings.outer.closed, reference: first.longitude)
        // A ring around a pole does not come back to its start: leave it alone.
        guard let last = outer.last, abs(last.longitude - outer[0].longitude) < 1e-9 else { return nil }
        let minimum = outer.map(\.longitude).min() ?? 0, maximum = outer.map(\.longitude).max() ?? 0
        let boundary: Double = maximum > 180 ? 180 : (minimum < -180 ? -180 : 0)
        guard boundary != 0 else { return nil }
        let shift: Double = boundary > 0 ? -360 : 360
        let holes = rings.holes.map { hole in unwrap(hole.closed, reference: outer[0].longitude) }

        // Side A keeps longitudes on the near side of the boundary; side B is shifted across.
        func side(_ ring: [Coordinate], keepLow: Bool) -> [Coordinate] {
            let clipped = clip(ring, at: boundary, keepLow: keepLow)
            return keepLow == (boundary > 0) ? clipped : clipped.map {
                Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift, altitude: $0.altitude)
            }
        }
        var result: [PolygonRings] = []
        for keepLow in [true, false] {
            let outerPart = side(outer, keepLow: keepLow)
            guard outerPart.count >= 4 else { continue }
            let holeParts = holes.map { side($0, keepLow: keepLow) }.filter { $0.count >= 4 }
            result.append(PolygonRings(outer: Path(outerPart), holes: holeParts.map(Path.init)))
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

    static func intersection(_ a: Coordinate, _ b: Coordinate, _ boundary: Double) -> Coordinate {
        let t = (boundary - a.longitude) / (b.longitude - a.longitude)
        return Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: boundary,
                          altitude: interpolate(a.altitude, b.altitude, t))
    }
}
