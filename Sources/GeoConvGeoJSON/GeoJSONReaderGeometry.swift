import GeoConvCore
import GeoConvFormatKit
import GeoConvIO

/// Geometries and features: a geometry object's members interpreted by its type (its
/// coordinates are parsed by `GeoJSONReaderCoordinates.swift`), and the feature built from
/// its members.
extension GeoJSONReader {
    /// Parses a `geometry` value: an object, or `null`.
    mutating func parseGeometryValue(
        depth: Int, pointer: @autoclosure () -> String
    ) throws(GeoConvError) -> ParsedGeometry? {
        let place = scanner.place
        guard try scanner.peekToken() != UInt8(ascii: "n") else {
            _ = try scanner.parseValue(depth: depth, pointer: pointer())
            return ParsedGeometry(geometry: nil, foreign: [:])
        }
        guard try scanner.peekToken() == UInt8(ascii: "{") else {
            throw error(
                "a geometry must be an object or null, found \(try scanner.describeNext())",
                at: location(of: place, pointer()))
        }
        if let common = try parseCommonGeometry(depth: depth, pointer: pointer()) { return common }
        var parts = ObjectParts()
        _ = try parseObject(into: &parts, depth: depth, pointer: pointer(), isRoot: false)
        return try geometry(from: parts, pointer: pointer())
    }

    /// `{"type": "<geometry type>", "coordinates": …}`, as nearly every file writes a
    /// geometry, read without gathering its members first: the exact type name and the two
    /// member names matched as bytes, the coordinates parsed into their shape. Any other start
    /// (another member or order, an escaped name, a wrong-case type, a GeometryCollection)
    /// leaves the scanner at the '{' and returns nil; members after the coordinates are read
    /// by the general loop from there, so the outcome is always `parseObject`'s.
    mutating func parseCommonGeometry(
        depth: Int, pointer: @autoclosure () -> String
    ) throws(GeoConvError) -> ParsedGeometry? {
        try scanner.checkDepth(depth, pointer: pointer())
        let start = scanner.mark
        let place = scanner.place
        scanner.advance()  // '{', peeked by the caller
        guard let typePlace = try valuePlace(ofMember: Self.typeMember), try scanner.peekToken() == UInt8(ascii: "\""),
            let known = try scanner.knownKey(Self.typeNames), case .geometry(let kind) = Self.typeKinds[known],
            kind != .geometryCollection, try scanner.consumeToken(UInt8(ascii: ",")),
            try valuePlace(ofMember: Self.coordinatesMember) != nil
        else {
            scanner.rewind(to: start)
            return nil
        }
        let coordinatesMark = scanner.mark
        let shaped = try parseShape(kind, depth: depth + 1, pointer: { pointer() + "/coordinates" })
        if try scanner.peekToken() == UInt8(ascii: "}") {
            scanner.advance()
            return ParsedGeometry(geometry: shaped, foreign: [:])
        }
        var parts = ObjectParts()
        parts.place = place
        parts.type = Self.typeNames.names[known]
        (parts.kind, parts.kindIsExact, parts.typePlace) = (.geometry(kind), true, typePlace)
        (parts.coordinatesMark, parts.shaped, parts.shapedKind) = (coordinatesMark, shaped, kind)
        _ = try parseObject(
            into: &parts, depth: depth, pointer: pointer(), isRoot: false,
            resuming: 1 << UInt16(Self.typeMember) | 1 << UInt16(Self.coordinatesMember))
        return try geometry(from: parts, pointer: pointer())
    }

    /// Which of `names` the next member is, its name matched as bytes, the scanner then just
    /// after its colon; nil, having read some of it, when it is none of them.
    private func memberIndex(in names: JSONKeyTable) throws(GeoConvError) -> Int? {
        guard try scanner.peekToken() == UInt8(ascii: "\""), let index = try scanner.knownKey(names),
            try scanner.consumeToken(UInt8(ascii: ":"))
        else { return nil }
        return index
    }

