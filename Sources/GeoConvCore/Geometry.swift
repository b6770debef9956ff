/// The rings of one polygon: an outer boundary and zero or more holes.
///
/// Rings are stored as given (closed or not, any winding); writers close and orient them
/// as their format requires.
public struct PolygonRings: Hashable, Sendable {
    /// The outer boundary.
    public var outer: Path
    /// The holes, each inside the outer boundary.
    public var holes: [Path]

    /// Creates polygon rings from an outer boundary and its holes.
    public init(outer: Path, holes: [Path] = []) {
        self.outer = outer
        self.holes = holes
    }

    /// All rings, outer first.
    public var rings: [Path] { [outer] + holes }
}

/// The kind of a geometry, without its coordinates.
public enum GeometryKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case point = "Point"
    case lineString = "LineString"
    case polygon = "Polygon"
    case multiPoint = "MultiPoint"
    case multiLineString = "MultiLineString"
    case multiPolygon = "MultiPolygon"
    case geometryCollection = "GeometryCollection"
    case circle = "Circle"

    /// The OGC / GeoJSON type name (`"Circle"` for circles, which only the model has).
    public var description: String { rawValue }
}

/// A geometry of the overlay model: the seven OGC Simple Features types, plus circles
/// (centre and radius in metres, as the Maps SDK's `GMSCircle`) and explicit empties.
public enum Geometry: Hashable, Sendable {
    /// A single position.
    case point(Coordinate)
    /// A line through two or more positions.
    case lineString(Path)
    /// A polygon with an outer ring and holes.
    case polygon(PolygonRings)
    /// Several positions.
    case multiPoint([Coordinate])
    /// Several lines.
    case multiLineString([Path])
    /// Several polygons.
    case multiPolygon([PolygonRings])
    /// A heterogeneous collection of geometries.
    case geometryCollection([Geometry])
    /// A circle: every point `radius` metres (geodesic) from `center`.
    case circle(center: Coordinate, radius: Double)
    /// An empty geometry of a given kind (WKT `POINT EMPTY`, `LINESTRING EMPTY`, …).
    ///
    /// Readers produce this, not empty paths or arrays, so that emptiness has one spelling.
    case empty(GeometryKind)

    /// Whether this is a circle or a collection with one inside (at any depth).
    public var containsCircle: Bool {
        switch self {
        case .circle: true
        case .geometryCollection(let members): members.contains(where: \.containsCircle)
        default: false
        }
    }

    /// The kind of this geometry.
    public var kind: GeometryKind {
        switch self {
        case .point: .point
        case .lineString: .lineString
        case .polygon: .polygon
        case .multiPoint: .multiPoint
        case .multiLineString: .multiLineString
        case .multiPolygon: .multiPolygon
        case .geometryCollection: .geometryCollection
        case .circle: .circle
        case .empty(let kind): kind
        }
    }

    /// Whether the geometry has no positions at all.
    public var isEmpty: Bool {
        switch self {
        case .point, .circle: false
        case .lineString(let path): path.isEmpty
        case .polygon(let rings): rings.outer.isEmpty
        case .multiPoint(let points): points.isEmpty
        case .multiLineString(let lines): lines.allSatisfy(\.isEmpty)
        case .multiPolygon(let polygons): polygons.allSatisfy { $0.outer.isEmpty }
        case .geometryCollection(let members): members.allSatisfy(\.isEmpty)
        case .empty: true
        }
    }

    /// Calls `body` with every position of the geometry, in order (a circle yields its centre).
    public func forEachCoordinate(_ body: (Coordinate) throws -> Void) rethrows {
        switch self {
        case .point(let c): try body(c)
        case .lineString(let path): for c in path { try body(c) }
        case .polygon(let rings):
            for ring in rings.rings { for c in ring { try body(c) } }
        case .multiPoint(let points): for c in points { try body(c) }
        case .multiLineString(let lines): for line in lines { for c in line { try body(c) } }
        case .multiPolygon(let polygons):
            for polygon in polygons { for ring in polygon.rings { for c in ring { try body(c) } } }
        case .geometryCollection(let members): for member in members { try member.forEachCoordinate(body) }
        case .circle(let center, _): try body(center)
        case .empty: break
        }
    }

    /// The number of positions (a circle counts its centre).
    public var coordinateCount: Int {
        var count = 0
        forEachCoordinate { _ in count += 1 }
        return count
    }

    /// Whether any position carries an altitude.
    public var hasAltitude: Bool {
        var found = false
        forEachCoordinate { if $0.altitude != nil { found = true } }
        return found
    }

    /// Whether some positions carry an altitude and others do not (a collection of a 3D line
    /// and a 2D point): a format that gives a geometry one dimension for all its positions (WKT,
    /// WKB) writes the others at altitude 0.
    public var mixesAltitudes: Bool {
        if case .point = self { return false }
        var with = false
        var without = false
        forEachCoordinate { c in if c.altitude == nil { without = true } else { with = true } }
        return with && without
    }

    /// The geometry with every position passed through `transform`, called once per position in
    /// the order `forEachCoordinate` visits them (a polygon's shell before its holes, parts and
    /// members in order), so a running index pairs each call with the same position.
    public func mapCoordinates<E: Error>(_ transform: (Coordinate) throws(E) -> Coordinate) throws(E) -> Geometry {
        func mapPath(_ path: Path) throws(E) -> Path {
            var result: [Coordinate] = []
            result.reserveCapacity(path.count)
            for c in path { result.append(try transform(c)) }
            return Path(result)
        }
        func mapRings(_ rings: PolygonRings) throws(E) -> PolygonRings {
            // The shell first, then the holes: the order `forEachCoordinate` visits them in, which
            // callers that hand out transformed positions by a running index rely on.
            let outer = try mapPath(rings.outer)
            var holes: [Path] = []
            holes.reserveCapacity(rings.holes.count)
            for hole in rings.holes { holes.append(try mapPath(hole)) }
            return PolygonRings(outer: outer, holes: holes)
        }
        switch self {
        case .point(let c): return .point(try transform(c))
        case .lineString(let path): return .lineString(try mapPath(path))
        case .polygon(let rings): return .polygon(try mapRings(rings))
        case .multiPoint(let points): return .multiPoint(try mapPath(Path(points)).coordinates)
        case .multiLineString(let lines):
            var result: [Path] = []
            for line in lines { result.append(try mapPath(line)) }
            return .multiLineString(result)
        case .multiPolygon(let polygons):
            var result: [PolygonRings] = []
            for polygon in polygons { result.append(try mapRings(polygon)) }
            return .multiPolygon(result)
        case .geometryCollection(let members):
            var result: [Geometry] = []
            for member in members { result.append(try member.mapCoordinates(transform)) }
            return .geometryCollection(result)
        case .circle(let center, let radius): return .circle(center: try transform(center), radius: radius)
        case .empty: return self
        }
    }

    /// The smallest bounds holding every position (antimeridian aware), or `nil` when empty.
    ///
    /// A circle's bounds are its centre's; the geometry utilities compute a circle's extent.
    public var bounds: CoordinateBounds? {
        var bounds: CoordinateBounds?
        forEachCoordinate { c in
            if bounds == nil { bounds = CoordinateBounds(c, c) } else { bounds?.include(c) }
        }
        return bounds
    }
}
