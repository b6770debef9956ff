public import GeoConvCore

/// Writes a model geometry as OGC Well-Known Text: `x y` is longitude latitude, `Z` is
/// written when every position has an altitude, empties as `… EMPTY`, numbers in the
/// shortest form that reads back exactly (or rounded to `precision` decimals).
public struct WKTWriter: Sendable {
    /// Decimals for coordinates; `nil` for the shortest exact form.
    public var precision: Int?

    /// Creates a WKT writer.
    public init(precision: Int? = nil) { self.precision = precision }

    /// The geometry as WKT.
    ///
    /// - Throws: `GeoConvError(.unsupported)` for a circle, which WKT cannot express
    ///   (convert it to a polygon first).
    public func text(for geometry: Geometry) throws(GeoConvError) -> String {
        var out = ""
        let hasZ = WKTWriter.allHaveAltitude(geometry)
        try append(geometry, hasZ: hasZ, tagged: true, to: &out)
        return out
    }

    static func allHaveAltitude(_ geometry: Geometry) -> Bool {
        var any = false, all = true
        geometry.forEachCoordinate { c in
            any = true
            if c.altitude == nil { all = false }
        }
        return any && all
    }

    private func append(_ geometry: Geometry, hasZ: Bool, tagged: Bool, to out: inout String) throws(GeoConvError) {
        let tag = geometry.kind.rawValue.uppercased() + (hasZ ? " Z " : " ")
        if tagged { out += tag }
        if geometry.isEmpty, case .empty = geometry {
            out += "EMPTY"
            return
        }
        switch geometry {
        case .point(let c):
            out += "("
            position(c, hasZ, &out)
            out += ")"
        case .lineString(let path): sequence(path, hasZ, &out)
        case .polygon(let rings): polygon(rings, hasZ, &out)
        case .multiPoint(let points):
            if points.isEmpty { out += "EMPTY"; return }
            out += "("
            for (i, p) in points.enumerated() {
                if i > 0 { out += "," }
                out += "("
                position(p, hasZ, &out)
                out += ")"
            }
            out += ")"
        case .multiLineString(let lines):
            if lines.isEmpty { out += "EMPTY"; return }
            out += "("
            for (i, line) in lines.enumerated() {
                if i > 0 { out += "," }
                sequence(line, hasZ, &out)
            }
            out += ")"
        case .multiPolygon(let polygons):
            if polygons.isEmpty { out += "EMPTY"; return }
            out += "("
            for (i, rings) in polygons.enumerated() {
                if i > 0 { out += "," }
                polygon(rings, hasZ, &out)
            }
            out += ")"
        case .geometryCollection(let members):
            if members.isEmpty { out += "EMPTY"; return }
            out += "("
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                try append(member, hasZ: WKTWriter.allHaveAltitude(member), tagged: true, to: &out)
            }
            out += ")"
        case .circle:
            throw GeoConvError(.unsupported, "WKT cannot hold a circle",
                               hint: "convert circles to polygons first (--circles polygon)")
        case .empty: out += "EMPTY"
        }
    }

    private func number(_ value: Double, _ out: inout String) {
        out += precision.map { DecimalFormatter.fixed(value, digits: $0) } ?? DecimalFormatter.shortest(value)
    }

    private func position(_ c: Coordinate, _ hasZ: Bool, _ out: inout String) {
        number(c.longitude, &out)
        out += " "
        number(c.latitude, &out)
        if hasZ, let altitude = c.altitude {
            out += " "
            number(altitude, &out)
        }
    }

    private func sequence<C: Collection<Coordinate>>(_ coordinates: C, _ hasZ: Bool, _ out: inout String) {
        if coordinates.isEmpty { out += "EMPTY"; return }
        out += "("
        var first = true
        for c in coordinates {
            if !first { out += "," }
            first = false
            position(c, hasZ, &out)
        }
        out += ")"
    }

    private func polygon(_ rings: PolygonRings, _ hasZ: Bool, _ out: inout String) {
        if rings.outer.isEmpty { out += "EMPTY"; return }
        out += "("
        for (i, ring) in rings.rings.enumerated() {
            if i > 0 { out += "," }
            sequence(ring.closed, hasZ, &out)
        }
        out += ")"
    }
}
