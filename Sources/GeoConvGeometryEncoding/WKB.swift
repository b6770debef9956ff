public import GeoConvCore

/// Well-Known Binary, ISO and PostGIS EWKB: both byte orders; Z and M as ISO type codes
/// (+1000, +2000, +3000) or EWKB flags (0x80000000 Z, 0x40000000 M); the EWKB SRID flag
/// (0x20000000). M values are read and dropped (the model has none); `POINT EMPTY` is a
/// point of NaNs, as GEOS and PostGIS write it.
public enum WKB {
    /// How the writer encodes dimensions and SRID.
    public enum Flavor: String, Hashable, Sendable {
        /// ISO SQL/MM type codes (Z = +1000); no SRID.
        case iso
        /// PostGIS EWKB flags; the SRID is written when given.
        case extended
    }

    /// What `read` returns: the geometry, whether M ordinates were dropped, how many curves
    /// were linearised, and how many empty points inside MultiPoints were dropped.
    public typealias Result = (WKTGeometry, droppedM: Bool, linearisedCurves: Int, droppedEmptyPoints: Int)

    /// Reads one geometry from `bytes`, which must hold exactly one. ISO curve types
    /// (CircularString 8, CompoundCurve 9, CurvePolygon 10, MultiCurve 11, MultiSurface 12)
    /// are linearised with arcs cut into segments of at most `arcStep` degrees.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, arcStep: Double = WKTParser.defaultArcStep
    ) throws(GeoConvError) -> Result {
        var reader = Reader(bytes: bytes)
        reader.arcStep = arcStep
        let (geometry, dims, srid) = try reader.geometry(depth: 0)
        guard reader.offset == bytes.count else {
            throw GeoConvError(
                .invalidInput, "\(bytes.count - reader.offset) bytes follow the WKB geometry",
                at: SourceLocation(byteOffset: reader.offset))
        }
        return (
            WKTGeometry(geometry: geometry, dimensions: dims, srid: srid), reader.droppedM, reader.linearisedCurves,
            reader.droppedEmptyPoints
        )
    }

    /// Reads one geometry from hexadecimal text (upper or lower case).
    public static func read(
        hex: UnsafeBufferPointer<UInt8>, arcStep: Double = WKTParser.defaultArcStep
    ) throws(GeoConvError) -> Result {
        guard hex.count % 2 == 0 else {
            throw GeoConvError(
                .invalidInput, "hex WKB has an odd number of digits", at: SourceLocation(byteOffset: hex.count))
        }
        var bytes = [UInt8](repeating: 0, count: hex.count / 2)
        for i in 0..<bytes.count {
            guard let high = hexValue(hex[2 * i]), let low = hexValue(hex[2 * i + 1]) else {
                throw GeoConvError(
                    .invalidInput,
                    "'\(Character(Unicode.Scalar(hex[2 * i + (hexValue(hex[2 * i]) == nil ? 0 : 1)])))' is not a hex digit",
                    at: SourceLocation(byteOffset: 2 * i))
            }
            bytes[i] = high << 4 | low
        }
        let result = bytes.withUnsafeBytes { raw -> Swift.Result<Result, GeoConvError> in
            do throws(GeoConvError) {
                return .success(try read(raw, arcStep: arcStep))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        var droppedM = false
        /// Curves linearised so far, and the arc step they were cut with (degrees).
        var linearisedCurves = 0
        /// Empty points inside MultiPoints, dropped: the model's MultiPoint holds positions only.
        var droppedEmptyPoints = 0
        var arcStep = WKTParser.defaultArcStep

        func error(_ message: String) -> GeoConvError {
            GeoConvError(.invalidInput, message, at: SourceLocation(byteOffset: offset))
        }

        mutating func byte() throws(GeoConvError) -> UInt8 {
            guard offset < bytes.count else { throw error("WKB ends early (truncated)") }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// An unsigned integer in the given byte order.
        mutating func integer<T: FixedWidthInteger & UnsignedInteger>(
            _ little: Bool, as type: T.Type
        ) throws(GeoConvError) -> T {
            let size = MemoryLayout<T>.size
            guard offset + size <= bytes.count else { throw error("WKB ends early (truncated)") }
            let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += size
            return little ? T(littleEndian: raw) : T(bigEndian: raw)
        }

        mutating func uint32(_ little: Bool) throws(GeoConvError) -> UInt32 { try integer(little, as: UInt32.self) }

        mutating func double(_ little: Bool) throws(GeoConvError) -> Double {
            Double(bitPattern: try integer(little, as: UInt64.self))
        }

        mutating func count(_ little: Bool, minimumBytesEach: Int) throws(GeoConvError) -> Int {
            let n = Int(try uint32(little))
            guard n <= (bytes.count - offset) / max(minimumBytesEach, 1) else {
                throw error(
                    "WKB declares \(n) elements but holds at most \((bytes.count - offset) / max(minimumBytesEach, 1))")
            }
            return n
        }

        mutating func position(_ little: Bool, _ dims: WKTDimensions) throws(GeoConvError) -> Coordinate? {
            let x = try double(little)
            let y = try double(little)
            var z: Double?
            if dims.hasZ { z = try double(little) }
            if dims.hasM {
                _ = try double(little)
                droppedM = true
            }
            if x.isNaN && y.isNaN { return nil }
            guard x.isFinite, y.isFinite, z?.isFinite ?? true else { throw error("a WKB ordinate is NaN or infinite") }
            return Coordinate(latitude: y, longitude: x, altitude: z)
        }

        mutating func path(_ little: Bool, _ dims: WKTDimensions) throws(GeoConvError) -> Path {
            let n = try count(little, minimumBytesEach: 8 * dims.count)
            var result: [Coordinate] = []
            result.reserveCapacity(n)
            for _ in 0..<n {
                guard let c = try position(little, dims) else { throw error("NaN position inside a line or ring") }
                result.append(c)
            }
            return Path(result)
        }

        mutating func geometry(
            depth: Int, parent: WKTDimensions? = nil
        ) throws(GeoConvError) -> (Geometry, WKTDimensions, Int?) {
            guard depth <= WKTParser.maximumNesting else {
                throw GeoConvError(
                    .limitExceeded, "WKB collections nested deeper than \(WKTParser.maximumNesting)",
                    at: SourceLocation(byteOffset: offset))
            }
            let order = try byte()
            guard order <= 1 else { throw error("byte order \(order) is neither 0 (big-endian) nor 1 (little-endian)") }
            let little = order == 1
            let raw = try uint32(little)
            var srid: Int?
            var hasZ = raw & 0x8000_0000 != 0
            var hasM = raw & 0x4000_0000 != 0
            if raw & 0x2000_0000 != 0 { srid = Int(try uint32(little)) }
            var code = raw & 0x0FFF_FFFF
            switch code / 1000 {
            case 1: hasZ = true
            case 2: hasM = true
            case 3:
                hasZ = true
                hasM = true
            default: break
            }
            code %= 1000
            let dims: WKTDimensions = hasZ ? (hasM ? .xyzm : .xyz) : (hasM ? .xym : .xy)
            let geometry: Geometry
            switch code {
            case 1:
                geometry = try position(little, dims).map(Geometry.point) ?? .empty(.point)
            case 2:
                let p = try path(little, dims)
                geometry = p.isEmpty ? .empty(.lineString) : .lineString(p)
            case 3:
                let n = try count(little, minimumBytesEach: 4)
                var rings: [Path] = []
                for _ in 0..<n { rings.append(try path(little, dims)) }
                geometry =
                    rings.first.map { .polygon(PolygonRings(outer: $0, holes: Array(rings.dropFirst()))) }
                    ?? .empty(.polygon)
            case 4, 5, 6, 7:
                let n = try count(little, minimumBytesEach: 5)
                var members: [Geometry] = []
                for _ in 0..<n {
                    let start = offset
                    let (member, _, _) = try self.geometry(depth: depth + 1, parent: dims)
                    let expected: GeometryKind? =
                        code == 4 ? .point : (code == 5 ? .lineString : (code == 6 ? .polygon : nil))
                    if let expected, member.kind != expected {
                        offset = start
                        throw error(
                            "a \(member.kind.rawValue) inside a WKB \(code == 4 ? "MultiPoint" : code == 5 ? "MultiLineString" : "MultiPolygon")"
                        )
                    }
                    members.append(member)
                }
                switch code {
                case 4:
                    var points: [Coordinate] = []
                    for m in members {
                        if case .point(let c) = m { points.append(c) } else { droppedEmptyPoints += 1 }
                    }
                    geometry = points.isEmpty ? .empty(.multiPoint) : .multiPoint(points)
                case 5:
                    var lines: [Path] = []
                    for m in members {
                        if case .lineString(let l) = m { lines.append(l) } else { lines.append(Path()) }
                    }
                    geometry = lines.isEmpty ? .empty(.multiLineString) : .multiLineString(lines)
                case 6:
                    var polygons: [PolygonRings] = []
                    for m in members {
                        if case .polygon(let r) = m {
                            polygons.append(r)
                        } else {
                            polygons.append(PolygonRings(outer: Path()))
                        }
                    }
                    geometry = polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
                default:
                    geometry = members.isEmpty ? .empty(.geometryCollection) : .geometryCollection(members)
                }
            case 8:
                let points = try path(little, dims).coordinates
                guard points.count >= 3, points.count % 2 == 1 else {
                    throw error("a WKB CircularString needs an odd number of points, 3 or more (found \(points.count))")
                }
                linearisedCurves += 1
                geometry = .lineString(Path(WKTParser.circularString(points, step: arcStep)))
            case 9, 10, 11, 12:
                let n = try count(little, minimumBytesEach: 5)
                var lines: [Path] = []
                var polygons: [PolygonRings] = []
                for _ in 0..<n {
                    let start = offset
                    let (member, _, _) = try self.geometry(depth: depth + 1, parent: dims)
                    switch (code, member) {
                    case (9...11, .lineString(let line)): lines.append(line)
                    case (9...11, .empty(.lineString)): lines.append(Path())
                    case (12, .polygon(let rings)): polygons.append(rings)
                    case (12, .empty(.polygon)): polygons.append(PolygonRings(outer: Path()))
                    default:
                        offset = start
                        throw error(
                            "a \(member.kind.rawValue) inside a WKB \(["CompoundCurve", "CurvePolygon", "MultiCurve", "MultiSurface"][Int(code) - 9])"
                        )
                    }
                }
                linearisedCurves += 1
                switch code {
                case 9:
                    var joined: [Coordinate] = []
                    for line in lines {
                        if let last = joined.last, let first = line.coordinates.first, last.latitude == first.latitude,
                            last.longitude == first.longitude
                        {
                            joined += line.coordinates.dropFirst()
                        } else {
                            joined += line.coordinates
                        }
                    }
                    geometry = joined.isEmpty ? .empty(.lineString) : .lineString(Path(joined))
                case 10:
                    geometry =
                        lines.first.map { .polygon(PolygonRings(outer: $0, holes: Array(lines.dropFirst()))) }
                        ?? .empty(.polygon)
                case 11:
                    geometry = lines.isEmpty ? .empty(.multiLineString) : .multiLineString(lines)
                default:
                    geometry = polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
                }
            default:
                offset -= 4
                throw GeoConvError(
                    .unsupported, "WKB geometry type \(raw) is not supported (surfaces and TINs are not)",
                    at: SourceLocation(byteOffset: offset),
                    hint: "convert it to polygons first (GDAL -nlt CONVERT_TO_LINEAR)")
            }
            return (geometry, dims, srid)
        }
    }

    /// Appends the geometry as WKB (little-endian).
    public static func append(
        _ geometry: Geometry, flavor: Flavor = .iso, srid: Int? = nil, to out: inout [UInt8]
    ) throws(GeoConvError) {
        try write(
            geometry, hasZ: geometry.hasAltitude, flavor: flavor, srid: flavor == .extended ? srid : nil, to: &out)
    }

    // (Little-endian words appended whole: a byte at a time asked eight times per double
    // whether the array was unique.)
    private static func uint32(_ value: UInt32, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func double(_ value: Double, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func header(_ code: UInt32, hasZ: Bool, flavor: Flavor, srid: Int?, _ out: inout [UInt8]) {
        out.append(1)
        switch flavor {
        case .iso: uint32(code + (hasZ ? 1000 : 0), &out)
        case .extended:
            var value = code | (hasZ ? 0x8000_0000 : 0)
            if srid != nil { value |= 0x2000_0000 }
            uint32(value, &out)
            if let srid { uint32(UInt32(truncatingIfNeeded: srid), &out) }
        }
    }

    private static func position(_ c: Coordinate, hasZ: Bool, _ out: inout [UInt8]) {
        double(c.longitude, &out)
        double(c.latitude, &out)
        if hasZ { double(c.altitude ?? 0, &out) }
    }

    private static func path(_ p: Path, hasZ: Bool, _ out: inout [UInt8]) {
        uint32(UInt32(p.count), &out)
        for c in p { position(c, hasZ: hasZ, &out) }
    }

    private static func write(
        _ geometry: Geometry, hasZ: Bool, flavor: Flavor, srid: Int?, to out: inout [UInt8]
    ) throws(GeoConvError) {
        switch geometry {
        case .point(let c):
            header(1, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            position(c, hasZ: hasZ, &out)
        case .lineString(let p):
            header(2, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            path(p, hasZ: hasZ, &out)
        case .polygon(let rings):
            header(3, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            let all = rings.outer.isEmpty ? [] : rings.rings  // an empty polygon has no rings
            uint32(UInt32(all.count), &out)
            for ring in all { path(ring.closed, hasZ: hasZ, &out) }
        case .multiPoint(let points):
            header(4, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            uint32(UInt32(points.count), &out)
            for p in points { try write(.point(p), hasZ: hasZ, flavor: flavor, srid: nil, to: &out) }
        case .multiLineString(let lines):
            header(5, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            uint32(UInt32(lines.count), &out)
            for l in lines { try write(.lineString(l), hasZ: hasZ, flavor: flavor, srid: nil, to: &out) }
        case .multiPolygon(let polygons):
            header(6, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            uint32(UInt32(polygons.count), &out)
            for p in polygons { try write(.polygon(p), hasZ: hasZ, flavor: flavor, srid: nil, to: &out) }
        case .geometryCollection(let members):
            header(7, hasZ: hasZ, flavor: flavor, srid: srid, &out)
            uint32(UInt32(members.count), &out)
            for m in members { try write(m, hasZ: hasZ, flavor: flavor, srid: nil, to: &out) }
        case .circle:
            throw GeoConvError(
                .unsupported, "WKB cannot hold a circle", hint: "convert circles to polygons first (--circles polygon)")
        case .empty(let kind):
            switch kind {
            case .point:
                header(1, hasZ: hasZ, flavor: flavor, srid: srid, &out)
                double(.nan, &out)
                double(.nan, &out)
                if hasZ { double(.nan, &out) }
            case .circle:
                throw GeoConvError(.unsupported, "WKB cannot hold a circle")
            default:
                let code: UInt32 =
                    [
                        GeometryKind.lineString: 2, .polygon: 3, .multiPoint: 4, .multiLineString: 5, .multiPolygon: 6,
                        .geometryCollection: 7,
                    ][kind] ?? 7
                header(code, hasZ: hasZ, flavor: flavor, srid: srid, &out)
                uint32(0, &out)
            }
        }
    }

    /// Appends bytes as lower-case hexadecimal.
    public static func appendHex(_ bytes: [UInt8], to out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
    }
}