    /// Where the next member's value starts (just after its colon) when the member is
    /// `memberNames[index]`, its name matched as bytes; nil, having read some of it, when not.
    private func valuePlace(ofMember index: Int) throws(GeoConvError) -> JSONScanner.Place? {
        try memberIndex(in: Self.memberNames) == index ? scanner.place : nil
    }

    // MARK: Interpretation

    static let geometryTypes: [String: GeometryKind] = [
        "Point": .point, "LineString": .lineString, "Polygon": .polygon, "MultiPoint": .multiPoint,
        "MultiLineString": .multiLineString, "MultiPolygon": .multiPolygon, "GeometryCollection": .geometryCollection,
    ]

    func geometryKind(_ type: String, at location: SourceLocation) throws(GeoConvError) -> GeometryKind? {
        if let kind = Self.geometryTypes[type] { return kind }
        if let match = Self.geometryTypes.first(where: { $0.key.lowercased() == type.lowercased() }) {
            try lenient(
                GeoJSONCode.typeCase, "type \"\(type)\" should be \"\(match.key)\" (type names are case-sensitive)",
                at: location)
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
            throw error(
                "unknown geometry type \"\(type)\"", at: typeLocation(of: parts, pointer()),
                hint:
                    "GeoJSON geometry types are Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon and GeometryCollection"
            )
        }
        var foreign = parts.foreign
        if parts.bbox != nil { try checkBBox(parts.bbox, at: objectLocation()) }
        if let bbox = parts.bbox { foreign["bbox"] = bbox }
        if parts.properties != nil || parts.hasGeometryMember || parts.id != nil {
            try lenient(
                GeoJSONCode.geometryMembers,
                "a geometry object has Feature members (\"properties\", \"geometry\" or \"id\"); they are ignored",
                at: objectLocation())
        }
        let geometry: Geometry
        if kind == .geometryCollection {
            guard let members = parts.geometries else {
                throw error("a GeometryCollection needs a \"geometries\" array", at: objectLocation())
            }
            if members.contains(where: { $0.geometry?.kind == .geometryCollection }) {
                try lenient(
                    GeoJSONCode.nestedCollection, "GeometryCollections should not be nested (RFC 7946 §3.1.8)",
                    at: objectLocation())
            }
            if members.contains(where: { !$0.foreign.isEmpty }) {
                try lenient(
                    GeoJSONCode.collectionMemberForeign,
                    "foreign members of geometries inside a GeometryCollection are not kept",
                    at: objectLocation())
            }
            let geometries = members.compactMap(\.geometry)
            geometry = geometries.isEmpty ? .empty(.geometryCollection) : .geometryCollection(geometries)
        } else {
            guard let shaped = parts.shaped else {
                throw error("a \(type) needs a \"coordinates\" member", at: objectLocation())
            }
            geometry = shaped
        }
        return ParsedGeometry(geometry: geometry, foreign: foreign)
    }

