import GeoConvCore
import GeoConvIO

/// Coordinates: the one parser, straight into the shape the geometry's type needs. When
/// "coordinates" comes before "type", the object reader steps over them and comes back once
/// the type is known (`parseObject`), so every member order takes this route, with the same
/// checks, messages and places.
///
/// Errors and warnings are placed at the element they are about, with its JSON Pointer:
/// the member's pointer (a closure, called only for a message) and the element's indices
/// (`CoordinatePath`, integers on the stack).
extension GeoJSONReader {
    /// Where an array sits inside "coordinates": up to three indices (a MultiPolygon's
    /// polygon, ring and position).
    struct CoordinatePath {
        private var indices: (Int, Int, Int) = (0, 0, 0)
        private var count = 0

        /// The path one level deeper, at `index`.
        @inline(__always)
        func appending(_ index: Int) -> CoordinatePath {
            var copy = self
            switch count {
            case 0: copy.indices.0 = index
            case 1: copy.indices.1 = index
            default: copy.indices.2 = index
            }
            copy.count = min(count + 1, 3)
            return copy
        }

        /// The path as a JSON Pointer suffix ("" at the top, "/1/0" two levels down).
        var pointer: String {
            var text = ""
            if count > 0 { text += "/" + String(indices.0) }
            if count > 1 { text += "/" + String(indices.1) }
            if count > 2 { text += "/" + String(indices.2) }
            return text
        }
    }

    /// Parses the value of "coordinates" for a geometry of `kind` (not a GeometryCollection).
    func parseShape(_ kind: GeometryKind, depth: Int, pointer: () -> String) throws(GeoConvError) -> Geometry {
        let top = CoordinatePath()
        switch kind {
        case .point:
            try expectArray(kind, "a position [longitude, latitude]", path: top, pointer: pointer)
            // "coordinates": [] is an empty Point (as geoconv and GDAL write POINT EMPTY).
            let mark = scanner.mark
            let start = scanner.place
            scanner.advance()
            if try scanner.peekToken() == UInt8(ascii: "]") {
                scanner.advance()
                return .empty(.point)
            }
            if try scanner.peekToken() == UInt8(ascii: "n"), try nullsOnly(depth: depth, pointer: pointer) {
                // togeojson's Point for a placemark with an address and no coordinates: GDAL
                // reads it as POINT EMPTY, and so does geoconv (an error when validating).
                try repairable(
                    GeoJSONCode.nullPosition,
                    "a Point whose position holds only null is read as an empty Point (RFC 7946 §3.1.1 wants numbers)",
                    at: location(of: start, pointer()))
                return .empty(.point)
            }
            scanner.rewind(to: mark)
            return .point(try parsePosition(kind, depth: depth, path: top, pointer: pointer))
        case .lineString:
            let path = try parsePositions(kind, depth: depth, path: top, pointer: pointer)
            try checkLine(count: path.count, at: location(of: path.start, pointer()))
            return path.positions.isEmpty ? .empty(.lineString) : .lineString(Path(path.positions))
        case .multiPoint:
            let points = try parsePositions(kind, depth: depth, path: top, pointer: pointer).positions
            return points.isEmpty ? .empty(.multiPoint) : .multiPoint(points)
        case .polygon:
            return try parseRings(kind, depth: depth, path: top, pointer: pointer).map(Geometry.polygon)
                ?? .empty(.polygon)
        case .multiLineString:
            var lines: [Path] = []
            try parseLists(kind, depth: depth, path: top, pointer: pointer) { (line) throws(GeoConvError) in
                try checkLine(count: line.count, at: location(of: line.start, pointer() + line.path.pointer))
                lines.append(Path(line.positions))
            }
            return lines.isEmpty ? .empty(.multiLineString) : .multiLineString(lines)
        case .multiPolygon:
            var polygons: [PolygonRings] = []
            try openArray(kind, "an array of polygons", depth: depth, path: top, pointer: pointer) {
                (index) throws(GeoConvError) in
                if let rings = try parseRings(kind, depth: depth + 1, path: top.appending(index), pointer: pointer) {
                    polygons.append(rings)
                }
            }
            return polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
        case .geometryCollection, .circle:
            throw scanner.error("\(kind.rawValue) has no coordinates", pointer: pointer())
        }
    }

