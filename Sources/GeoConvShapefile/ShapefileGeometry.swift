#if Shapefile
internal import CShapelib
import GeoConvCore

/// A shape read from a `.shp` as the model's geometry (the Shapefile specification, Esri
/// 1998): points, multipoints, polylines (one part: a LineString, several: a
/// MultiLineString) and polygons, whose rings are outer when clockwise and holes when
/// counter-clockwise, each hole given to the smallest outer ring around it.
enum ShapeGeometry {
    /// What reading a shape met that the model does not hold.
    struct Losses {
        var measures = false
        var multipatch = false
        var orphanHoles = false
    }

    /// The geometry of `shape`; `nil` for a null shape (and a MultiPatch, reported).
    static func geometry(of shape: UnsafeMutablePointer<SHPObject>, losses: inout Losses) -> Geometry? {
        let object = shape.pointee
        let type = object.nSHPType
        guard type != SHPT_NULL else { return nil }
        let hasZ =
            type == SHPT_POINTZ || type == SHPT_ARCZ || type == SHPT_POLYGONZ || type == SHPT_MULTIPOINTZ
            || type == SHPT_MULTIPATCH
        let hasM = hasZ || type == SHPT_POINTM || type == SHPT_ARCM || type == SHPT_POLYGONM || type == SHPT_MULTIPOINTM
        if hasM, object.bMeasureIsUsed != 0, let m = object.padfM, object.nVertices > 0,
            (0..<Int(object.nVertices)).contains(where: { m[$0] > -1e38 })
        {
            losses.measures = true  // "no data" M values are below -10³⁸
        }
        let count = Int(object.nVertices)
        func coordinate(_ i: Int) -> Coordinate {
            Coordinate(latitude: object.padfY[i], longitude: object.padfX[i], altitude: hasZ ? object.padfZ?[i] : nil)
        }
        func parts() -> [[Coordinate]] {
            let partCount = Int(object.nParts)
            guard partCount > 0 else { return count > 0 ? [(0..<count).map(coordinate)] : [] }
            return (0..<partCount).compactMap { p in
                let start = Int(object.panPartStart[p])
                let end = p + 1 < partCount ? Int(object.panPartStart[p + 1]) : count
                guard start >= 0, start <= end, end <= count else { return nil }
                return (start..<end).map(coordinate)
            }
        }
        switch type {
        case SHPT_MULTIPATCH:
            losses.multipatch = true
            let polygons = multipatch(
                parts(), types: (0..<Int(object.nParts)).map { object.panPartType?[$0] ?? SHPP_RING })
            return polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
        case SHPT_POINT, SHPT_POINTZ, SHPT_POINTM:
            return count > 0 ? .point(coordinate(0)) : .empty(.point)
        case SHPT_MULTIPOINT, SHPT_MULTIPOINTZ, SHPT_MULTIPOINTM:
            return count > 0 ? .multiPoint((0..<count).map(coordinate)) : .empty(.multiPoint)
        case SHPT_ARC, SHPT_ARCZ, SHPT_ARCM:
            let lines = parts().filter { !$0.isEmpty }
            if lines.isEmpty { return .empty(.lineString) }
            return lines.count == 1 ? .lineString(Path(lines[0])) : .multiLineString(lines.map(Path.init))
        default:
            let polygons = assemble(parts().filter { $0.count >= 3 }, losses: &losses)
            if polygons.isEmpty { return .empty(.polygon) }
            return polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
        }
    }

    /// A MultiPatch's parts as polygons (as GDAL makes them): each triangle of a strip or fan
    /// a polygon, an outer or first ring a polygon with the inner rings or rings after it as
    /// its holes.
    static func multipatch(_ parts: [[Coordinate]], types: [Int32]) -> [PolygonRings] {
        var polygons: [PolygonRings] = []
        func triangle(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) {
            polygons.append(PolygonRings(outer: Path([a, b, c, a]), holes: []))
        }
        var holder: Int?  // the polygon a RING or INNERRING joins
        for (part, type) in zip(parts, types) {
            switch type {
            case SHPP_TRISTRIP:
                if part.count >= 3 { for i in 0..<(part.count - 2) { triangle(part[i], part[i + 1], part[i + 2]) } }
                holder = nil
            case SHPP_TRIFAN:
                if part.count >= 3 { for i in 1..<(part.count - 1) { triangle(part[0], part[i], part[i + 1]) } }
                holder = nil
            case SHPP_INNERRING where holder != nil, SHPP_RING where holder != nil:
                if let holder { polygons[holder].holes.append(Path(part)) }
            default:  // OUTERRING, FIRSTRING, a RING that begins a polygon
                polygons.append(PolygonRings(outer: Path(part), holes: []))
                holder = polygons.count - 1
            }
        }
        return polygons
    }

    /// Rings into polygons: clockwise rings are outer ones, counter-clockwise ones holes of
    /// the smallest outer ring holding them — all of the outer ring's when there is one, as
    /// GDAL reads them. A hole inside no outer ring of several becomes a polygon of its own (as
    /// GDAL makes it; reported). With no clockwise ring at all (files written
    /// with the wrong winding), every ring is an outer one.
    static func assemble(_ rings: [[Coordinate]], losses: inout Losses) -> [PolygonRings] {
        let areas = rings.map { Path($0).planarSignedDoubleArea }
        let clockwise = areas.map { $0 < 0 }
        guard clockwise.contains(true) else { return rings.map { PolygonRings(outer: Path($0), holes: []) } }
        var polygons: [PolygonRings] = []
        var outerIndex: [Int] = []  // ring index of each polygon's outer ring
        for (i, ring) in rings.enumerated() where clockwise[i] {
            polygons.append(PolygonRings(outer: Path(ring), holes: []))
            outerIndex.append(i)
        }
        for (i, ring) in rings.enumerated() where !clockwise[i] {
            // With one outer ring, every hole is its (GDAL's OGR_ORGANIZE_POLYGONS=ONLY_CCW,
            // its default for shapefiles, reads them so).
            if outerIndex.count == 1 {
                polygons[0].holes.append(Path(ring))
                continue
            }
            let probe = ring[0]
            var best: Int?
            for (p, o) in outerIndex.enumerated() where Path(rings[o]).planarEncloses(probe.longitude, probe.latitude) {
                if best.map({ abs(areas[o]) < abs(areas[outerIndex[$0]]) }) ?? true { best = p }
            }
            if let best {
                polygons[best].holes.append(Path(ring))
            } else {
                losses.orphanHoles = true
                polygons.append(PolygonRings(outer: Path(ring), holes: []))
            }
        }
        return polygons
    }
}
#endif