    func feature(
        from parts: ObjectParts, pointer: @autoclosure () -> String, requireFeature: Bool = false
    ) throws(GeoConvError) -> Feature {
        func objectLocation() -> SourceLocation { location(of: parts, pointer()) }
        guard let type = parts.type else {
            throw error(
                requireFeature ? "a feature needs \"type\": \"Feature\"" : "a GeoJSON object needs a \"type\" member",
                at: objectLocation(), hint: "add \"type\": \"Feature\" (or a geometry type)")
        }
        if parts.kind != .feature || !parts.kindIsExact {
            if type.lowercased() == "feature" {
                try lenient(
                    GeoJSONCode.typeCase, "type \"\(type)\" should be \"Feature\" (type names are case-sensitive)",
                    at: typeLocation(of: parts, pointer()))
            } else if requireFeature {
                throw error(
                    "a member of \"features\" has type \"\(type)\", not \"Feature\"",
                    at: typeLocation(of: parts, pointer()))
            } else {
                // A bare geometry is one feature without properties.
                let parsed = try geometry(from: parts, pointer: pointer())
                var feature = Feature(geometry: parsed.geometry)
                if !parsed.foreign.isEmpty { feature.foreignMembers["geometry"] = .object(parsed.foreign) }
                return feature
            }
        }
        // Built once from its parts (a feature assigned member by member is copied).
        var geometry: Geometry?
        var id: FeatureID?
        var properties = JSONObject()
        var foreign = JSONObject()
        var sourceForm: Feature.SourceForm = []
        if !parts.hasGeometryMember {
            try lenient(
                GeoJSONCode.missingGeometry, "a Feature has no \"geometry\" member; read as null", at: objectLocation())
        }
        if let parsed = parts.geometry {
            geometry = parsed.geometry
            if !parsed.foreign.isEmpty { foreign["geometry"] = .object(parsed.foreign) }
        }
        switch parts.id {
        case .string(let s)?: id = .string(s)
        case .number(let n)?: id = .number(n)
        case nil: break
        case let other?:
            try lenient(
                GeoJSONCode.invalidID,
                "a Feature \"id\" must be a string or a number, found \(other.typeName); kept as a foreign member",
                at: objectLocation())
            foreign["id"] = other
        }
        switch parts.properties {
        case .object(let object)?: properties = object
        case .null?: sourceForm.insert(.nullProperties)  // written as null again
        case nil:
            try lenient(GeoJSONCode.missingProperties, "a Feature has no \"properties\" member", at: objectLocation())
        case let other?:
            try lenient(
                GeoJSONCode.propertiesNotObject,
                "a Feature's \"properties\" must be an object or null, found \(other.typeName); it is dropped",
                at: objectLocation())
        }
        for (key, value) in parts.foreign { foreign[key] = value }
        if parts.bbox != nil { try checkBBox(parts.bbox, at: objectLocation()) }
        if let bbox = parts.bbox { foreign["bbox"] = bbox }
        if parts.coordinatesMark != nil || parts.geometries != nil {
            try lenient(
                GeoJSONCode.featureGeometryMembers,
                "a Feature has \"coordinates\" or \"geometries\" members; they are ignored",
                at: objectLocation())
        }
        return try Self.makeFeature(
            id: id, geometry: geometry, properties: properties, foreign: foreign, sourceForm: sourceForm,
            at: objectLocation(), diagnostics: diagnostics)
    }