    /// After a position's `[`: whether every element up to its `]` is `null` (consumed when
    /// so; the caller rewinds otherwise).
    private func nullsOnly(depth: Int, pointer: () -> String) throws(GeoConvError) -> Bool {
        repeat {
            guard try scanner.peekToken() == UInt8(ascii: "n"),
                try scanner.parseValue(depth: depth + 1, pointer: pointer()) == .null
            else { return false }
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer())
        return true
    }

    /// Positions parsed from one array, with where the array starts and its path.
    struct ParsedPositions {
        var positions: [Coordinate]
        var start: JSONScanner.Place
        var path: CoordinatePath
        var count: Int { positions.count }
    }

    /// Parses `[longitude, latitude(, altitude…)]`. A fourth number and later are dropped
    /// with a warning; when validating, a bad element is listed and reading goes on, and a
    /// position outside ±180 / ±90 is recorded with its place.
    @inline(__always)
    func parsePosition(
        _ kind: GeometryKind, depth: Int, path: CoordinatePath, pointer: () -> String
    ) throws(GeoConvError) -> Coordinate {
        let scanner = self.scanner
        let start = scanner.place
        scanner.advance()  // '[' (the caller peeked it)
        var numbers: (Double, Double, Double) = (0, 0, 0)
        var count = 0
        if try scanner.peekToken() != UInt8(ascii: "]") {
            repeat {
                guard let byte = try scanner.peekToken(),
                    byte == UInt8(ascii: "-") || (byte &- UInt8(ascii: "0") < 10)
                else {
                    if count == 0, try scanner.peekToken() == UInt8(ascii: "[") {
                        throw error(
                            "\(kind.rawValue) coordinates are nested too deeply: expected a position [longitude, latitude], found an array of them",
                            at: location(of: start, pointer() + path.pointer))
                    }
                    let failure = scanner.error(
                        "each element of a position must be a number, found \(try scanner.describeNext())",
                        pointer: pointer() + path.pointer + "/" + String(count))
                    try listOrThrow(failure, steppingOverValueAt: depth + 1)
                    count += 1
                    continue
                }
                let value: Double
                do throws(GeoConvError) {
                    value = try scanner.parseDouble()
                } catch {
                    throw error.pointing(to: pointer() + path.pointer + "/" + String(count))
                }
                switch count {
                case 0: numbers.0 = value
                case 1: numbers.1 = value
                case 2: numbers.2 = value
                default:
                    if count == 3 { try warnExtraOrdinates(at: location(of: start, pointer() + path.pointer)) }
                }
                count += 1
            } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer() + path.pointer)
        } else {
            scanner.advance()
        }
        guard count >= 2 else {
            try listOrThrow(
                scanner.error(
                    "a position needs at least two numbers (longitude, latitude), found \(count)",
                    pointer: pointer() + path.pointer))
            return Coordinate(latitude: 0, longitude: 0)
        }
        let position = Coordinate(latitude: numbers.1, longitude: numbers.0, altitude: count >= 3 ? numbers.2 : nil)
        notePosition(position, at: location(of: start, pointer() + path.pointer))
        return position
    }

    /// Parses `[position, …]`.
    func parsePositions(
        _ kind: GeometryKind, depth: Int, path: CoordinatePath, pointer: () -> String
    ) throws(GeoConvError) -> ParsedPositions {
        let start = scanner.place
        var result: [Coordinate] = []
        try openArray(kind, "an array of positions", depth: depth, path: path, pointer: pointer) {
            (index) throws(GeoConvError) in
            let elementPath = path.appending(index)
            guard try scanner.peekToken() == UInt8(ascii: "[") else {
                throw scanner.error(
                    "\(kind.rawValue) coordinates are not nested deeply enough: expected a position [longitude, latitude], found \(try scanner.describeNext())",
                    pointer: pointer() + elementPath.pointer)
            }
            result.append(try parsePosition(kind, depth: depth + 1, path: elementPath, pointer: pointer))
        }
        return ParsedPositions(positions: result, start: start, path: path)
    }

    /// Parses `[[position, …], …]`, calling `body` with each inner array.
    func parseLists(
        _ kind: GeometryKind, depth: Int, path: CoordinatePath, pointer: () -> String,
        _ body: (ParsedPositions) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        try openArray(kind, "an array of coordinate arrays", depth: depth, path: path, pointer: pointer) {
            (index) throws(GeoConvError) in
            try body(try parsePositions(kind, depth: depth + 1, path: path.appending(index), pointer: pointer))
        }
    }

    /// Parses a polygon's rings, checking each and the winding; nil when it has none.
    func parseRings(
        _ kind: GeometryKind, depth: Int, path: CoordinatePath, pointer: () -> String
    ) throws(GeoConvError) -> PolygonRings? {
        let start = scanner.place
        var rings: [Path] = []
        try parseLists(kind, depth: depth, path: path, pointer: pointer) { (ring) throws(GeoConvError) in
            try checkRing(ring.positions, at: location(of: ring.start, pointer() + ring.path.pointer))
            rings.append(Path(ring.positions))
        }
        guard let outer = rings.first, !outer.isEmpty else { return nil }
        let polygon = PolygonRings(outer: outer, holes: Array(rings.dropFirst()))
        try checkWinding(polygon, at: location(of: start, pointer() + path.pointer))
        return polygon
    }

    /// Consumes `[`, calls `element` with each element's index, and consumes `]`.
    @inline(__always)
    func openArray(
        _ kind: GeometryKind, _ what: String, depth: Int, path: CoordinatePath, pointer: () -> String,
        element: (Int) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        try scanner.checkDepth(depth, pointer: pointer() + path.pointer)
        try expectArray(kind, what, path: path, pointer: pointer)
        scanner.advance()
        if try scanner.peekToken() == UInt8(ascii: "]") {
            scanner.advance()
            return
        }
        var index = 0
        repeat {
            try element(index)
            index += 1
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer() + path.pointer)
    }

    /// Throws unless the next value is an array (`what` says what was expected there).
    @inline(__always)
    func expectArray(
        _ kind: GeometryKind, _ what: @autoclosure () -> String, path: CoordinatePath, pointer: () -> String
    ) throws(GeoConvError) {
        let byte = try scanner.peekToken()
        guard byte != UInt8(ascii: "[") else { return }
        let isNumber = byte.map { $0 == UInt8(ascii: "-") || $0 &- UInt8(ascii: "0") < 10 } ?? false
        let problem = isNumber ? "are not nested deeply enough" : "must be arrays"
        throw scanner.error(
            "\(kind.rawValue) coordinates \(problem): expected \(what()), found \(try scanner.describeNext())",
            pointer: pointer() + path.pointer)
    }

    // MARK: Checks

    func warnExtraOrdinates(at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        try lenient(
            GeoJSONCode.extraOrdinates, "positions with more than three numbers: the fourth and later are dropped",
            at: location())
    }

    func checkLine(count: Int, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        if count == 1 {
            try repairable(
                GeoJSONCode.shortLine, "a LineString needs two or more positions (RFC 7946 §3.1.4); this one has one",
                at: location())
        }
    }

    func checkRing(_ ring: [Coordinate], at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        if ring.count < 4 {
            try repairable(
                GeoJSONCode.shortRing,
                "a linear ring needs four or more positions (RFC 7946 §3.1.6); this one has \(ring.count)",
                at: location())
        }
        // Closed: two or more positions, the last the first (as `Path.isClosed`).
        if let first = ring.first, let last = ring.last,
            ring.count < 2 || first.latitude != last.latitude || first.longitude != last.longitude
        {
            try repairable(
                GeoJSONCode.unclosedRing,
                "a linear ring's first and last positions differ (RFC 7946 §3.1.6 says they must be equal); it is closed on writing",
                at: location())
        }
    }
}

extension GeoConvError {
    /// The error with `pointer` as its JSON Pointer when it has none (the scanner's number
    /// errors know where they are but not what the value is).
    fileprivate func pointing(to pointer: String) -> GeoConvError {
        relocated { location in
            var located = location
            if (located.pointer ?? "").isEmpty { located.pointer = pointer }
            return located
        }
    }
}
