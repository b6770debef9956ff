public import GeoConvCore

/// Writes a model geometry as OGC WKT: `x y` is longitude latitude; `Z` when every position
/// of the geometry has an altitude (positions without one are written with Z 0, reported by
/// the file writer); `… EMPTY` for empties; numbers in the shortest form that reads back
/// exactly, or rounded to `precision` decimals; an EWKT `SRID=n;` prefix when given.
public struct WKTWriter: Sendable {
    /// Decimals for coordinates; `nil` for the shortest exact form.
    public var precision: Int?

    /// Creates a WKT writer.
    public init(precision: Int? = nil) { self.precision = precision }

    /// The geometry as WKT.
    ///
    /// - Throws: `GeoConvError(.unsupported)` for a circle, which WKT cannot express
    ///   (the conversion pipeline turns circles into polygons first).
    public func text(for geometry: Geometry, srid: Int? = nil) throws(GeoConvError) -> String {
        var out: [UInt8] = []
        try append(geometry, srid: srid, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the geometry's WKT.
    public func append(_ geometry: Geometry, srid: Int? = nil, to out: inout [UInt8]) throws(GeoConvError) {
        if let srid { out.append(contentsOf: "SRID=\(srid);".utf8) }
        try append(geometry, hasZ: WKTWriter.hasZ(geometry), tagged: true, to: &out)
    }

    /// Whether any position has an altitude (then all are written with Z).
    static func hasZ(_ geometry: Geometry) -> Bool { geometry.hasAltitude }

    static let names: [GeometryKind: String] = [
        .point: "POINT", .lineString: "LINESTRING", .polygon: "POLYGON", .multiPoint: "MULTIPOINT",
        .multiLineString: "MULTILINESTRING", .multiPolygon: "MULTIPOLYGON", .geometryCollection: "GEOMETRYCOLLECTION",
    ]

    private func append(_ geometry: Geometry, hasZ: Bool, tagged: Bool, to out: inout [UInt8]) throws(GeoConvError) {
        guard let name = WKTWriter.names[geometry.kind] else {
            throw GeoConvError(
                .unsupported, "WKT cannot hold a circle", hint: "convert circles to polygons first (--circles polygon)")
        }
        if tagged {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: (hasZ ? " Z " : " ").utf8)
        }
        if geometry.isEmpty {
            if case .geometryCollection = geometry {
            } else {
                out.append(contentsOf: "EMPTY".utf8)
                return
            }
        }
        switch geometry {
        case .point(let c):
            out.append(UInt8(ascii: "("))
            position(c, hasZ, &out)
            out.append(UInt8(ascii: ")"))
        case .lineString(let path): sequence(path, hasZ, &out)
        case .polygon(let rings): polygon(rings, hasZ, &out)
        case .multiPoint(let points):
            out.append(UInt8(ascii: "("))
            for (i, p) in points.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "("))
                position(p, hasZ, &out)
                out.append(UInt8(ascii: ")"))
            }
            out.append(UInt8(ascii: ")"))
        case .multiLineString(let lines):
            out.append(UInt8(ascii: "("))
            for (i, line) in lines.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                sequence(line, hasZ, &out)
            }
            out.append(UInt8(ascii: ")"))
        case .multiPolygon(let polygons):
            out.append(UInt8(ascii: "("))
            for (i, rings) in polygons.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                polygon(rings, hasZ, &out)
            }
            out.append(UInt8(ascii: ")"))
        case .geometryCollection(let members):
            if members.isEmpty {
                out.append(contentsOf: "EMPTY".utf8)
                return
            }
            out.append(UInt8(ascii: "("))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try append(member, hasZ: hasZ, tagged: true, to: &out)
            }
            out.append(UInt8(ascii: ")"))
        case .circle:
            throw GeoConvError(
                .unsupported, "WKT cannot hold a circle", hint: "convert circles to polygons first (--circles polygon)")
        case .empty:
            out.append(contentsOf: "EMPTY".utf8)
        }
    }

    @inline(__always) private func number(_ value: Double, _ out: inout [UInt8]) {
        DecimalFormatter.append(value, digits: precision, to: &out)
    }

    @inline(__always) private func position(_ c: Coordinate, _ hasZ: Bool, _ out: inout [UInt8]) {
        number(c.longitude, &out)
        out.append(0x20)
        number(c.latitude, &out)
        if hasZ {
            out.append(0x20)
            number(c.altitude ?? 0, &out)
        }
    }

    private func sequence<C: Collection<Coordinate>>(_ coordinates: C, _ hasZ: Bool, _ out: inout [UInt8]) {
        if coordinates.isEmpty {
            out.append(contentsOf: "EMPTY".utf8)
            return
        }
        out.append(UInt8(ascii: "("))
        var first = true
        for c in coordinates {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            position(c, hasZ, &out)
        }
        out.append(UInt8(ascii: ")"))
    }

    private func polygon(_ rings: PolygonRings, _ hasZ: Bool, _ out: inout [UInt8]) {
        if rings.outer.isEmpty {
            out.append(contentsOf: "EMPTY".utf8)
            return
        }
        out.append(UInt8(ascii: "("))
        for (i, ring) in rings.rings.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            sequence(ring.closed, hasZ, &out)
        }
        out.append(UInt8(ascii: ")"))
    }
}
