import GeoConvCore
import GeoConvFormatKit
import GeoConvIO

/// Objects: one JSON object's members read into its parts before its type says what it is,
/// member names matched as bytes, and which members belong to which kind of object.
extension GeoJSONReader {
    /// What one JSON object of GeoJSON said, before its type is known.
    struct ObjectParts {
        var type: String?
        /// What `type` names.
        var kind = ObjectKind.other
        /// Whether `type` spelled it with the right case.
        var kindIsExact = false
        /// Where `type`'s value starts (its pointer is the object's + `/type`).
        var typePlace: JSONScanner.Place?
        /// Where the object starts; its JSON Pointer is the caller's (locations are made
        /// only for messages, `location(of:_:)`).
        var place = JSONScanner.Place(offset: 0, line: 1, lineStart: 0)
        var id: JSONValue?
        var properties: JSONValue?
        var hasGeometryMember = false
        var geometry: ParsedGeometry?
        /// Where "coordinates" starts: parsed at once when "type" came before them, else
        /// stepped over and parsed from here once the object is read (`parseObject`).
        var coordinatesMark: JSONScanner.Mark?
        /// The coordinates in the shape of `shapedKind`.
        var shaped: Geometry?
        var shapedKind: GeometryKind?

        /// The kind of geometry `type` names, when it names one that has coordinates.
        var geometryKind: GeometryKind? {
            guard case .geometry(let kind) = kind, kind != .geometryCollection else { return nil }
            return kind
        }
        var geometries: [ParsedGeometry]?
        var bbox: JSONValue?
        var crs: JSONValue?
        var crsPlace: JSONScanner.Place?
        var foreign = JSONObject()
    }

    /// A geometry object's result: the geometry (nil for `null`) and its foreign members.
    struct ParsedGeometry {
        var geometry: Geometry?
        var foreign: JSONObject
    }