    /// A feature from its members as read: a Point with a `geoconv:radius` is the circle it
    /// stands for, and the style is derived from the properties.
    /// A style property whose value styles nothing is reported at it (`at`: the feature's place).
    /// (Static: a method called from the reader's mutating ones copied the reader per feature.)
    static func makeFeature(
        id: FeatureID?, geometry: Geometry?, properties: JSONObject, foreign: JSONObject,
        sourceForm: Feature.SourceForm = [], at location: @autoclosure () -> SourceLocation,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> Feature {
        var geometry = geometry
        if case .point(let center)? = geometry, let radius = properties[model: .radius],
            radius.isFinite, radius >= 0
        {
            geometry = .circle(center: center, radius: radius)
        }
        guard StyleProperties.mentionsStyle(properties) else {
            // Most features: built in place (a feature changed after it is made is copied).
            guard TitleProperties.mentionsRole(properties) else {
                return Feature(
                    id: id, geometry: geometry, properties: properties, foreignMembers: foreign, sourceForm: sourceForm)
            }
            // A title or snippet under another case only (`NAME`, as Natural Earth writes it),
            // as the tabular readers and GDAL's KML writer take it (`TitleProperties`).
            var feature = Feature(
                id: id, geometry: geometry, properties: properties, foreignMembers: foreign, sourceForm: sourceForm)
            TitleProperties.derive(into: &feature)
            return feature
        }
        var feature = Feature(
            id: id, geometry: geometry, properties: properties, foreignMembers: foreign, sourceForm: sourceForm)
        let unusable = StyleProperties.derive(into: &feature)
        if feature.title == nil || feature.snippet == nil, TitleProperties.mentionsRole(properties) {
            var derived = feature
            TitleProperties.derive(into: &derived)
            feature.title = feature.title ?? derived.title
            feature.snippet = feature.snippet ?? derived.snippet
        }
        for key in unusable {
            var place = location()
            place.pointer = (place.pointer ?? "") + "/properties/" + JSONScanner.escapePointer(key)
            let value = feature.properties[key].map(JSONText.string) ?? ""
            try diagnostics.warn(
                GeoJSONCode.styleValueUnusable,
                "\"\(key)\": \(value) is not a value this style property takes (colours: CSS names, #rgb, #rrggbb, rgb(), rgba(), hsl(); widths, scales, opacities: numbers); it stays a property and styles nothing",
                at: place)
        }
        return feature
    }

    /// A member of `features` written `{"type": "Feature", …}` with nothing but `properties`
    /// (an object), `geometry` and `id` (a string or a number), each once, as nearly every
    /// file writes them: read without gathering its members into `ObjectParts` first, names
    /// matched as bytes. Any other object is read into `parts` by the general loop (`nil`
    /// returned): from its start, or from the first member the common form does not have,
    /// with what was read before it (nothing is read twice). So the outcome is always
    /// `parseObject`'s.
    mutating func parseCommonFeature(
        depth: Int, pointer: @autoclosure () -> String, otherwise parts: inout ObjectParts
    )
        throws(GeoConvError) -> Feature?
    {
        try scanner.checkDepth(depth, pointer: pointer())
        let start = scanner.mark
        let place = scanner.place
        scanner.advance()  // '{', peeked by the caller
        guard let typePlace = try valuePlace(ofMember: Self.typeMember), try scanner.peekToken() == UInt8(ascii: "\""),
            let known = try scanner.knownKey(Self.typeNames), Self.typeKinds[known] == .feature
        else {
            scanner.rewind(to: start)
            _ = try parseObject(into: &parts, depth: depth, pointer: pointer(), isRoot: false)
            return nil
        }
        var seen: UInt16 = 1 << UInt16(Self.typeMember)
        var properties: JSONValue?
        var geometry: ParsedGeometry?
        var id: JSONValue?
        var ended = false
        while true {
            let afterValue = scanner.mark
            if try scanner.consumeToken(UInt8(ascii: "}")) {
                ended = true
                break
            }
            guard try scanner.consumeToken(UInt8(ascii: ",")), let index = try memberIndex(in: Self.memberNames),
                index == Self.propertiesMember || index == Self.geometryMember || index == Self.idMember,
                seen & (1 << UInt16(index)) == 0
            else {
                // Another member, a repeated one, or what is wrong there: the general loop's, from the comma.
                scanner.rewind(to: afterValue)
                break
            }
            seen |= 1 << UInt16(index)
            switch index {
            case Self.propertiesMember:
                properties = try scanner.parseValue(depth: depth, pointer: pointer() + "/properties")
            case Self.geometryMember:
                geometry = try parseGeometryValue(depth: depth + 1, pointer: pointer() + "/geometry")
            default:
                id = try scanner.parseValue(depth: depth, pointer: pointer() + "/id")
            }
        }
        let plainID: FeatureID?? =
            switch id {
            case nil: .some(nil)
            case .string(let s)?: .some(.string(s))
            case .number(let n)?: .some(.number(n))
            default: nil
            }
        if ended, case .object(let object)? = properties, let geometry, geometry.foreign.isEmpty, let plainID {
            // The place asked of the scanner, not of `self`: an autoclosure over `self` here
            // would copy the reader (every feature).
            let scanner = scanner
            return try Self.makeFeature(
                id: plainID, geometry: geometry.geometry, properties: object, foreign: [:],
                at: scanner.location(of: place, pointer: pointer()), diagnostics: diagnostics)
        }
        parts.place = place
        parts.type = Self.typeNames.names[known]
        (parts.kind, parts.kindIsExact, parts.typePlace) = (.feature, true, typePlace)
        (parts.properties, parts.geometry, parts.id) = (properties, geometry, id)
        parts.hasGeometryMember = seen & (1 << UInt16(Self.geometryMember)) != 0
        if !ended { _ = try parseObject(into: &parts, depth: depth, pointer: pointer(), isRoot: false, resuming: seen) }
        return nil
    }
}
