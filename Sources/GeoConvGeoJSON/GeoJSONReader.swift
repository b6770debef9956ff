public import GeoConvCore

/// Options for reading GeoJSON.
public struct GeoJSONReadOptions: Hashable, Sendable {
    /// Read a GeoJSON text sequence (RFC 8142 records separated by RS, or one JSON text per
    /// line) instead of one GeoJSON document.
    public var isSequence: Bool
    /// Skip features that are invalid, counting them, instead of failing.
    public var skipsInvalidFeatures: Bool
    /// The deepest JSON nesting accepted.
    public var maximumDepth: Int
    /// The largest single feature accepted, in bytes.
    public var maximumFeatureBytes: Int
    /// Read a run of features cut from a FeatureCollection's array (`nextFeatureRun`),
    /// the first being the array's element at this index: comma-separated Feature objects
    /// up to the end of the input, no document around them.
    package var featureRunStart: Int?

    /// Creates options.
    public init(isSequence: Bool = false, skipsInvalidFeatures: Bool = false, maximumDepth: Int = 256,
                maximumFeatureBytes: Int = 1 << 30)
    {
        self.isSequence = isSequence
        self.skipsInvalidFeatures = skipsInvalidFeatures
        self.maximumDepth = maximumDepth
        self.maximumFeatureBytes = maximumFeatureBytes
    }
}

/// Reads GeoJSON (RFC 7946, and the 2008 form with `crs`) and GeoJSON text sequences
/// (RFC 8142, newline-delimited too), streaming one feature at a time.
///
/// A FeatureCollection's members before `features` make the header (`name`, `description`,
/// `crs`, `bbox`, foreign members, `geoconv:camera`, `geoconv:tileLayers`); its features are
/// then parsed one by one. A lone Feature or geometry is one feature. Properties keep their
/// order and literals; the model's title, snippet and style are derived from them
/// (`StyleProperties`). A Point with a `geoconv:radius` property is a circle. Foreign
/// members of features are kept in `Feature.foreignMembers`, those of its geometry object
/// under the key `"geometry"` there.
public struct GeoJSONReader: FeatureReader {
    enum State {
        case start, inFeatures(index: Int), afterFeatures, single(Feature?), sequence(index: Int), done
    }

    let scanner: JSONScanner
    let options: GeoJSONReadOptions
    let diagnostics: DiagnosticLog
    var state = State.start
    var pendingHeader = DocumentHeader()
    /// Problems seen, in input order, when collecting for validation (`collectsProblems`).
    public var problems: [ValidationProblem] { problemBox.items }
    /// Collect every problem instead of warning or failing (for `geoconv validate`): a bad
    /// feature is listed and skipped, and reading goes on after it wherever the JSON allows.
    public var collectsProblems = false
    /// When collecting problems: the positions of the feature last returned that are outside
    /// longitude ±180 / latitude ±90, in input order, each with its line, column and JSON
    /// Pointer. Whether they are errors depends on the CRS, which the caller knows.
    public var positionsOutOfRange: [(coordinate: Coordinate, location: SourceLocation)] { problemBox.outOfRange }
    /// Where the last feature started.
    public private(set) var lastLocation: SourceLocation?

    /// Creates a reader over an input.
    public init(_ input: ByteReader, options: GeoJSONReadOptions = GeoJSONReadOptions(), diagnostics: DiagnosticLog) {
        scanner = JSONScanner(input, maximumDepth: options.maximumDepth, maximumValueBytes: options.maximumFeatureBytes)
        self.options = options
        self.diagnostics = diagnostics
    }

    /// Input bytes consumed so far.
    public var bytesRead: Int { scanner.bytesRead }

