import GeoConvCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Curves (SQL/MM, ISO 19125): read and linearised, as GDAL does (`-nlt CONVERT_TO_LINEAR`):
/// every arc becomes straight segments spanning at most `arcStep` degrees (4°, GDAL's
/// `OGR_ARC_STEPSIZE`), from its first point to its last exactly; Z is interpolated along
/// the arc. The caller reports the linearisation (`wkt.curve-linearised`).
extension WKTParser {
    /// The curve types, by the kind each is linearised into. LINEARRING is no curve but
    /// belongs with them: a closed LineString.
    static let curves: [String: GeometryKind] = [
        "CIRCULARSTRING": .lineString, "COMPOUNDCURVE": .lineString, "CURVEPOLYGON": .polygon,
        "MULTICURVE": .multiLineString,
        "MULTISURFACE": .multiPolygon, "LINEARRING": .lineString,
    ]

    /// The body of a curve type (after its name and dimensions, not EMPTY).
    mutating func curve(_ name: String, _ dims: inout WKTDimensions?) throws(GeoConvError) -> Geometry {
        switch name {
        case "LINEARRING":
            let ring = try sequence(&dims)
            if !ring.isClosed { unclosedRing = true }
            return .lineString(ring)
        case "CIRCULARSTRING":
            return .lineString(try circularString(&dims))
        case "COMPOUNDCURVE":
            return .lineString(try compoundCurve(&dims))
        case "CURVEPOLYGON":
            return .polygon(try curvePolygon(&dims))
        case "MULTICURVE":
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var lines: [Path] = []
            repeat {
                lines.append(try curveMember(&dims, allowed: ["LINESTRING", "CIRCULARSTRING", "COMPOUNDCURVE"]))
            } while try comma(")")
            return .multiLineString(lines)
        default:  // MULTISURFACE
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var polygons: [PolygonRings] = []
            repeat {
                if peek() == UInt8(ascii: "(") {
                    polygons.append(try rings(&dims))
                } else {
                    switch try memberName(["POLYGON", "CURVEPOLYGON"]) {
                    case nil: polygons.append(PolygonRings(outer: Path()))
                    case "POLYGON": polygons.append(try rings(&dims))
                    default: polygons.append(try curvePolygon(&dims))
                    }
                }
            } while try comma(")")
            return .multiPolygon(polygons)
        }
    }

    /// `(x y, x y, x y, …)`: arcs through every three points, each arc's end the next's start.
    mutating func circularString(_ dims: inout WKTDimensions?) throws(GeoConvError) -> Path {
        let start = index
        let points = try sequence(&dims).coordinates
        guard points.count >= 3, points.count % 2 == 1 else {
            index = start
            throw error(
                "a CIRCULARSTRING needs an odd number of points, 3 or more (found \(points.count))",
                hint: "each arc is start, a point on the arc, end; the next arc starts at the end")
        }
        linearisedCurves += 1
        return Path(WKTParser.circularString(points, step: arcStep))
    }

    /// The points of arcs through every three points (an odd count, 3 or more), each arc's end
    /// the next's start, cut into segments of at most `step` degrees: WKT's and WKB's.
    static func circularString(_ points: [Coordinate], step: Double) -> [Coordinate] {
        var result: [Coordinate] = [points[0]]
        var i = 0
        while i + 2 < points.count {
            result += arc(points[i], points[i + 1], points[i + 2], step: step)
            i += 2
        }
        return result
    }

    /// `(member, member, …)`: linear runs `(…)` or `LINESTRING (…)`, and `CIRCULARSTRING (…)`,
    /// joined (a member's first point repeats the previous one's last).
    mutating func compoundCurve(_ dims: inout WKTDimensions?) throws(GeoConvError) -> Path {
        try expect(UInt8(ascii: "("), "'(' or EMPTY")
        var result: [Coordinate] = []
        repeat {
            let member = try curveMember(&dims, allowed: ["LINESTRING", "CIRCULARSTRING"]).coordinates
            if let last = result.last, let first = member.first, last.latitude == first.latitude,
                last.longitude == first.longitude
            {
                result += member.dropFirst()
            } else {
                result += member
            }
        } while try comma(")")
        linearisedCurves += 1
        return Path(result)
    }

