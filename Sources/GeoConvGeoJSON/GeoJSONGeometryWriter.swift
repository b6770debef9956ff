public import GeoConvCore

/// Writes a model geometry as an RFC 7946 GeoJSON geometry object: positions as
/// `[longitude, latitude(, altitude)]`, numbers in the shortest form that reads back exactly
/// (or rounded to `precision` decimals).
///
/// Only geometry: the streaming feature reader and writer (styles, properties, winding,
/// antimeridian cutting) are built on top of this.
public struct GeoJSONGeometryWriter: Sendable {
    /// Decimals for coordinates; `nil` for the shortest exact form.
    public var precision: Int?

    /// Creates a geometry writer.
    public init(precision: Int? = nil) { self.precision = precision }

    /// The geometry as compact GeoJSON text.
    ///
    /// - Throws: `GeoConvError(.unsupported)` for a circle, which GeoJSON geometries cannot
    ///   express (convert it to a polygon first).
    public func text(for geometry: Geometry) throws(GeoConvError) -> String {
        var out = ""
        try append(geometry, to: &out)
        return out
    }

    /// Appends the geometry's GeoJSON text to `out`.
    public func append(_ geometry: Geometry, to out: inout String) throws(GeoConvError) {
        switch geometry {
        case .point(let c):
            out += #"{"type":"Point","coordinates":"#
            position(c, &out)
        case .lineString(let path):
            out += #"{"type":"LineString","coordinates":"#
            positions(path, &out)
        case .polygon(let rings):
            out += #"{"type":"Polygon","coordinates":"#
            polygon(rings, &out)
        case .multiPoint(let points):
            out += #"{"type":"MultiPoint","coordinates":"#
            positions(points, &out)
        case .multiLineString(let lines):
            out += #"{"type":"MultiLineString","coordinates":["#
            for (i, line) in lines.enumerated() {
                if i > 0 { out += "," }
                positions(line, &out)
            }
            out += "]"
        case .multiPolygon(let polygons):
            out += #"{"type":"MultiPolygon","coordinates":["#
            for (i, rings) in polygons.enumerated() {
                if i > 0 { out += "," }
                polygon(rings, &out)
            }
            out += "]"
        case .geometryCollection(let members):
            out += #"{"type":"GeometryCollection","geometries":["#
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                try append(member, to: &out)
            }
            out += "]"
        case .circle:
            throw GeoConvError(.unsupported, "a GeoJSON geometry cannot hold a circle",
                               hint: "convert circles to polygons first (--circles polygon)")
        case .empty(let kind):
            switch kind {
            case .geometryCollection: out += #"{"type":"GeometryCollection","geometries":["#
            case .circle:
                throw GeoConvError(.unsupported, "a GeoJSON geometry cannot hold a circle")
            default: out += #"{"type":""# + kind.rawValue + #"","coordinates":["#
            }
        }
        out += "}"
    }

    private func number(_ value: Double, _ out: inout String) {
        out += precision.map { DecimalFormatter.fixed(value, digits: $0) } ?? DecimalFormatter.shortest(value)
    }

    private func position(_ c: Coordinate, _ out: inout String) {
        out += "["
        number(c.longitude, &out)
        out += ","
        number(c.latitude, &out)
        if let altitude = c.altitude {
            out += ","
            number(altitude, &out)
        }
        out += "]"
    }

    private func positions<C: Collection<Coordinate>>(_ coordinates: C, _ out: inout String) {
        out += "["
        var first = true
        for c in coordinates {
            if !first { out += "," }
            first = false
            position(c, &out)
        }
        out += "]"
    }

    private func polygon(_ rings: PolygonRings, _ out: inout String) {
        out += "["
        for (i, ring) in rings.rings.enumerated() {
            if i > 0 { out += "," }
            positions(ring.closed, &out)
        }
        out += "]"
    }
}