    /// Parses an object's members into `parts`. At the root, stops right after `"features": [`
    /// and returns true, leaving the features to be streamed. `resuming` goes on with an
    /// object whose first members were read into `parts` (their bits), the scanner after them.
    mutating func parseObject(
        into parts: inout ObjectParts, depth: Int, pointer: @autoclosure () -> String, isRoot: Bool,
        resuming: UInt16? = nil
    ) throws(GeoConvError) -> Bool {
        var seenMembers: UInt16 = resuming ?? 0
        var resumes = resuming != nil
        if !resumes {
            try scanner.checkDepth(depth, pointer: pointer())
            parts.place = scanner.place
            try scanner.expect(UInt8(ascii: "{"), "'{'", pointer: pointer())
            if try scanner.peekToken() == UInt8(ascii: "}") {
                scanner.advance()
                return false
            }
        }
        repeat {
            if resumes {
                resumes = false
                guard try scanner.nextElement(close: UInt8(ascii: "}"), pointer: pointer()) else { break }
            }
            // (Not while coordinates wait for the type: they must stay in the window.)
            if isRoot, parts.coordinatesMark == nil { scanner.startValue() }
            let keyPlace = scanner.place
            let (index, key) = try scanner.parseKey(in: Self.memberNames, pointer: pointer())
            func memberPointer() -> String { pointer() + "/" + JSONScanner.escapePointer(key) }
            let bit: UInt16 = index.map { 1 << UInt16($0) } ?? 0
            if bit != 0 ? seenMembers & bit != 0 : parts.foreign[key] != nil {
                try lenient(
                    GeoJSONCode.duplicateMember, "the member \"\(key)\" appears twice; the last one is used",
                    at: location(of: keyPlace, pointer()))
            }
            seenMembers |= bit
            // A member that belongs to another kind of object than the one "type" already
            // named is a foreign member here (RFC 7946 §7.1): keep it as plain JSON.
            if let index, parts.type != nil, !Self.member(index, belongsTo: parts.kind) {
                if let type = parts.type {
                    try checkForeignMember(key, of: type, at: location(of: keyPlace, memberPointer()))
                }
                parts.foreign[key] = try scanner.parseValue(depth: depth, pointer: memberPointer())
                continue
            }
            switch index {
            case Self.typeMember:
                let typePlace = scanner.place
                parts.typePlace = typePlace
                // The RFC 7946 type names are matched as bytes; other values are parsed.
                if try scanner.peekToken() == UInt8(ascii: "\""), let known = try scanner.knownKey(Self.typeNames) {
                    parts.type = Self.typeNames.names[known]
                    (parts.kind, parts.kindIsExact) = (Self.typeKinds[known], true)
                    continue
                }
                let value = try scanner.parseValue(depth: depth, pointer: memberPointer())
                guard let text = value.stringValue else {
                    throw error(
                        "the \"type\" member must be a string, found \(value.typeName)",
                        at: location(of: typePlace, memberPointer()))
                }
                parts.type = text
                (parts.kind, parts.kindIsExact) = Self.objectKind(text)
            case Self.featuresMember where isRoot:
                guard try scanner.peekToken() == UInt8(ascii: "[") else {
                    throw error(
                        "the \"features\" member must be an array, found \(try scanner.describeNext())",
                        at: scanner.location(pointer: memberPointer()))
                }
                scanner.advance()
                try parseDeferredCoordinates(of: &parts, depth: depth, pointer: pointer())
                return true
            case Self.geometryMember:
                parts.hasGeometryMember = true
                parts.geometry = try parseGeometryValue(depth: depth + 1, pointer: memberPointer())
            case Self.coordinatesMember:
                parts.coordinatesMark = scanner.mark
                if let kind = parts.geometryKind {
                    parts.shaped = try parseShape(kind, depth: depth + 1, pointer: memberPointer)
                    parts.shapedKind = kind
                } else {
                    // The type is not known yet: step over them (checked when they are read) and come back.
                    try scanner.skipValueBytes()
                    parts.shaped = nil
                    parts.shapedKind = nil
                }
            case Self.geometriesMember:
                guard try scanner.peekToken() == UInt8(ascii: "[") else {
                    throw error(
                        "the \"geometries\" member must be an array, found \(try scanner.describeNext())",
                        at: scanner.location(pointer: memberPointer()))
                }
                try scanner.checkDepth(depth + 1, pointer: memberPointer())
                scanner.advance()
                var members: [ParsedGeometry] = []
                if try scanner.peekToken() == UInt8(ascii: "]") {
                    scanner.advance()
                } else {
                    repeat {
                        let elementPointer = memberPointer() + "/" + String(members.count)
                        guard try scanner.peekToken() == UInt8(ascii: "{") else {
                            throw error(
                                "every member of \"geometries\" must be a geometry object, found \(try scanner.describeNext())",
                                at: scanner.location(pointer: elementPointer))
                        }
                        if let parsed = try parseGeometryValue(depth: depth + 2, pointer: elementPointer) {
                            members.append(parsed)
                        }
                    } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: memberPointer())
                }
                parts.geometries = members
            case Self.propertiesMember:
                parts.properties = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case Self.idMember:
                parts.id = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case Self.bboxMember:
                parts.bbox = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case Self.crsMember:
                parts.crsPlace = scanner.place
                parts.crs = try scanner.parseValue(depth: depth, pointer: memberPointer())
            default:
                parts.foreign[key] = try scanner.parseValue(depth: depth, pointer: memberPointer())
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: pointer())
        try parseDeferredCoordinates(of: &parts, depth: depth, pointer: pointer())
        return false
    }

    /// Parses coordinates that came before the type said what they are (or before a second
    /// "type"): back to where they start — the window holds the whole value — and forward
    /// again to where the reader was. The member order changes nothing: a geometry's are
    /// parsed into its shape; a Feature's, a collection's, are kept as a foreign member, as
    /// when "type" comes first; with no type or an unknown one (an error follows) they are
    /// only checked as JSON.
    func parseDeferredCoordinates(
        of parts: inout ObjectParts, depth: Int, pointer: @autoclosure () -> String
    ) throws(GeoConvError) {
        guard let start = parts.coordinatesMark, parts.shapedKind == nil || parts.shapedKind != parts.geometryKind
        else { return }
        let end = scanner.mark
        scanner.rewind(to: start)
        if let kind = parts.geometryKind {
            parts.shaped = try parseShape(kind, depth: depth + 1, pointer: { pointer() + "/coordinates" })
            parts.shapedKind = kind
        } else if let type = parts.type, parts.kind != .other {
            try checkForeignMember("coordinates", of: type, at: location(of: scanner.place, pointer() + "/coordinates"))
            parts.foreign["coordinates"] = try scanner.parseValue(depth: depth, pointer: pointer() + "/coordinates")
            parts.coordinatesMark = nil
            parts.shaped = nil
            parts.shapedKind = nil
        } else {
            try scanner.skipValue(depth: depth + 1, pointer: pointer() + "/coordinates")
        }
        scanner.rewind(to: end)
    }