    /// `(ring, ring, …)`, each ring linear `(…)`, `LINESTRING`, `CIRCULARSTRING` or `COMPOUNDCURVE`.
    mutating func curvePolygon(_ dims: inout WKTDimensions?) throws(GeoConvError) -> PolygonRings {
        try expect(UInt8(ascii: "("), "'(' or EMPTY")
        var rings: [Path] = []
        repeat {
            let ring = try curveMember(&dims, allowed: ["LINESTRING", "LINEARRING", "CIRCULARSTRING", "COMPOUNDCURVE"])
            if !ring.isClosed { unclosedRing = true }
            rings.append(ring)
        } while try comma(")")
        linearisedCurves += 1
        return PolygonRings(outer: rings.first ?? Path(), holes: Array(rings.dropFirst()))
    }

    /// A line-like member: `(…)` (linear), EMPTY, or one of the `allowed` types.
    mutating func curveMember(_ dims: inout WKTDimensions?, allowed: Set<String>) throws(GeoConvError) -> Path {
        if peek() == UInt8(ascii: "(") { return try sequence(&dims) }
        switch try memberName(allowed) {
        case nil: return Path()
        case "CIRCULARSTRING"?: return try circularString(&dims)
        case "COMPOUNDCURVE"?: return try compoundCurve(&dims)
        default: return try sequence(&dims)
        }
    }

    /// A member's type name (one of `allowed`, with an optional Z/M/ZM, glued or not), or
    /// `nil` for EMPTY.
    mutating func memberName(_ allowed: Set<String>) throws(GeoConvError) -> String? {
        let start = index
        guard var name = word() else { throw error("expected '(' or a curve type, found \(describe())") }
        if name == "EMPTY" { return nil }
        for suffix in ["ZM", "Z", "M"]
        where !allowed.contains(name) && name.hasSuffix(suffix) && allowed.contains(String(name.dropLast(suffix.count)))
        {
            name = String(name.dropLast(suffix.count))
        }
        guard allowed.contains(name) else {
            index = start
            throw error("expected '(' or one of \(allowed.sorted().joined(separator: ", ")), found \(describe())")
        }
        let save = index
        if let tag = word() {
            if tag == "EMPTY" { return nil }
            if !["Z", "M", "ZM"].contains(tag) { index = save }
        }
        return name
    }

    /// The arc from `a` through `b` to `c` as points after `a` (ending exactly at `c`), each
    /// segment spanning at most `step` degrees; three collinear points are a straight line.
    static func arc(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate, step: Double) -> [Coordinate] {
        let (ax, ay, bx, by, cx, cy) = (a.longitude, a.latitude, b.longitude, b.latitude, c.longitude, c.latitude)
        let center: (x: Double, y: Double)
        var sweep: Double
        if ax == cx && ay == cy {
            // A whole circle: b is opposite a.
            center = ((ax + bx) / 2, (ay + by) / 2)
            sweep = 2 * Double.pi
        } else {
            let d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
            guard abs(d) > 1e-12 * max(1, abs(ax) + abs(bx) + abs(cx) + abs(ay) + abs(by) + abs(cy)) else {
                return [b, c]
            }
            let a2 = ax * ax + ay * ay
            let b2 = bx * bx + by * by
            let c2 = cx * cx + cy * cy
            center = (
                (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d,
                (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
            )
            let ta = atan2(ay - center.y, ax - center.x)
            let tc = atan2(cy - center.y, cx - center.x)
            // Counter-clockwise when b lies on the way from a to c turning left.
            let clockwise = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0
            func ccw(_ from: Double, _ to: Double) -> Double {
                let angle = (to - from).truncatingRemainder(dividingBy: 2 * Double.pi)
                return angle < 0 ? angle + 2 * Double.pi : angle
            }
            sweep = clockwise ? -ccw(tc, ta) : ccw(ta, tc)
        }
        let radius = ((ax - center.x) * (ax - center.x) + (ay - center.y) * (ay - center.y)).squareRoot()
        let start = atan2(ay - center.y, ax - center.x)
        // Points so far apart (or so nearly in line) that the circle through them overflows:
        // drawn straight, as collinear ones are.
        let steps = (abs(sweep) / (max(0.01, step) * Double.pi / 180)).rounded(.up)
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, start.isFinite, steps.isFinite else {
            return [b, c]
        }
        let segments = max(2, Int(steps))
        var points: [Coordinate] = []
        points.reserveCapacity(segments)
        for i in 1..<segments {
            let f = Double(i) / Double(segments)
            let angle = start + sweep * f
            var altitude: Double?
            if let za = a.altitude, let zc = c.altitude { altitude = za + (zc - za) * f }
            let point = Coordinate(
                latitude: center.y + radius * sin(angle), longitude: center.x + radius * cos(angle), altitude: altitude)
            guard point.latitude.isFinite, point.longitude.isFinite, altitude?.isFinite ?? true else { return [b, c] }
            points.append(point)
        }
        points.append(c)
        return points
    }
}
