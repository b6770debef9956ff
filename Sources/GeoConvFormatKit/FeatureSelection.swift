/// Which features, parts, properties and dimensions a conversion keeps: ogr2ogr's `-where`,
/// `-spat`, `-select`, `-limit`, `-explodecollections` and `-dim`, as `--where`, `--bbox`,
/// `--select`, `--limit`, `--explode-collections` and `--dim`. Applied right after reading,
/// before any other transform, by every command that reads features through the pipeline.
public struct FeatureSelection: Hashable, Sendable {
    /// A filter in ogr2ogr's `-where` syntax (`kind = 'park' AND area > 1000`); `nil` keeps
    /// every feature. Parsed when the conversion is planned: a bad expression is a usage
    /// error placed at its column.
    public var whereClause: String?
    /// The properties kept, in this order (`--select a,b,c`); `nil` keeps them all. `name`
    /// or `title` keeps the feature's title, `description` or `snippet` its snippet.
    public var properties: [String]?
    /// Features whose geometry intersects this box are kept (`--bbox W,S,E,N`), in the
    /// input's CRS unless `boundingBoxCRS` names another; west > east crosses the antimeridian.
    public var boundingBox: Box?
    /// The CRS `boundingBox` is given in (`--bbox-srs`); `nil` for the input's.
    public var boundingBoxCRS: String?
    /// At most this many features are written (`--limit N`); reading stops there.
    public var limit: Int?
    /// One feature per part of a multi-geometry or collection (`--explode-collections`).
    public var explodesCollections = false
    /// The coordinate dimension written (`--dim 2|3`); `nil` keeps each position's own.
    public var dimension: Dimension?

    /// A longitude/latitude (or x/y) box.
    public struct Box: Hashable, Sendable {
        /// The west (minimum x) edge.
        public var west: Double
        /// The south (minimum y) edge.
        public var south: Double
        /// The east (maximum x) edge; less than `west` for a box across the antimeridian.
        public var east: Double
        /// The north (maximum y) edge.
        public var north: Double

        /// Creates a box.
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
        }
    }

    /// A coordinate dimension to force.
    public enum Dimension: String, Hashable, Sendable, CaseIterable {
        /// Longitude and latitude only: altitudes dropped.
        case xy
        /// With altitude: 0 where a position had none (as ogr2ogr's `-dim XYZ`).
        case xyz
    }

    /// Whether the selection keeps everything as read.
    public var isEmpty: Bool {
        whereClause == nil && properties == nil && boundingBox == nil && limit == nil && !explodesCollections
            && dimension == nil
    }

    /// Creates an empty selection (everything kept).
    public init() {}
}
