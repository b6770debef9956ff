public import GeoConvCore
import GeoConvIO
public import GeoConvFormatKit

/// The ordinates a WKT or WKB geometry declares.
public enum WKTDimensions: String, Hashable, Sendable {
    case xy = "XY"
    case xyz = "XYZ"
    case xym = "XYM"
    case xyzm = "XYZM"

    /// Numbers per position.
    public var count: Int {
        switch self {
        case .xy: 2
        case .xyz, .xym: 3
        case .xyzm: 4
        }
    }

    var hasZ: Bool { self == .xyz || self == .xyzm }
    var hasM: Bool { self == .xym || self == .xyzm }
}

/// A parsed WKT geometry: the model geometry (M values dropped), the declared dimensions,
/// and the EWKT `SRID=n;` prefix if any.
public struct WKTGeometry: Hashable, Sendable {
    /// The geometry (Z kept as altitude; M dropped).
    public var geometry: Geometry
    /// What the text declared or implied.
    public var dimensions: WKTDimensions
    /// The EWKT SRID, when the text had `SRID=n;`.
    public var srid: Int?
}

/// Parses OGC Simple Features WKT and ISO SQL/MM dimensions: the seven types, `Z`, `M`, `ZM`
/// (also glued, as `POINTZ`), `EMPTY`, any case, any whitespace, and the EWKT `SRID=n;`
/// prefix. Errors give the byte offset (callers add line and column) and say what was expected.
///
/// Rules: every position of a geometry has the same number of ordinates, matching its tag
/// (untagged: 2 = XY, 3 = XYZ, 4 = XYZM); a tagged collection's members have its dimensions;
/// `EMPTY` stands for a whole geometry or a member of a multi-geometry or collection (an
/// EMPTY point inside a MULTIPOINT is dropped and counted: the model's MultiPoint holds
/// positions only; empty lines and polygons are kept); curve
/// and surface types (CIRCULARSTRING, TIN, …) are refused as unsupported; NaN and infinite
/// ordinates are refused; collections nest at most 32 deep.
public struct WKTParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Set when M ordinates were dropped (the caller reports it).
    public private(set) var droppedM = false
    /// Set when a ring was not closed (the caller reports it).
    public internal(set) var unclosedRing = false
    /// EMPTY points inside MULTIPOINTs, which the model cannot hold (the caller reports them).
    public private(set) var droppedEmptyPoints = 0
    /// Curves (CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON, MULTICURVE, MULTISURFACE) made
    /// into straight segments (the caller reports it).
    var linearisedCurves = 0
    /// The largest angle, in degrees, one segment of a linearised arc spans (GDAL's
    /// `OGR_ARC_STEPSIZE`, 4 by default).
    var arcStep = WKTParser.defaultArcStep

    /// The arc step used when none is given: 4°, as GDAL.
    public static let defaultArcStep = 4.0

    /// The option that sets the arc step (`--arc-step`), declared once with the codec: the WKT
    /// format lists it, and CSV's geometry column reads its value.
    public static let arcStepOption = FormatOption<Double>(
        name: "arc-step", key: "ARC_STEP", sides: .read,
        help: "Degrees one segment spans when WKT/WKB curves are linearised (default 4, as GDAL).",
        valueName: "degrees", allowed: ("within (0, 90] degrees", { $0 > 0 && $0 <= 90 }))

    static let maximumNesting = 32

    /// Parses one geometry from `bytes` (the whole buffer must be one geometry).
    /// Curves are linearised with arcs cut into segments of at most `arcStep` degrees.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, arcStep: Double = defaultArcStep
    ) throws(GeoConvError)
        -> (WKTGeometry, droppedM: Bool, unclosedRing: Bool, droppedEmptyPoints: Int, linearisedCurves: Int)
    {
        var parser = WKTParser(bytes: bytes)
        parser.arcStep = arcStep
        let result = try parser.document()
        return (result, parser.droppedM, parser.unclosedRing, parser.droppedEmptyPoints, parser.linearisedCurves)
    }

    /// Parses one geometry from a string.
    public static func parse(_ text: String) throws(GeoConvError) -> WKTGeometry {
        var copy = text
        let result = copy.withUTF8 { bytes -> Result<WKTGeometry, GeoConvError> in
            do throws(GeoConvError) {
                return .success(try parse(bytes).0)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: Tokens

    func error(_ message: String, hint: String? = nil) -> GeoConvError {
        GeoConvError(.invalidInput, message, at: SourceLocation(byteOffset: index), hint: hint)
    }

    mutating func skipSpace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    func describe() -> String {
        guard index < bytes.count else { return "the end of the text" }
        if bytes[index] >= 0x80 {
            return "the non-ASCII byte 0x" + String(bytes[index], radix: 16, uppercase: true) + " (WKT is ASCII)"
        }
        let end = min(bytes.count, index + 12)
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + (end < bytes.count ? "…'" : "'")
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(GeoConvError) {
        guard peek() == byte else { throw error("expected \(what), found \(describe())") }
        index += 1
    }

    /// A run of letters, upper-cased.
    mutating func word() -> String? {
        skipSpace()
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"),
            (bytes[index] | 0x20) <= UInt8(ascii: "z")
        { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
    }

    private mutating func number() throws(GeoConvError) -> Double {
        skipSpace()
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if b &- 48 < 10 || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "e")
                || b == UInt8(ascii: "E")
            {
                index += 1
            } else {
                break
            }
        }
        guard index > start else {
            if let w = word(), w == "NAN" || w == "INF" || w == "INFINITY" {
                index = start
                throw error("\(w) is not a coordinate", hint: "WKT coordinates must be finite numbers")
            }
            index = start
            throw error("expected a number, found \(describe())")
        }
        guard let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index])), value.isFinite
        else {
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            index = start
            throw error("'\(text)' is not a finite number", hint: "WKT coordinates must be finite 64-bit floats")
        }
        return value
    }

    // MARK: Grammar

    private mutating func document() throws(GeoConvError) -> WKTGeometry {
        var srid: Int?
        skipSpace()
        let save = index
        if let w = word(), w == "SRID" {
            try expect(UInt8(ascii: "="), "'=' after SRID")
            let value = try number()
            guard value == value.rounded(), value >= 0, value < 1e9 else { throw error("SRID must be a whole number") }
            srid = Int(value)
            try expect(UInt8(ascii: ";"), "';' after SRID=\(Int(value))")
        } else {
            index = save
        }
        let (geometry, dimensions) = try geometryText(depth: 0, parent: nil)
        if peek() != nil { throw error("expected the end of the geometry, found \(describe())") }
        return WKTGeometry(geometry: geometry, dimensions: dimensions, srid: srid)
    }

    static let types: [String: GeometryKind] = [
        "POINT": .point, "LINESTRING": .lineString, "POLYGON": .polygon, "MULTIPOINT": .multiPoint,
        "MULTILINESTRING": .multiLineString, "MULTIPOLYGON": .multiPolygon, "GEOMETRYCOLLECTION": .geometryCollection,
    ]
    static let unsupported: Set<String> = ["CURVE", "SURFACE", "POLYHEDRALSURFACE", "TIN", "TRIANGLE"]

    /// A type name's kind: the seven types, and the curve types by the kind they are
    /// linearised into.
    static func kind(of name: String) -> GeometryKind? { types[name] ?? curves[name] }

    /// `TYPE [Z|M|ZM] (…|EMPTY)`.
    private mutating func geometryText(
        depth: Int, parent: WKTDimensions?
    ) throws(GeoConvError) -> (Geometry, WKTDimensions) {
        guard depth <= WKTParser.maximumNesting else {
            throw GeoConvError(
                .limitExceeded, "geometry collections nested deeper than \(WKTParser.maximumNesting)",
                at: SourceLocation(byteOffset: index))
        }
        let start = index
        guard var name = word() else {
            throw error("expected a geometry type (POINT, LINESTRING, …), found \(describe())")
        }
        // Glued dimension tags: POINTZ, LINESTRINGZM, POLYGONM.
        var tag: WKTDimensions?
        if WKTParser.kind(of: name) == nil {
            for (suffix, dims) in [("ZM", WKTDimensions.xyzm), ("Z", .xyz), ("M", .xym)] where name.hasSuffix(suffix) {
                let base = String(name.dropLast(suffix.count))
                if WKTParser.kind(of: base) != nil {
                    name = base
                    tag = dims
                    break
                }
            }
        }
        guard let kind = WKTParser.kind(of: name) else {
            index = start
            if WKTParser.unsupported.contains(name) || WKTParser.unsupported.contains(where: { name.hasPrefix($0) }) {
                throw GeoConvError(
                    .unsupported, "\(name) is a surface type that geoconv does not support",
                    at: SourceLocation(byteOffset: start),
                    hint: "convert it to polygons first (PostGIS ST_Dump, GDAL -nlt CONVERT_TO_LINEAR)")
            }
            throw error(
                "unknown geometry type \(name)",
                hint:
                    "WKT types are POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON and GEOMETRYCOLLECTION, and the curves CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON, MULTICURVE, MULTISURFACE (linearised) and LINEARRING"
            )
        }
        // Separate dimension tag.
        let save = index
        if let w = word() {
            switch w {
            case "Z", "M", "ZM":
                guard tag == nil else { throw error("a second dimension tag \(w)") }
                tag = w == "Z" ? .xyz : (w == "M" ? .xym : .xyzm)
            case "EMPTY":
                index = save
            default:
                index = save
                throw error("expected Z, M, ZM, EMPTY or '(' after \(name), found \(describe())")
            }
        }
        if let tag, let parent, tag != parent {
            throw error(
                "a \(tag.rawValue) member inside a \(parent.rawValue) collection",
                hint: "every member has the collection's dimensions")
        }
        // An untagged member infers its own dimensions (3 numbers = XYZ), checked against the parent's.
        let declared = tag
        let save2 = index
        if let w = word() {
            guard w == "EMPTY" else {
                index = save2
                throw error("expected '(' or EMPTY, found \(describe())")
            }
            return (.empty(kind), declared ?? .xy)
        }
        var dims = declared
        if WKTParser.curves[name] != nil {
            return (try curve(name, &dims), dims ?? .xy)
        }
        let geometry: Geometry
        switch kind {
        case .point:
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            geometry = .point(try position(&dims))
            try expect(UInt8(ascii: ")"), "')' after the point's coordinates")
        case .lineString:
            geometry = .lineString(try sequence(&dims))
        case .polygon:
            geometry = .polygon(try rings(&dims))
        case .multiPoint:
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var points: [Coordinate] = []
            repeat {
                if peek() == UInt8(ascii: "(") {
                    index += 1
                    points.append(try position(&dims))
                    try expect(UInt8(ascii: ")"), "')' after a point")
                } else {
                    if peekWord() == "EMPTY" {
                        _ = word()  // kept nowhere: the model's MultiPoint holds positions only
                        droppedEmptyPoints += 1
                        continue
                    }
                    points.append(try position(&dims))
                }
            } while try comma(")")
            geometry = .multiPoint(points)
        case .multiLineString:
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var lines: [Path] = []
            repeat {
                if peekWord() == "EMPTY" {
                    _ = word()
                    lines.append(Path())  // an empty member, kept (WKT and WKB write it back)
                    continue
                }
                lines.append(try sequence(&dims))
            } while try comma(")")
            geometry = .multiLineString(lines)
        case .multiPolygon:
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var polygons: [PolygonRings] = []
            repeat {
                if peekWord() == "EMPTY" {
                    _ = word()
                    polygons.append(PolygonRings(outer: Path()))  // an empty member, kept
                    continue
                }
                polygons.append(try rings(&dims))
            } while try comma(")")
            geometry = .multiPolygon(polygons)
        case .geometryCollection:
            try expect(UInt8(ascii: "("), "'(' or EMPTY")
            var members: [Geometry] = []
            repeat {
                let (member, memberDims) = try geometryText(depth: depth + 1, parent: declared)
                if let declared, memberDims != declared, !member.isEmpty {
                    throw error("a \(memberDims.rawValue) member inside a \(declared.rawValue) collection")
                }
                members.append(member)
            } while try comma(")")
            geometry = .geometryCollection(members)
            dims = declared ?? .xy
        case .circle:
            throw error("circles have no WKT form")
        }
        return (geometry, dims ?? .xy)
    }

    mutating func peekWord() -> String? {
        let save = index
        defer { index = save }
        return word()
    }

    /// After an element: true for ',', false for the closing `close`.
    mutating func comma(_ close: String) throws(GeoConvError) -> Bool {
        let byte = peek()
        if byte == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if byte == UInt8(ascii: ")") {
            index += 1
            return false
        }
        throw error("expected ',' or \(close), found \(describe())")
    }

    /// One position; fixes the dimensions on the first, checks them after.
    mutating func position(_ dims: inout WKTDimensions?) throws(GeoConvError) -> Coordinate {
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0
        while true {
            guard let byte = peek(), byte != UInt8(ascii: ","), byte != UInt8(ascii: ")") else { break }
            guard count < 4 else { throw error("a position has at most 4 ordinates (X Y Z M)") }
            let value = try number()
            switch count {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
            count += 1
        }
        guard count >= 2 else { throw error("a position needs X and Y, found \(count) number\(count == 1 ? "" : "s")") }
        let found: WKTDimensions = count == 2 ? .xy : (count == 3 ? .xyz : .xyzm)
        if let expected = dims {
            guard expected.count == count else {
                throw error(
                    "a position with \(count) ordinates where \(expected.rawValue) needs \(expected.count)",
                    hint: "every position of a geometry has the same number of ordinates")
            }
        } else {
            dims = found
        }
        let d = dims ?? found
        if d.hasM { droppedM = true }
        let altitude: Double? = d.hasZ ? values.2 : nil
        return Coordinate(latitude: values.1, longitude: values.0, altitude: altitude)
    }

    /// `(x y, x y, …)`.
    mutating func sequence(_ dims: inout WKTDimensions?) throws(GeoConvError) -> Path {
        try expect(UInt8(ascii: "("), "'('")
        var coordinates: [Coordinate] = []
        repeat {
            if peek() == UInt8(ascii: "(") { throw error("unexpected '(' inside a coordinate list") }
            if let w = peekWord(), w == "EMPTY" { throw error("EMPTY cannot stand for a position") }
            coordinates.append(try position(&dims))
        } while try comma(")")
        return Path(coordinates)
    }

    /// `((ring), (ring), …)`.
    mutating func rings(_ dims: inout WKTDimensions?) throws(GeoConvError) -> PolygonRings {
        try expect(UInt8(ascii: "("), "'('")
        var result: [Path] = []
        repeat {
            if let w = peekWord(), w == "EMPTY" { throw error("EMPTY rings are not allowed") }
            let ring = try sequence(&dims)
            if !ring.isClosed { unclosedRing = true }
            result.append(ring)
        } while try comma(")")
        return PolygonRings(outer: result[0], holes: Array(result.dropFirst()))
    }
}
