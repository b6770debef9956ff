/// A position on the Earth: latitude and longitude in degrees (WGS84 unless a CRS says
/// otherwise) and an optional altitude in metres.
///
/// The API uses Google's order, latitude first, as the Maps SDK and encoded polylines do.
/// GeoJSON, KML and WKT put longitude first on the wire; their codecs swap.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator.
    public var latitude: Double
    /// Degrees east of the prime meridian.
    public var longitude: Double
    /// Metres above the reference surface, when the source gave one.
    public var altitude: Double?

    /// Creates a coordinate from latitude and longitude in degrees, and an optional altitude in metres.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether latitude is within ±90° and longitude within ±180°, and both are finite.
    public var isValidGeographic: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// `lat,lng` or `lat,lng,alt`, in the shortest decimal form that reads back exactly.
    public var description: String {
        var text = DecimalFormatter.shortest(latitude) + "," + DecimalFormatter.shortest(longitude)
        if let altitude { text += "," + DecimalFormatter.shortest(altitude) }
        return text
    }
}

/// An ordered list of coordinates: the vertices of a line or a ring (the Maps SDK `GMSPath`).
public struct Path: Hashable, Sendable, RandomAccessCollection, MutableCollection,
    RangeReplaceableCollection, ExpressibleByArrayLiteral
{
    /// The vertices, in order.
    public var coordinates: [Coordinate]

    /// Creates a path from its vertices.
    public init(_ coordinates: [Coordinate]) { self.coordinates = coordinates }
    /// Creates an empty path.
    public init() { coordinates = [] }
    /// Creates a path from an array literal of coordinates.
    public init(arrayLiteral elements: Coordinate...) { coordinates = elements }

    public var startIndex: Int { coordinates.startIndex }
    public var endIndex: Int { coordinates.endIndex }
    public subscript(position: Int) -> Coordinate {
        get { coordinates[position] }
        set { coordinates[position] = newValue }
    }
    public mutating func replaceSubrange<C: Collection<Coordinate>>(_ subrange: Range<Int>, with newElements: C) {
        coordinates.replaceSubrange(subrange, with: newElements)
    }
    public mutating func reserveCapacity(_ n: Int) { coordinates.reserveCapacity(n) }

    /// Whether the first and last vertices are the same position (ignoring altitude), as a
    /// closed ring's are.
    public var isClosed: Bool {
        guard let first = coordinates.first, let last = coordinates.last, coordinates.count > 1 else { return false }
        return first.latitude == last.latitude && first.longitude == last.longitude
    }

    /// Whether any vertex carries an altitude.
    public var hasAltitude: Bool { coordinates.contains { $0.altitude != nil } }

    /// The path with its first vertex appended when it is not already closed.
    public var closed: Path {
        guard let first = coordinates.first, !isClosed else { return self }
        return Path(coordinates + [first])
    }
}

extension Path {
    /// Twice the signed area in the longitude/latitude plane (shoelace formula): positive
    /// when the vertices run counter-clockwise as seen on a map with north up.
    public var planarSignedDoubleArea: Double {
        guard coordinates.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = coordinates[coordinates.count - 1]
        for c in coordinates {
            sum += (previous.longitude - c.longitude) * (previous.latitude + c.latitude)
            previous = c
        }
        return sum
    }

    /// Whether the ring runs counter-clockwise in the longitude/latitude plane (RFC 7946's
    /// orientation for exterior rings).
    public var isCounterClockwise: Bool { planarSignedDoubleArea > 0 }

    /// The path in reverse order.
    public var reversedPath: Path {
        // (Written into place: `Array(coordinates.reversed())` appends one element at a time.)
        let count = coordinates.count
        return Path(
            coordinates.withUnsafeBufferPointer { source in
                [Coordinate](unsafeUninitializedCapacity: count) { target, initialized in
                    for index in 0..<count { target.initializeElement(at: index, to: source[count - 1 - index]) }
                    initialized = count
                }
            })
    }

    /// Whether the ring encloses the point (x = longitude, y = latitude) in the plane, by the
    /// even–odd rule: a ray towards +x crosses the ring an odd number of times.
    package func planarEncloses(_ x: Double, _ y: Double) -> Bool {
        guard coordinates.count >= 3 else { return false }
        var inside = false
        var previous = coordinates[coordinates.count - 1]
        for c in coordinates {
            if (c.latitude > y) != (previous.latitude > y) {
                let xCross =
                    c.longitude + (y - c.latitude) / (previous.latitude - c.latitude)
                    * (previous.longitude - c.longitude)
                if x < xCross { inside.toggle() }
            }
            previous = c
        }
        return inside
    }
}