    /// The location of a place in the input, with a JSON Pointer (messages only).
    func location(of place: JSONScanner.Place, _ pointer: String? = nil) -> SourceLocation {
        scanner.location(of: place, pointer: pointer)
    }

    /// Where an object starts, with its pointer.
    func location(of parts: ObjectParts, _ pointer: String) -> SourceLocation {
        location(of: parts.place, pointer)
    }

    /// Where an object's `type` value is (the object's start when it has none).
    func typeLocation(of parts: ObjectParts, _ pointer: String) -> SourceLocation {
        guard let place = parts.typePlace else { return location(of: parts.place, pointer) }
        return location(of: place, pointer + "/type")
    }

    /// What a `type` names, case-insensitively (a wrong case is reported where it is used).
    enum ObjectKind: Equatable {
        case feature, featureCollection
        case geometry(GeometryKind)
        case other
    }

    /// The kind `type` names: exact names by a string switch, other cases folded (rare).
    static func objectKind(_ type: String) -> (ObjectKind, exact: Bool) {
        switch type {
        case "Feature": return (.feature, true)
        case "Point": return (.geometry(.point), true)
        case "LineString": return (.geometry(.lineString), true)
        case "Polygon": return (.geometry(.polygon), true)
        case "MultiPoint": return (.geometry(.multiPoint), true)
        case "MultiLineString": return (.geometry(.multiLineString), true)
        case "MultiPolygon": return (.geometry(.multiPolygon), true)
        case "GeometryCollection": return (.geometry(.geometryCollection), true)
        case "FeatureCollection": return (.featureCollection, true)
        default:
            let folded = type.lowercased()
            if folded == "feature" { return (.feature, false) }
            if folded == "featurecollection" { return (.featureCollection, false) }
            if let match = geometryTypes.first(where: { $0.key.lowercased() == folded }) {
                return (.geometry(match.value), false)
            }
            return (.other, false)
        }
    }

    /// The members RFC 7946 defines, matched as bytes; a member's bit is 1 << its index
    /// (duplicate checks without a list).
    static let memberNames = JSONKeyTable([
        "type", "features", "geometry", "properties", "id", "coordinates", "geometries",
        "bbox", "crs",
    ])
    /// Indices in `memberNames`.
    static let typeMember = 0, featuresMember = 1, geometryMember = 2, propertiesMember = 3, idMember = 4,
        coordinatesMember = 5,
        geometriesMember = 6, bboxMember = 7, crsMember = 8

    /// Whether the member at `index` in `memberNames` is one RFC 7946 defines for objects of `kind`.
    static func member(_ index: Int, belongsTo kind: ObjectKind) -> Bool {
        switch index {
        case featuresMember: return kind == .featureCollection || kind == .other
        case geometryMember, propertiesMember, idMember: return kind == .feature || kind == .other
        case coordinatesMember:
            if case .geometry(let geometryKind) = kind { return geometryKind != .geometryCollection }
            return kind == .other
        case geometriesMember: return kind == .geometry(.geometryCollection) || kind == .other
        default: return true  // type, bbox, crs
        }
    }

    /// The type names RFC 7946 defines, spelled exactly, matched as bytes; `typeKinds` says
    /// what each names.
    static let typeNames = JSONKeyTable([
        "Feature", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon",
        "GeometryCollection", "FeatureCollection",
    ])
    static let typeKinds: [ObjectKind] = [
        .feature, .geometry(.point), .geometry(.lineString), .geometry(.polygon), .geometry(.multiPoint),
        .geometry(.multiLineString), .geometry(.multiPolygon), .geometry(.geometryCollection),
        .featureCollection,
    ]
}
