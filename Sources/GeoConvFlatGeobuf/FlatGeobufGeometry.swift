import GeoConvCore

/// A feature's `Geometry` table made into the model's geometry: `xy` the coordinates, `z`
/// their altitudes, `ends` where rings (of a polygon) or lines (of a multi-line) end, `parts`
/// the members of a multi-polygon or collection. M, T and TM values are not carried
/// (reported by the reader, counted by feature). A Triangle is a polygon; a TIN or a
/// PolyhedralSurface is read as a MultiPolygon of its faces (`surfaces` names it, for the
/// reader to report).
enum FlatGeobufGeometry {
    /// The geometry of `table`, of `type` (the header's, or the table's own when the header's
    /// is Unknown); `nil` for an empty one.
    static func geometry(
        _ table: FlatBufferTable, type headerType: UInt8, hasZ: Bool, depth: Int, surfaces: inout String?
    ) throws(GeoConvError) -> Geometry? {
        // (Parts are offsets: a damaged file can make one its own part.)
        guard depth < 64 else {
            throw GeoConvError(
                .limitExceeded, "geometry parts nested more than 64 deep",
                at: SourceLocation(file: table.file, byteOffset: table.base + table.position),
                hint: "see docs/security.md for what geoconv refuses")
        }
        let type = headerType == 0 ? try table.uint8(6) : headerType
        switch type {
        case 1:
            return try coordinates(table, hasZ: hasZ).first.map(Geometry.point)
        case 2:
            let points = try coordinates(table, hasZ: hasZ)
            return points.isEmpty ? nil : .lineString(Path(points))
        case 3, 17:
            let rings = try parts(table, hasZ: hasZ).map(Path.init)
            guard let outer = rings.first else { return nil }
            return .polygon(PolygonRings(outer: outer, holes: Array(rings.dropFirst())))
        case 4:
            let points = try coordinates(table, hasZ: hasZ)
            return points.isEmpty ? nil : .multiPoint(points)
        case 5:
            let lines = try parts(table, hasZ: hasZ).map(Path.init)
            return lines.isEmpty ? nil : .multiLineString(lines)
        case 6, 15, 16:
            if type != 6 { surfaces = typeName(type) }
            var polygons: [PolygonRings] = []
            for part in try table.tables(7) {
                if case .polygon(let rings)? = try geometry(
                    part, type: 3, hasZ: hasZ, depth: depth + 1, surfaces: &surfaces)
                {
                    polygons.append(rings)
                }
            }
            return polygons.isEmpty ? nil : .multiPolygon(polygons)
        case 7:
            var members: [Geometry] = []
            for part in try table.tables(7) {
                if let member = try geometry(part, type: 0, hasZ: hasZ, depth: depth + 1, surfaces: &surfaces) {
                    members.append(member)
                } else if let kind = kind(try part.uint8(6)) {
                    members.append(.empty(kind))  // (a member without coordinates keeps its place, as GDAL's)
                }
            }
            return members.isEmpty ? nil : .geometryCollection(members)
        default:
            throw GeoConvError(
                .unsupported,
                "a FlatGeobuf geometry of type \(type) (\(Self.typeName(type))) is not read: geoconv reads points, "
                    + "lines, polygons, their multi forms, collections, triangles, TINs and polyhedral surfaces",
                at: SourceLocation(file: table.file, byteOffset: table.base + table.position),
                hint: "convert the curves to lines first, e.g. with ogr2ogr -nlt CONVERT_TO_LINEAR")
        }
    }

    /// The model's kind of a `GeometryType` number, for an empty member; `nil` for the others.
    static func kind(_ type: UInt8) -> GeometryKind? {
        switch type {
        case 1: .point
        case 2: .lineString
        case 3: .polygon
        case 4: .multiPoint
        case 5: .multiLineString
        case 6: .multiPolygon
        case 7: .geometryCollection
        default: nil
        }
    }

    static func typeName(_ type: UInt8) -> String {
        let names = [
            "Unknown", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon",
            "GeometryCollection", "CircularString", "CompoundCurve", "CurvePolygon", "MultiCurve", "MultiSurface",
            "Curve", "Surface", "PolyhedralSurface", "TIN", "Triangle",
        ]
        return Int(type) < names.count ? names[Int(type)] : "unknown"
    }

    /// The table's coordinates, with their altitudes when it has them.
    static func coordinates(_ table: FlatBufferTable, hasZ: Bool) throws(GeoConvError) -> [Coordinate] {
        guard let xy = try table.vector(1, elementSize: 8) else { return [] }
        let count = xy.count / 16
        let z = hasZ ? try table.vector(2, elementSize: 8) : nil
        let altitudes = z.flatMap { $0.count / 8 == count ? $0 : nil }
        var result: [Coordinate] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let at = xy.lowerBound + 16 * index
            result.append(
                Coordinate(
                    latitude: table.double(at: at + 8), longitude: table.double(at: at),
                    altitude: altitudes.map { table.double(at: $0.lowerBound + 8 * index) }))
        }
        return result
    }

    /// The table's coordinates cut where `ends` says (one part when it has no `ends`).
    static func parts(_ table: FlatBufferTable, hasZ: Bool) throws(GeoConvError) -> [[Coordinate]] {
        let all = try coordinates(table, hasZ: hasZ)
        guard let ends = try table.vector(0, elementSize: 4), !ends.isEmpty else { return all.isEmpty ? [] : [all] }
        var parts: [[Coordinate]] = []
        var start = 0
        for at in stride(from: ends.lowerBound, to: ends.upperBound, by: 4) {
            let end = table.uint32(at: at)
            guard end >= start, end <= all.count else {
                throw GeoConvError(
                    .invalidInput,
                    "a geometry's ends (\(end)) do not fit its \(all.count) coordinates: the file is damaged",
                    at: SourceLocation(file: table.file, byteOffset: table.base + at))
            }
            parts.append(Array(all[start..<end]))
            start = end
        }
        return parts
    }
}
