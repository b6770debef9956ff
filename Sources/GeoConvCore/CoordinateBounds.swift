/// A latitude/longitude rectangle (the Maps SDK's `GMSCoordinateBounds`), aware of the
/// antimeridian: when `west > east` the box crosses 180°.
public struct CoordinateBounds: Hashable, Sendable, CustomStringConvertible {
    /// Southern edge, degrees.
    public var south: Double
    /// Western edge, degrees in [-180, 180].
    public var west: Double
    /// Northern edge, degrees.
    public var north: Double
    /// Eastern edge, degrees in [-180, 180]; less than `west` across the antimeridian.
    public var east: Double

    /// Creates bounds from explicit edges (longitudes are wrapped into [-180, 180]).
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = min(south, north)
        self.north = max(south, north)
        self.west = CoordinateBounds.wrap(west)
        self.east = CoordinateBounds.wrap(east)
    }

    /// The smaller of the two boxes that have `a` and `b` as opposite corners, as the Maps
    /// SDK constructs bounds from two coordinates.
    public init(_ a: Coordinate, _ b: Coordinate) {
        let lng1 = CoordinateBounds.wrap(a.longitude)
        let lng2 = CoordinateBounds.wrap(b.longitude)
        let low = min(lng1, lng2)
        let high = max(lng1, lng2)
        if high - low <= 180 {
            self.init(south: a.latitude, west: low, north: b.latitude, east: high)
        } else {
            self.init(south: a.latitude, west: high, north: b.latitude, east: low)
        }
    }

    /// The bounds' south-west corner.
    public var southWest: Coordinate { Coordinate(latitude: south, longitude: west) }
    /// The bounds' north-east corner.
    public var northEast: Coordinate { Coordinate(latitude: north, longitude: east) }

    /// Whether the box crosses the antimeridian (its west edge is east of its east edge).
    public var crossesAntimeridian: Bool { west > east }

    /// The east–west extent in degrees, 0…360.
    public var longitudeSpan: Double { crossesAntimeridian ? east - west + 360 : east - west }

    /// The box's centre (on the antimeridian-crossing side when it crosses).
    public var center: Coordinate {
        Coordinate(latitude: (south + north) / 2, longitude: CoordinateBounds.wrap(west + longitudeSpan / 2))
    }

    /// Whether `coordinate` lies inside or on the edge of the box.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        let lng = CoordinateBounds.wrap(coordinate.longitude)
        return crossesAntimeridian ? (lng >= west || lng <= east) : (lng >= west && lng <= east)
    }

    /// Grows the box to hold `coordinate`, extending east or west, whichever adds less.
    public mutating func include(_ coordinate: Coordinate) {
        south = min(south, coordinate.latitude)
        north = max(north, coordinate.latitude)
        let lng = CoordinateBounds.wrap(coordinate.longitude)
        if contains(Coordinate(latitude: south, longitude: lng)) { return }
        let growEast = CoordinateBounds.positiveModulo(lng - east)
        let growWest = CoordinateBounds.positiveModulo(west - lng)
        if growEast <= growWest { east = lng } else { west = lng }
    }

    /// The box grown to hold `coordinate`.
    public func including(_ coordinate: Coordinate) -> CoordinateBounds {
        var copy = self
        copy.include(coordinate)
        return copy
    }

    /// The smallest box holding both boxes (extending across the antimeridian when that is smaller).
    public func union(_ other: CoordinateBounds) -> CoordinateBounds {
        var result = self
        result.include(other.southWest)
        result.include(other.northEast)
        // A box spanning both others may need the full width when neither edge covers it.
        if !(result.contains(Coordinate(latitude: other.south, longitude: other.center.longitude))) {
            result.west = -180
            result.east = 180
        }
        return result
    }

    /// `[west, south, east, north]`, the GeoJSON bbox order.
    public var description: String { "[\(west), \(south), \(east), \(north)]" }

    static func wrap(_ longitude: Double) -> Double {
        guard longitude.isFinite, longitude < -180 || longitude > 180 else { return longitude }
        let wrapped = positiveModulo(longitude + 180) - 180
        return wrapped
    }

    static func positiveModulo(_ value: Double) -> Double {
        let r = value.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
