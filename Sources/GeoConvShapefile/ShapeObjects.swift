#if Shapefile
internal import CShapelib
import GeoConvCore

/// The model's geometries as shapelib objects: polygons' outer rings clockwise and holes
/// counter-clockwise, every ring closed, as the Shapefile specification asks.
enum ShapeObjects {
    static func make(_ geometry: Geometry, kind: ShapeKind, type: Int32, hasZ: Bool) -> UnsafeMutablePointer<SHPObject>? {
        var parts: [[Coordinate]] = []
        switch geometry {
        case .point(let c): parts = [[c]]
        case .multiPoint(let points): parts = [points]
        case .lineString(let path): parts = [path.coordinates]
        case .multiLineString(let lines): parts = lines.map(\.coordinates)
        case .polygon(let rings): parts = oriented(rings)
        case .multiPolygon(let polygons): parts = polygons.flatMap(oriented)
        case .circle, .geometryCollection, .empty: parts = []
        }
        parts = parts.filter { !$0.isEmpty }
        var x: [Double] = [], y: [Double] = [], z: [Double] = []
        var starts: [Int32] = []
        for part in parts {
            starts.append(Int32(x.count))
            for c in part {
                x.append(c.longitude)
                y.append(c.latitude)
                z.append(c.altitude ?? 0)
            }
        }
        let multiPart = kind == .lines || kind == .polygons
        return x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                z.withUnsafeBufferPointer { zs in
                    starts.withUnsafeBufferPointer { partStarts in
                        SHPCreateObject(type, -1, multiPart ? Int32(parts.count) : 0, multiPart ? partStarts.baseAddress : nil, nil,
                                        Int32(xs.count), xs.baseAddress, ys.baseAddress, hasZ ? zs.baseAddress : nil, nil)
                    }
                }
            }
        }
    }

    /// The rings of a polygon closed, the outer one clockwise and the holes counter-clockwise.
    static func oriented(_ rings: PolygonRings) -> [[Coordinate]] {
        let outer = rings.outer.closed
        var result = [(outer.isCounterClockwise ? outer.reversedPath : outer).coordinates]
        for hole in rings.holes {
            let ring = hole.closed
            result.append((ring.planarSignedDoubleArea < 0 ? ring.reversedPath : ring).coordinates)
        }
        return result
    }
}

#endif
