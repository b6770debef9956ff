import GeoConvCore

/// Coordinates and geometries: parsed as they stream past, interpreted by type with the
/// RFC 7946 checks (positions, rings, winding), and the feature built from its members.
extension GeoJSONReader {
    /// Parses a `geometry` value: an object, or `null`.
    mutating func parseGeometryValue(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> ParsedGeometry? {
        let place = scanner.place
        guard try scanner.peekToken() != UInt8(ascii: "n") else {
            _ = try scanner.parseValue(depth: depth, pointer: pointer())
            return ParsedGeometry(geometry: nil, foreign: [:])
        }
        guard try scanner.peekToken() == UInt8(ascii: "{") else {
            throw error("a geometry must be an object or null, found \(try scanner.describeNext())", at: location(of: place, pointer()))
        }
        var parts = ObjectParts()
        _ = try parseObject(into: &parts, depth: depth, pointer: pointer(), isRoot: false)
        return try geometry(from: parts, pointer: pointer())
    }

    /// Parses nested coordinate arrays.
    func parseCoordinates(depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> CoordinateNode {
        try scanner.checkDepth(depth, pointer: pointer())
        guard try scanner.peekToken() == UInt8(ascii: "[") else {
            throw scanner.error("coordinates must be arrays, found \(try scanner.describeNext())", pointer: pointer())
        }
        let start = collectsProblems ? scanner.location() : nil
        scanner.advance()
        guard let first = try scanner.peekToken() else {
            throw scanner.error("the input ends inside coordinates", pointer: pointer())
        }
        if first != UInt8(ascii: "[") && first != UInt8(ascii: "]") {
            // A position: two or more numbers (what is not an array here is a bad element of one).
            var numbers: (Double, Double, Double) = (0, 0, 0)
            var count = 0
            repeat {
                guard let byte = try scanner.peekToken(),
                      byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                else {
                    let failure = scanner.error("each element of a position must be a number, found \(try scanner.describeNext())",
                                                pointer: pointer() + "/" + String(count))
                    // When validating, list it and read on, so later problems are found too.
                    guard collectsProblems, try scanner.peekToken() != nil else { throw failure }
                    do throws(GeoConvError) {
                        _ = try scanner.parseValue(depth: depth, pointer: pointer())
                    } catch {
                        // Not JSON either (NaN, a bare word): this message says more.
                        throw error.location?.byteOffset == failure.location?.byteOffset ? failure : error
                    }
                    listError(failure)
                    count += 1
                    continue
                }
                let value = try scanner.parseDouble()
                switch count {
                case 0: numbers.0 = value
                case 1: numbers.1 = value
                case 2: numbers.2 = value
                default: break
                }
                count += 1
            } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer())
            guard count >= 2 else {
                let failure = scanner.error("a position needs at least two numbers (longitude, latitude), found \(count)", pointer: pointer())
                guard collectsProblems else { throw failure }
                listError(failure)
                return .position(Coordinate(latitude: 0, longitude: 0), extraOrdinates: false)
            }
            let position = Coordinate(latitude: numbers.1, longitude: numbers.0, altitude: count >= 3 ? numbers.2 : nil)
            if let start, !position.isValidGeographic { problemBox.outOfRange.append((position, start.with(pointer: pointer()))) }
            return .position(position, extraOrdinates: count > 3)
        }
        var children: [CoordinateNode] = []
        if first == UInt8(ascii: "]") {
            scanner.advance()
            return .list(children)
        }
        repeat {
            children.append(try parseCoordinates(depth: depth + 1, pointer: pointer() + "/" + String(children.count)))
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer())
        return .list(children)
    }

    /// Parses one position `[longitude, latitude(, altitude…)]`. Errors carry a JSON Pointer
    /// relative to the position; callers prefix theirs (so the hot path builds no strings).
    @inline(__always)
    func parsePosition() throws(GeoConvError) -> Coordinate {
        let scanner = self.scanner
        try scanner.expect(UInt8(ascii: "["), "a position [longitude, latitude]", pointer: "")
        var numbers: (Double, Double, Double) = (0, 0, 0)
        var count = 0
        repeat {
            guard let byte = try scanner.peekToken(),
                  byte == UInt8(ascii: "-") || (byte &- UInt8(ascii: "0") < 10)
            else {
                throw scanner.error("each element of a position must be a number, found \(try scanner.describeNext())",
                                    pointer: "/" + String(count))
            }
            let value = try scanner.parseDouble()
            switch count {
            case 0: numbers.0 = value
            case 1: numbers.1 = value
            case 2: numbers.2 = value
            default:
                if count == 3 { try warnExtraOrdinates(at: scanner.location()) }
            }
            count += 1
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "")
        guard count >= 2 else {
            throw scanner.error("a position needs at least two numbers (longitude, latitude), found \(count)", pointer: "")
        }
        return Coordinate(latitude: numbers.1, longitude: numbers.0, altitude: count >= 3 ? numbers.2 : nil)
    }

    /// `error` with `prefix` put before its (relative) JSON Pointer.
    static func prefixed(_ error: GeoConvError, _ prefix: String) -> GeoConvError {
        var copy = error
        if var location = copy.location {
            location.pointer = prefix + (location.pointer ?? "")
            copy.location = location
        }
        return copy
    }

    /// Parses `[position, …]`.
    func parsePositions(depth: Int) throws(GeoConvError) -> [Coordinate] {
        let scanner = self.scanner
        try scanner.checkDepth(depth, pointer: "")
        try scanner.expect(UInt8(ascii: "["), "an array of positions", pointer: "")
        var result: [Coordinate] = []
        if try scanner.peekToken() == UInt8(ascii: "]") {
            scanner.advance()
            return result
        }
        repeat {
            guard try scanner.peekToken() == UInt8(ascii: "[") else {
                throw scanner.error("coordinates are not nested deeply enough: expected a position [longitude, latitude], found \(try scanner.describeNext())",
                                    pointer: "/" + String(result.count))
            }
            do throws(GeoConvError) {
                result.append(try parsePosition())
            } catch {
                throw Self.prefixed(error, "/" + String(result.count))
            }
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "")
        return result
    }

    /// Parses `[[position, …], …]` calling `body` with each inner list.
    func parseLists(depth: Int, _ body: ([Coordinate]) throws(GeoConvError) -> Void) throws(GeoConvError) {
        let scanner = self.scanner
        try scanner.checkDepth(depth, pointer: "")
        try scanner.expect(UInt8(ascii: "["), "an array of coordinate arrays", pointer: "")
        if try scanner.peekToken() == UInt8(ascii: "]") {
            scanner.advance()
            return
        }
        var index = 0
        repeat {
            do throws(GeoConvError) {
                try body(try parsePositions(depth: depth + 1))
            } catch {
                throw Self.prefixed(error, "/" + String(index))
            }
            index += 1
        } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "")
    }