    // MARK: Header

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        guard case .start = state else { return pendingHeader }
        if options.isSequence {
            state = .sequence(index: 0)
            return DocumentHeader()
        }
        if options.featureRunStart != nil {
            state = .inFeatures(index: 0)
            return DocumentHeader()
        }
        guard let first = try scanner.peekToken() else {
            throw GeoConvError(.invalidInput, "the input is empty", at: scanner.location(),
                               hint: "a GeoJSON document is one JSON object")
        }
        guard first == UInt8(ascii: "{") else {
            throw scanner.error("the root of a GeoJSON document must be an object, found \(try scanner.describeNext())",
                                pointer: "", hint: "GeoJSON is a FeatureCollection, Feature or geometry object")
        }
        lastLocation = scanner.location(pointer: "")
        problemBox.startFeature()
        var parts = ObjectParts()
        let sawFeatures = try parseObject(into: &parts, depth: 1, pointer: "", isRoot: true)
        if sawFeatures {
            try checkCollectionType(parts)
            pendingHeader = try header(from: parts)
            state = .inFeatures(index: 0)
        } else {
            if let type = parts.type, type.lowercased() == "featurecollection" {
                throw error("a FeatureCollection needs a \"features\" array", at: parts.location)
            }
            // A feature whose errors were listed while validating is not returned.
            let feature = problemBox.featureFailed ? nil : try feature(from: parts, pointer: "")
            try checkTrailing()
            pendingHeader = try header(from: ObjectParts(crs: parts.crs))
            state = .single(feature)
        }
        return pendingHeader
    }

    func checkCollectionType(_ parts: ObjectParts) throws(GeoConvError) {
        guard let type = parts.type else { return }
        if type != "FeatureCollection" {
            if type.lowercased() == "featurecollection" {
                try lenient("geojson.type-case", "type \"\(type)\" should be \"FeatureCollection\" (type names are case-sensitive)",
                            at: parts.typeLocation ?? parts.location)
            } else {
                throw error("an object with a \"features\" array has type \"\(type)\", not \"FeatureCollection\"",
                            at: parts.typeLocation ?? parts.location)
            }
        }
    }

    mutating func header(from parts: ObjectParts) throws(GeoConvError) -> DocumentHeader {
        try checkBBox(parts.bbox, at: parts.location)
        var header = DocumentHeader()
        if let crs = parts.crs { header.crs = try Self.legacyCRS(crs, at: parts.crsLocation ?? parts.location) }
        for (key, value) in parts.foreign {
            switch key {
            case "name" where value.stringValue != nil: header.name = value.stringValue
            case "description" where value.stringValue != nil: header.description = value.stringValue
            case GeoJSONNames.camera:
                if let camera = GeoJSONNames.camera(from: value) { header.camera = camera } else { header.foreignMembers[key] = value }
            case GeoJSONNames.tileLayers:
                if let layers = GeoJSONNames.tileLayers(from: value) { header.tileLayers = layers } else { header.foreignMembers[key] = value }
            default: header.foreignMembers[key] = value
            }
        }
        if let bbox = parts.bbox { header.foreignMembers["bbox"] = bbox }
        return header
    }

    /// The CRS a 2008-style `crs` member names: `nil` for WGS84 longitude/latitude (CRS84 or
    /// EPSG:4326, which GeoJSON always wrote in longitude, latitude order); otherwise the name,
    /// for reprojection.
    static func legacyCRS(_ value: JSONValue, at location: SourceLocation) throws(GeoConvError) -> String? {
        guard let object = value.objectValue else {
            if value == .null { return nil }
            throw GeoConvError(.invalidInput, "the \"crs\" member must be an object", at: location)
        }
        guard object["type"]?.stringValue == "name", let name = object["properties"]?.objectValue?["name"]?.stringValue else {
            throw GeoConvError(.unsupported, "only named \"crs\" members are supported (\"type\": \"name\")", at: location,
                               hint: "give the CRS with --s-srs instead")
        }
        let normalized = name.uppercased().replacing("::", with: ":")
        let wgs84 = ["URN:OGC:DEF:CRS:OGC:1.3:CRS84", "URN:OGC:DEF:CRS:OGC::CRS84", "OGC:CRS84", "CRS84",
                     "EPSG:4326", "URN:OGC:DEF:CRS:EPSG:4326", "URN:OGC:DEF:CRS:EPSG::4326", "URN:OGC:DEF:CRS:OGC:1.3:CRS84",
                     "HTTP://WWW.OPENGIS.NET/DEF/CRS/OGC/1.3/CRS84", "HTTP://WWW.OPENGIS.NET/DEF/CRS/EPSG/0/4326"]
        if wgs84.contains(normalized) || wgs84.contains(name.uppercased()) { return nil }
        return name  // reprojected to WGS84 through PROJ by the conversion
    }

    // MARK: Features

    public mutating func next() throws(GeoConvError) -> Feature? {
        while true {
            switch state {
            case .start:
                _ = try readHeader()
            case .single(let feature):
                state = .done
                if let feature { return feature }
            case .done:
                return nil
            case .afterFeatures:
                try finishRoot()
                state = .done
            case .inFeatures(let index):
                scanner.startValue()
                let byte = try scanner.peekToken()
                if options.featureRunStart != nil, byte == nil {
                    state = .done  // a run of features ends with its input
                    continue
                }
                if index == 0, byte == UInt8(ascii: "]") {
                    scanner.advance()
                    state = .afterFeatures
                    continue
                }
                if index > 0 {
                    guard try scanner.nextElement(close: UInt8(ascii: "]"), pointer: "/features") else {
                        state = .afterFeatures
                        continue
                    }
                    scanner.startValue()
                }
                state = .inFeatures(index: index + 1)
                let pointer = "/features/" + String(index + (options.featureRunStart ?? 0))
                lastLocation = scanner.location(pointer: pointer)
                problemBox.startFeature()
                guard try scanner.peekToken() == UInt8(ascii: "{") else {
                    let found = try scanner.describeNext()
                    let failure = scanner.error("every feature must be an object, found \(found)", pointer: pointer)
                    if options.skipsInvalidFeatures || collectsProblems {
                        _ = try scanner.parseValue(depth: 2, pointer: pointer)
                        try skip(failure)
                        continue
                    }
                    throw failure
                }
                let start = scanner.mark
                var parts = ObjectParts()
                do throws(GeoConvError) {
                    _ = try parseObject(into: &parts, depth: 2, pointer: pointer, isRoot: false)
                } catch {
                    guard options.skipsInvalidFeatures || collectsProblems, error.code == .invalidInput else { throw error }
                    try skipFeature(from: start, pointer: pointer, failure: error)
                    continue
                }
                if problemBox.featureFailed { continue }  // its errors are listed
                do throws(GeoConvError) {
                    return try feature(from: parts, pointer: pointer, requireFeature: true)
                } catch {
                    guard options.skipsInvalidFeatures || collectsProblems, error.code == .invalidInput else { throw error }
                    try skip(error)
                }
            case .sequence(let index):
                guard let byte = try scanner.peekRecord() else {
                    state = .done
                    return nil
                }
                scanner.startValue()
                let pointer = "/\(index)"
                lastLocation = scanner.location(pointer: pointer)
                problemBox.startFeature()
                state = .sequence(index: index + 1)
                var parts = ObjectParts()
                do throws(GeoConvError) {
                    guard byte == UInt8(ascii: "{") else {
                        throw scanner.error("every record of a GeoJSON text sequence must be an object, found \(try scanner.describeNext())",
                                            pointer: pointer)
                    }
                    scanner.recordEndsAtNewline = !scanner.sawRecordSeparator
                    defer { scanner.recordEndsAtNewline = false }
                    _ = try parseObject(into: &parts, depth: 1, pointer: pointer, isRoot: false)
                } catch {
                    // A record that does not parse: resynchronise at the next record.
                    guard options.skipsInvalidFeatures || collectsProblems, error.code == .invalidInput else { throw error }
                    try scanner.skipRecord()
                    try skip(error)
                    continue
                }
                if problemBox.featureFailed { continue }  // its errors are listed
                do throws(GeoConvError) {
                    return try feature(from: parts, pointer: pointer)
                } catch {
                    guard options.skipsInvalidFeatures || collectsProblems, error.code == .invalidInput else { throw error }
                    try skip(error)
                }
            }
        }
    }

    /// Whether the features come from a FeatureCollection's array that `nextFeatureRun` can
    /// cut into runs (the header has been read).
    package var readsFeatureArray: Bool {
        if case .inFeatures = state, options.featureRunStart == nil { return true }
        return false
    }

    /// The next run of whole features of the FeatureCollection's array, cut for a reader on
    /// another thread (`GeoJSONReadOptions.featureRunStart`); `nil` when none is left before
    /// the array's end, after which `next()` reads on as usual (the members after the
    /// array, or the error where the array does not continue).
    package mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> JSONScanner.ElementRun? {
        guard case .inFeatures(let index) = state, options.featureRunStart == nil else { return nil }
        var before = index
        guard let run = try scanner.nextElementRun(size: size, elementsBefore: &before) else { return nil }
        state = .inFeatures(index: before)
        return run
    }

    /// The size and count of the features the next `nextFeatureRun(size:)` would cut,
    /// without taking them (they stay in the window and are read again).
    package mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard case .inFeatures(let index) = state, options.featureRunStart == nil else { return nil }
        scanner.startValue()  // now, so that the window does not move under the mark
        let mark = scanner.mark
        var before = index
        let run = try scanner.nextElementRun(size: size, elementsBefore: &before)
        scanner.rewind(to: mark)
        return run.map { ($0.bytes.count, before - index) }
    }

    /// Resynchronises after a member of `features` that failed to read at `failure`: goes
    /// back to its start and steps over it as plain JSON, then lists or skips it. When it is
    /// not even JSON, nothing after it can be trusted: its JSON error is thrown.
    func skipFeature(from start: JSONScanner.Mark, pointer: String, failure: GeoConvError) throws(GeoConvError) {
        scanner.rewind(to: start)
        do throws(GeoConvError) {
            try scanner.skipValue(depth: 1, pointer: pointer)
        } catch {
            if error.location?.byteOffset == failure.location?.byteOffset { throw failure }  // the same fault, better said
            if collectsProblems { try skip(failure) }
            throw error
        }
        try skip(failure)
    }

    func skip(_ error: GeoConvError) throws(GeoConvError) {
        if collectsProblems {
            listError(error)
        } else {
            try diagnostics.skip("geojson.invalid-feature-skipped", "skipped an invalid feature: \(error.message)", at: error.location)
        }
    }

    /// Parses the root's members after `features` and checks nothing follows the document.
    mutating func finishRoot() throws(GeoConvError) {
        scanner.startValue()
        while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: "") {
            let location = scanner.location()
            let key = try scanner.parseKey(pointer: "")
            let value = try scanner.parseValue(depth: 1, pointer: "/" + JSONScanner.escapePointer(key))
            switch key {
            case "type":
                if value.stringValue != "FeatureCollection" {
                    throw GeoConvError(.invalidInput, "an object with a \"features\" array has type \(value), not \"FeatureCollection\"", at: location)
                }
            case "crs":
                if try Self.legacyCRS(value, at: location) != nil {
                    throw GeoConvError(.unsupported, "the \"crs\" member comes after the features, which were already read",
                                       at: location, hint: "move \"crs\" before \"features\", or give --s-srs")
                }
            case "features":
                throw GeoConvError(.invalidInput, "a second \"features\" member", at: location)
            case "bbox":
                // Derived data (writers put it last once every feature is known): nothing is lost.
                try checkBBox(value, at: location)
            default:
                try diagnostics.warn("geojson.members-after-features",
                                     "the document member \"\(key)\" comes after the features and is not carried over",
                                     at: location, hint: "put document members before \"features\"")
            }
        }
        try checkTrailing()
    }

    func checkTrailing() throws(GeoConvError) {
        if try scanner.peekToken() != nil {
            throw scanner.error("unexpected content after the GeoJSON object: \(try scanner.describeNext())",
                                hint: "a GeoJSON file holds one object; for one object per line use --from geojsonseq")
        }
    }

    // MARK: Objects

    /// What one JSON object of GeoJSON said, before its type is known.
    struct ObjectParts {
        var type: String?
        /// What `type` names.
        var kind = ObjectKind.other
        /// Whether `type` spelled it with the right case.
        var kindIsExact = false
        var typeLocation: SourceLocation?
        /// The object's JSON Pointer.
        var pointer = ""
        var location = SourceLocation()
        var id: JSONValue?
        var properties: JSONValue?
        var hasGeometryMember = false
        var geometry: ParsedGeometry?
        var coordinates: CoordinateNode?
        /// Coordinates parsed straight into their shape, when "type" came before them.
        var shaped: Geometry?
        var coordinatesLocation: SourceLocation?
        var geometries: [ParsedGeometry]?
        var bbox: JSONValue?
        var crs: JSONValue?
        var crsLocation: SourceLocation?
        var foreign = JSONObject()
    }

    /// A geometry object's result: the geometry (nil for `null`) and its foreign members.
    struct ParsedGeometry {
        var geometry: Geometry?
        var foreign: JSONObject
        var location: SourceLocation
    }

    /// Nested coordinate arrays as parsed, before the type says what they mean.
    enum CoordinateNode {
        case position(Coordinate, extraOrdinates: Bool)
        case list([CoordinateNode])
    }

    /// Parses an object's members into `parts`. At the root, stops right after `"features": [`
    /// and returns true, leaving the features to be streamed.
    mutating func parseObject(into parts: inout ObjectParts, depth: Int, pointer: String, isRoot: Bool)
        throws(GeoConvError) -> Bool
    {
        try scanner.checkDepth(depth, pointer: pointer)
        parts.location = scanner.location(pointer: pointer)
        parts.pointer = pointer
        try scanner.expect(UInt8(ascii: "{"), "'{'", pointer: pointer)
        if try scanner.peekToken() == UInt8(ascii: "}") {
            scanner.advance()
            return false
        }
        var seenMembers: UInt16 = 0
        repeat {
            if isRoot { scanner.startValue() }
            let keyLocation = scanner.location()
            let (index, key) = try scanner.parseKey(in: Self.memberNames, pointer: pointer)
            func memberPointer() -> String { pointer + "/" + JSONScanner.escapePointer(key) }
            let bit: UInt16 = index.map { 1 << UInt16($0) } ?? 0
            if bit != 0 ? seenMembers & bit != 0 : parts.foreign[key] != nil {
                try lenient("geojson.duplicate-member", "the member \"\(key)\" appears twice; the last one is used",
                            at: keyLocation.with(pointer: pointer))
            }
            seenMembers |= bit
            // A member that belongs to another kind of object than the one "type" already
            // named is a foreign member here (RFC 7946 §7.1): keep it as plain JSON.
            if bit != 0, parts.type != nil, !Self.member(key, belongsTo: parts.kind) {
                if collectsProblems, let type = parts.type {
                    try lenient("geojson.changed-semantics",
                                "a \(type) must not have a \"\(key)\" member (RFC 7946 §7.1); it is kept as a foreign member",
                                at: keyLocation.with(pointer: memberPointer()))
                }
                parts.foreign[key] = try scanner.parseValue(depth: depth, pointer: memberPointer())
                continue
            }
            switch key {
            case "type":
                let location = scanner.location()
                let value = try scanner.parseValue(depth: depth, pointer: memberPointer())
                guard let text = value.stringValue else {
                    throw error("the \"type\" member must be a string, found \(value.typeName)", at: location.with(pointer: memberPointer()))
                }
                parts.type = text
                (parts.kind, parts.kindIsExact) = Self.objectKind(text)
                parts.typeLocation = location.with(pointer: memberPointer())
            case "features" where isRoot:
                guard try scanner.peekToken() == UInt8(ascii: "[") else {
                    throw error("the \"features\" member must be an array, found \(try scanner.describeNext())",
                                at: scanner.location(pointer: memberPointer()))
                }
                scanner.advance()
                return true
            case "geometry":
                parts.hasGeometryMember = true
                parts.geometry = try parseGeometryValue(depth: depth + 1, pointer: memberPointer())
            case "coordinates":
                parts.coordinatesLocation = collectsProblems ? scanner.location(pointer: memberPointer()) : scanner.location()
                if case .geometry(let kind) = parts.kind, parts.kindIsExact, kind != .geometryCollection, !collectsProblems {
                    parts.shaped = try parseShape(kind, depth: depth + 1, pointer: memberPointer())
                    parts.coordinates = nil
                } else {
                    parts.coordinates = try parseCoordinates(depth: depth + 1, pointer: memberPointer())
                    parts.shaped = nil
                }
            case "geometries":
                guard try scanner.peekToken() == UInt8(ascii: "[") else {
                    throw error("the \"geometries\" member must be an array, found \(try scanner.describeNext())",
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
                            throw error("every member of \"geometries\" must be a geometry object, found \(try scanner.describeNext())",
                                        at: scanner.location(pointer: elementPointer))
                        }
                        if let parsed = try parseGeometryValue(depth: depth + 2, pointer: elementPointer) { members.append(parsed) }
                    } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: memberPointer())
                }
                parts.geometries = members
            case "properties":
                parts.properties = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case "id":
                parts.id = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case "bbox":
                parts.bbox = try scanner.parseValue(depth: depth, pointer: memberPointer())
            case "crs":
                parts.crsLocation = scanner.location()
                parts.crs = try scanner.parseValue(depth: depth, pointer: memberPointer())
            default:
                parts.foreign[key] = try scanner.parseValue(depth: depth, pointer: memberPointer())
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: pointer)
        return false
    }

    /// What a `type` names, case-insensitively (a wrong case is reported where it is used).
    enum ObjectKind: Equatable {
        case feature, featureCollection, geometry(GeometryKind), other
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
            if let match = geometryTypes.first(where: { $0.key.lowercased() == folded }) { return (.geometry(match.value), false) }
            return (.other, false)
        }
    }

    /// The members RFC 7946 defines, matched as bytes; a member's bit is 1 << its index
    /// (duplicate checks without a list).
    static let memberNames = JSONKeyTable(["type", "features", "geometry", "properties", "id", "coordinates", "geometries",
                                           "bbox", "crs"])

    /// Whether `key` is one of the members RFC 7946 defines for objects of `kind`.
    static func member(_ key: String, belongsTo kind: ObjectKind) -> Bool {
        switch key {
        case "type", "bbox", "crs": return true
        case "features": return kind == .featureCollection || kind == .other
        case "geometry", "properties", "id": return kind == .feature || kind == .other
        case "coordinates":
            if case .geometry(let geometryKind) = kind { return geometryKind != .geometryCollection }
            return kind == .other
        case "geometries": return kind == .geometry(.geometryCollection) || kind == .other
        default: return true
        }
    }

    // MARK: Problems

    /// RFC 7946 §3.1.6 orientation, reported only when validating (readers must accept either).
    func checkWinding(_ rings: PolygonRings, at location: SourceLocation) throws(GeoConvError) {
        guard collectsProblems else { return }
        if rings.outer.count >= 4, !rings.outer.isCounterClockwise {
            try lenient("geojson.winding", "an exterior ring should run counter-clockwise (RFC 7946 §3.1.6)", at: location)
        }
        for hole in rings.holes where hole.count >= 4 && hole.isCounterClockwise {
            try lenient("geojson.winding", "a hole should run clockwise (RFC 7946 §3.1.6)", at: location)
        }
    }

    /// Checks a `bbox` member's form when validating: 4 or 6 numbers, south ≤ north.
    func checkBBox(_ value: JSONValue?, at location: SourceLocation) throws(GeoConvError) {
        guard collectsProblems, let value else { return }
        guard let list = value.arrayValue else {
            try lenient("geojson.bbox", "a bbox must be an array of numbers, found \(value.typeName)", at: location)
            return
        }
        guard list.count == 4 || list.count == 6 else {
            try lenient("geojson.bbox", "a bbox must hold 4 numbers (2D) or 6 (3D), found \(list.count)", at: location)
            return
        }
        guard list.allSatisfy({ $0.doubleValue != nil }) else {
            try lenient("geojson.bbox", "every element of a bbox must be a number", at: location)
            return
        }
    }

    func error(_ message: String, at location: SourceLocation, hint: String? = nil) -> GeoConvError {
        GeoConvError(.invalidInput, message, at: location, hint: hint)
    }

    /// A deviation from RFC 7946 that geoconv reads anyway: a warning (a problem when validating).
    func lenient(_ code: String, _ message: String, at location: SourceLocation) throws(GeoConvError) {
        if collectsProblems {
            problemBox.items.append(ValidationProblem(severity: .warning, message: message, location: location))
            return
        }
        try diagnostics.warn(code, message, at: location)
    }

    /// Lists an error of the feature being read, which is then not returned (validation).
    func listError(_ error: GeoConvError) {
        problemBox.items.append(ValidationProblem(severity: .error, message: error.message, location: error.location ?? scanner.location()))
        problemBox.featureFailed = true
    }

    let problemBox = ProblemBox()
}

/// What validation collects while reading (a class: the parsing methods are not mutating).
final class ProblemBox {
    var items: [ValidationProblem] = []
    /// Whether the feature being read had an error, already listed, when validation reads on past it.
    var featureFailed = false
    /// The feature's positions outside longitude ±180 / latitude ±90, with their places.
    var outOfRange: [(coordinate: Coordinate, location: SourceLocation)] = []

    /// Forgets the previous feature.
    func startFeature() {
        featureFailed = false
        if !outOfRange.isEmpty { outOfRange.removeAll() }
    }
}