    func parseRings(depth: Int) throws(GeoConvError) -> PolygonRings? {
        var rings: [Path] = []
        try parseLists(depth: depth) { (ring) throws(GeoConvError) in rings.append(Path(ring)) }
        for ring in rings { try checkRing(ring, at: scanner.location()) }
        guard let outer = rings.first, !outer.isEmpty else { return nil }
        return PolygonRings(outer: outer, holes: Array(rings.dropFirst()))
    }

    /// Parses coordinates straight into the shape `kind` needs (the type came first).
    func parseShape(_ kind: GeometryKind, depth: Int, pointer: @autoclosure () -> String) throws(GeoConvError) -> Geometry {
        do throws(GeoConvError) {
            return try parseShapeUnlocated(kind, depth: depth)
        } catch {
            throw Self.prefixed(error, pointer())
        }
    }

    func parseShapeUnlocated(_ kind: GeometryKind, depth: Int) throws(GeoConvError) -> Geometry {
        func checkLine(_ path: [Coordinate]) throws(GeoConvError) { try self.checkLine(count: path.count, at: scanner.location()) }
        switch kind {
        case .point:
            guard try scanner.peekToken() == UInt8(ascii: "[") else {
                throw scanner.error("coordinates must be arrays, found \(try scanner.describeNext())", pointer: "")
            }
            // "coordinates": [] is an empty Point (as geoconv and GDAL write POINT EMPTY).
            let mark = scanner.mark
            scanner.advance()
            if try scanner.peekToken() == UInt8(ascii: "]") {
                scanner.advance()
                return .empty(.point)
            }
            scanner.rewind(to: mark)
            return .point(try parsePosition())
        case .lineString:
            let path = try parsePositions(depth: depth)
            try checkLine(path)
            return path.isEmpty ? .empty(.lineString) : .lineString(Path(path))
        case .multiPoint:
            let points = try parsePositions(depth: depth)
            return points.isEmpty ? .empty(.multiPoint) : .multiPoint(points)
        case .polygon:
            return try parseRings(depth: depth).map(Geometry.polygon) ?? .empty(.polygon)
        case .multiLineString:
            var lines: [Path] = []
            try parseLists(depth: depth) { (line) throws(GeoConvError) in
                try checkLine(line)
                lines.append(Path(line))
            }
            return lines.isEmpty ? .empty(.multiLineString) : .multiLineString(lines)
        case .multiPolygon:
            var polygons: [PolygonRings] = []
            let scanner = self.scanner
            try scanner.checkDepth(depth, pointer: "")
            try scanner.expect(UInt8(ascii: "["), "an array of polygons", pointer: "")
            if try scanner.peekToken() == UInt8(ascii: "]") {
                scanner.advance()
                return .empty(.multiPolygon)
            }
            var index = 0
            repeat {
                do throws(GeoConvError) {
                    if let rings = try parseRings(depth: depth + 1) { polygons.append(rings) }
                } catch {
                    throw Self.prefixed(error, "/" + String(index))
                }
                index += 1
            } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "")
            return polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
        case .geometryCollection, .circle:
            throw scanner.error("\(kind.rawValue) has no coordinates", pointer: "")
        }
    }

    // MARK: Checks (one place for each, whichever route the coordinates took)

    func warnExtraOrdinates(at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        try lenient("geojson.extra-ordinates", "positions with more than three numbers: the fourth and later are dropped", at: location())
    }

    func checkLine(count: Int, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        if count == 1 { try lenient("geojson.short-line", "a LineString needs two or more positions; this one has one", at: location()) }
    }

    func checkRing<C: Collection<Coordinate>>(_ ring: C, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) {
        if ring.count < 4 {
            try lenient("geojson.short-ring", "a linear ring needs four or more positions; this one has \(ring.count)", at: location())
        }
        // Closed: two or more positions, the last the first (as `Path.isClosed`).
        if let first = ring.first, let last = ring.reversed().first,
           ring.count < 2 || first.latitude != last.latitude || first.longitude != last.longitude
        {
            try lenient("geojson.unclosed-ring", "a linear ring's first and last positions differ; it is closed on writing", at: location())
        }
    }

    // MARK: Interpretation

    static let geometryTypes: [String: GeometryKind] = [
        "Point": .point, "LineString": .lineString, "Polygon": .polygon, "MultiPoint": .multiPoint,
        "MultiLineString": .multiLineString, "MultiPolygon": .multiPolygon, "GeometryCollection": .geometryCollection,
    ]

    func geometryKind(_ type: String, at location: SourceLocation) throws(GeoConvError) -> GeometryKind? {
        if let kind = Self.geometryTypes[type] { return kind }
        if let match = Self.geometryTypes.first(where: { $0.key.lowercased() == type.lowercased() }) {
            try lenient("geojson.type-case", "type \"\(type)\" should be \"\(match.key)\" (type names are case-sensitive)", at: location)
            return match.value
        }
        return nil
    }

    func geometry(from parts: ObjectParts, pointer: @autoclosure () -> String) throws(GeoConvError) -> ParsedGeometry {
        func objectLocation() -> SourceLocation { location(of: parts, pointer()) }
        guard let type = parts.type else {
            throw error("a geometry needs a \"type\" member", at: objectLocation())
        }
        let exactKind: GeometryKind? = if parts.kindIsExact, case .geometry(let kind) = parts.kind { kind } else { nil }
        var resolved = exactKind
        if resolved == nil { resolved = try geometryKind(type, at: typeLocation(of: parts, pointer())) }
        guard let kind = resolved else {
            if type.lowercased() == "feature" || type.lowercased() == "featurecollection" {
                throw error("a \(type) cannot be used as a geometry", at: typeLocation(of: parts, pointer()))
            }
            throw error("unknown geometry type \"\(type)\"", at: typeLocation(of: parts, pointer()),
                        hint: "GeoJSON geometry types are Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon and GeometryCollection")
        }
        var foreign = parts.foreign
        if collectsProblems, parts.bbox != nil { try checkBBox(parts.bbox, at: objectLocation()) }
        if let bbox = parts.bbox { foreign["bbox"] = bbox }
        if parts.properties != nil || parts.hasGeometryMember || parts.id != nil {
            try lenient("geojson.geometry-members", "a geometry object has Feature members (\"properties\", \"geometry\" or \"id\"); they are ignored",
                        at: objectLocation())
        }
        let geometry: Geometry
        if kind == .geometryCollection {
            guard let members = parts.geometries else {
                throw error("a GeometryCollection needs a \"geometries\" array", at: objectLocation())
            }
            if members.contains(where: { $0.geometry?.kind == .geometryCollection }) {
                try lenient("geojson.nested-collection", "GeometryCollections should not be nested (RFC 7946 §3.1.8)", at: objectLocation())
            }
            if members.contains(where: { !$0.foreign.isEmpty }) {
                try lenient("geojson.collection-member-foreign", "foreign members of geometries inside a GeometryCollection are not kept",
                            at: objectLocation())
            }
            let geometries = members.compactMap(\.geometry)
            geometry = geometries.isEmpty ? .empty(.geometryCollection) : .geometryCollection(geometries)
        } else {
            if let shaped = parts.shaped, shaped.kind == kind {
                geometry = shaped
            } else {
                guard let coordinates = parts.coordinates else {
                    throw error("a \(type) needs a \"coordinates\" member", at: objectLocation())
                }
                geometry = try shape(kind, coordinates, at: coordinatesLocation(of: parts, pointer()))
            }
        }
        return ParsedGeometry(geometry: geometry, foreign: foreign)
    }

    /// Where an object's coordinates are (its pointer when validating, as `validate` lists them).
    func coordinatesLocation(of parts: ObjectParts, _ pointer: String) -> SourceLocation {
        guard let place = parts.coordinatesPlace else { return location(of: parts.place, pointer) }
        return location(of: place, collectsProblems ? pointer + "/coordinates" : nil)
    }

    func shape(_ kind: GeometryKind, _ node: CoordinateNode, at location: @autoclosure () -> SourceLocation) throws(GeoConvError) -> Geometry {
        func position(_ node: CoordinateNode) throws(GeoConvError) -> Coordinate {
            guard case .position(let c, let extra) = node else {
                throw error("\(kind.rawValue) coordinates are nested too deeply: expected a position [longitude, latitude]", at: location())
            }
            if extra { try warnExtraOrdinates(at: location()) }
            return c
        }
        func list(_ node: CoordinateNode) throws(GeoConvError) -> [CoordinateNode] {
            guard case .list(let children) = node else {
                throw error("\(kind.rawValue) coordinates are not nested deeply enough: found a position where an array of them belongs",
                            at: location())
            }
            return children
        }
        func path(_ node: CoordinateNode) throws(GeoConvError) -> Path {
            var result: [Coordinate] = []
            let children = try list(node)
            result.reserveCapacity(children.count)
            for child in children { result.append(try position(child)) }
            return Path(result)
        }
        func line(_ node: CoordinateNode) throws(GeoConvError) -> Path {
            let p = try path(node)
            try checkLine(count: p.count, at: location())
            return p
        }
        func rings(_ node: CoordinateNode) throws(GeoConvError) -> PolygonRings? {
            var result: [Path] = []
            for child in try list(node) {
                let ring = try path(child)
                try checkRing(ring.coordinates, at: location())
                result.append(ring)
            }
            guard let outer = result.first, !outer.isEmpty else { return nil }
            return PolygonRings(outer: outer, holes: Array(result.dropFirst()))
        }
        switch kind {
        case .point:
            if case .list(let children) = node, children.isEmpty { return .empty(.point) }
            return .point(try position(node))
        case .lineString:
            let p = try line(node)
            return p.isEmpty ? .empty(.lineString) : .lineString(p)
        case .multiPoint:
            let p = try path(node)
            return p.isEmpty ? .empty(.multiPoint) : .multiPoint(p.coordinates)
        case .polygon:
            guard let r = try rings(node) else { return .empty(.polygon) }
            try checkWinding(r, at: location())
            return .polygon(r)
        case .multiLineString:
            var lines: [Path] = []
            for child in try list(node) { lines.append(try line(child)) }
            return lines.isEmpty ? .empty(.multiLineString) : .multiLineString(lines)
        case .multiPolygon:
            var polygons: [PolygonRings] = []
            for child in try list(node) {
                if let r = try rings(child) {
                    try checkWinding(r, at: location())
                    polygons.append(r)
                }
            }
            return polygons.isEmpty ? .empty(.multiPolygon) : .multiPolygon(polygons)
        case .geometryCollection, .circle:
            throw error("\(kind.rawValue) has no coordinates", at: location())
        }
    }

    func feature(from parts: ObjectParts, pointer: @autoclosure () -> String, requireFeature: Bool = false) throws(GeoConvError) -> Feature {
        func objectLocation() -> SourceLocation { location(of: parts, pointer()) }
        guard let type = parts.type else {
            throw error(requireFeature ? "a feature needs \"type\": \"Feature\"" : "a GeoJSON object needs a \"type\" member",
                        at: objectLocation(), hint: "add \"type\": \"Feature\" (or a geometry type)")
        }
        if type != "Feature" {
            if type.lowercased() == "feature" {
                try lenient("geojson.type-case", "type \"\(type)\" should be \"Feature\" (type names are case-sensitive)",
                            at: typeLocation(of: parts, pointer()))
            } else if requireFeature {
                throw error("a member of \"features\" has type \"\(type)\", not \"Feature\"", at: typeLocation(of: parts, pointer()))
            } else {
                // A bare geometry is one feature without properties.
                let parsed = try geometry(from: parts, pointer: pointer())
                var feature = Feature(geometry: parsed.geometry)
                if !parsed.foreign.isEmpty { feature.foreignMembers["geometry"] = .object(parsed.foreign) }
                return feature
            }
        }
        var feature = Feature(geometry: nil)
        if !parts.hasGeometryMember {
            try lenient("geojson.missing-geometry", "a Feature has no \"geometry\" member; read as null", at: objectLocation())
        }
        if let parsed = parts.geometry {
            feature.geometry = parsed.geometry
            if !parsed.foreign.isEmpty { feature.foreignMembers["geometry"] = .object(parsed.foreign) }
        }
        switch parts.id {
        case .string(let s)?: feature.id = .string(s)
        case .number(let n)?: feature.id = .number(n)
        case nil: break
        case let other?:
            try lenient("geojson.invalid-id", "a Feature \"id\" must be a string or a number, found \(other.typeName); kept as a foreign member",
                        at: objectLocation())
            feature.foreignMembers["id"] = other
        }
        switch parts.properties {
        case .object(let object)?: feature.properties = object
        case .null?: feature.foreignMembers[GeoJSONNames.nullProperties] = .null  // written as null again
        case nil:
            try lenient("geojson.missing-properties", "a Feature has no \"properties\" member", at: objectLocation())
        case let other?:
            try lenient("geojson.properties-not-object", "a Feature's \"properties\" must be an object or null, found \(other.typeName); it is dropped",
                        at: objectLocation())
        }
        for (key, value) in parts.foreign { feature.foreignMembers[key] = value }
        if collectsProblems, parts.bbox != nil { try checkBBox(parts.bbox, at: objectLocation()) }
        if let bbox = parts.bbox { feature.foreignMembers["bbox"] = bbox }
        if parts.coordinates != nil || parts.shaped != nil || parts.geometries != nil {
            try lenient("geojson.feature-geometry-members", "a Feature has \"coordinates\" or \"geometries\" members; they are ignored",
                        at: objectLocation())
        }
        StyleProperties.derive(into: &feature)
        if case .point(let center)? = feature.geometry, let radius = feature.properties[GeoJSONNames.radius]?.doubleValue,
           radius.isFinite, radius >= 0
        {
            feature.geometry = .circle(center: center, radius: radius)
        }
        return feature
    }
}
