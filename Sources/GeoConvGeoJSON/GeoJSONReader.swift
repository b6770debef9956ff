public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

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
    /// Read a run of features cut from a FeatureCollection's array (`nextFeatureRun(size:)`),
    /// the first being the array's element at this index: comma-separated Feature objects
    /// up to the end of the input, no document around them.
    package var featureRunStart: Int?
    /// Whether the caller gives the input's CRS (`--s-srs`): a `crs` member is then not
    /// needed, wherever it stands.
    public var sourceCRSIsGiven = false

    /// Creates options.
    public init(
        isSequence: Bool = false, skipsInvalidFeatures: Bool = false, maximumDepth: Int = 256,
        maximumFeatureBytes: Int = 1 << 30
    ) {
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
    /// Where the reader is. (The one feature of a single-object input is boxed: the state is
    /// switched on and assigned per feature, and a `Feature` inline would be copied each time.)
    enum State {
        case start
        case inFeatures(index: Int)
        case afterFeatures
        case sequence(index: Int)
        case done
        indirect case single(Feature?)
    }

    let scanner: JSONScanner
    let options: GeoJSONReadOptions
    let diagnostics: DiagnosticLog
    var state = State.start
    var pendingHeader = DocumentHeader()
    /// The features of a FeatureCollection record of a text sequence, with their places,
    /// returned before the next record is read.
    var recordFeatures: [(feature: Feature, location: SourceLocation?)] = []
    var recordFeatureIndex = 0
    /// Collect every problem instead of warning or failing (for `geoconv validate`): a bad
    /// feature is listed and skipped, and reading goes on after it wherever the JSON allows.
    public var collectsProblems = false
    /// Where the last feature started: made into a `SourceLocation` only when asked (most
    /// features are never asked about).
    public internal(set) var lastLocation: SourceLocation? {
        get {
            switch lastPlace {
            case .none: nil
            case .location(let location): location
            case .element(let place, let prefix, let index):
                scanner.location(of: place, pointerPrefix: prefix.description, index: index)
            }
        }
        set { lastPlace = newValue.map(LastPlace.location) ?? .none }
    }
    /// `lastLocation`'s parts.
    enum LastPlace {
        case none
        case location(SourceLocation)
        /// Element `index` of the array at `prefix` (a JSON Pointer), starting at `place`.
        case element(JSONScanner.Place, prefix: StaticString, index: Int)
    }
    var lastPlace = LastPlace.none
    /// A `crs` member after `features`, read ahead by a second pass over the file.
    var crsReadAhead: String?

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
            scanner.separatesRecordsWithRS =
                FormatSniffing.firstSignificantByte(try scanner.reader.inputStart())?.byte == 0x1E
            return DocumentHeader()
        }
        if options.featureRunStart != nil {
            state = .inFeatures(index: 0)
            return DocumentHeader()
        }
        guard let first = try scanner.peekToken() else {
            throw GeoConvError(
                .invalidInput, "the input is empty", at: scanner.location(),
                hint: "a GeoJSON document is one JSON object")
        }
        guard first == UInt8(ascii: "{") else {
            throw scanner.error(
                "the root of a GeoJSON document must be an object, found \(try scanner.describeNext())",
                pointer: "", hint: "GeoJSON is a FeatureCollection, Feature or geometry object")
        }
        lastLocation = scanner.location(pointer: "")
        problemBox.startFeature()
        var parts = ObjectParts()
        let sawFeatures = try parseObject(into: &parts, depth: 1, pointer: "", isRoot: true)
        if sawFeatures {
            try checkCollectionType(parts)
            pendingHeader = try header(from: parts)
            if pendingHeader.crs == nil, !options.sourceCRSIsGiven, let crs = try crsAfterFeatures() {
                pendingHeader.crs = crs
                crsReadAhead = crs
            }
            state = .inFeatures(index: 0)
        } else {
            if let type = parts.type, type.lowercased() == "featurecollection" {
                throw error("a FeatureCollection needs a \"features\" array", at: location(of: parts, ""))
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
                try lenient(
                    GeoJSONCode.typeCase,
                    "type \"\(type)\" should be \"FeatureCollection\" (type names are case-sensitive)",
                    at: typeLocation(of: parts, ""))
            } else {
                throw error(
                    "an object with a \"features\" array has type \"\(type)\", not \"FeatureCollection\"",
                    at: typeLocation(of: parts, ""))
            }
        }
    }

    mutating func header(from parts: ObjectParts) throws(GeoConvError) -> DocumentHeader {
        try checkBBox(parts.bbox, at: location(of: parts, ""))
        var header = DocumentHeader()
        if let crs = parts.crs { header.crs = try Self.legacyCRS(crs, at: location(of: parts.crsPlace ?? parts.place)) }
        for (key, value) in parts.foreign {
            switch key {
            case "name" where value.stringValue != nil: header.name = value.stringValue
            case "description" where value.stringValue != nil: header.description = value.stringValue
            case ModelKey.camera.name:
                if let camera = GeoJSONNames.camera(from: value) {
                    header.camera = camera
                } else {
                    header.foreignMembers[key] = value
                }
            case ModelKey.tileLayers.name:
                if let layers = GeoJSONNames.tileLayers(from: value) {
                    header.tileLayers = layers
                } else {
                    header.foreignMembers[key] = value
                }
            default: header.foreignMembers[key] = value
            }
        }
        if let bbox = parts.bbox { header.foreignMembers["bbox"] = bbox }
        return header
    }

    /// The CRS a 2008-style `crs` member names: `nil` for WGS84 longitude/latitude (CRS84 or
    /// EPSG:4326, which GeoJSON always wrote in longitude, latitude order); otherwise a name
    /// PROJ takes, for reprojection. Every form GDAL reads:
    /// - `{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::28356"}}` (2008 spec);
    /// - `{"type": "EPSG", "properties": {"code": 28356}}` (pre-2008 writers);
    /// - `{"type": "OGC", "properties": {"urn": "urn:ogc:def:crs:OGC:1.3:CRS84"}}`;
    /// - `{"type": "link", "properties": {"href": "http://www.opengis.net/def/crs/EPSG/0/28356"}}`
    ///   — an EPSG or OGC URL (opengis.net, spatialreference.org, epsg.io); nothing is fetched,
    ///   and a link to anything else is refused with a hint.
    static func legacyCRS(_ value: JSONValue, at location: SourceLocation) throws(GeoConvError) -> String? {
        guard let object = value.objectValue else {
            if value == .null { return nil }
            throw GeoConvError(.invalidInput, "the \"crs\" member must be an object", at: location)
        }
        let properties = object["properties"]?.objectValue ?? [:]
        let name: String
        switch object["type"]?.stringValue {
        case "name"?:
            guard let given = properties["name"]?.stringValue else {
                throw GeoConvError(.invalidInput, "a named \"crs\" needs \"properties\": {\"name\": …}", at: location)
            }
            name = given
        case "EPSG"?:
            let given = properties["code"]
            guard
                let code = given?.doubleValue.flatMap({ Int(exactly: $0) }) ?? given?.stringValue.flatMap({ Int($0) }),
                code > 0
            else {
                throw GeoConvError(.invalidInput, "an EPSG \"crs\" needs \"properties\": {\"code\": N}", at: location)
            }
            name = "EPSG:\(code)"
        case "OGC"?:
            guard let urn = properties["urn"]?.stringValue else {
                throw GeoConvError(.invalidInput, "an OGC \"crs\" needs \"properties\": {\"urn\": …}", at: location)
            }
            name = urn
        case "link"?:
            let href = properties["href"]?.stringValue ?? ""
            guard let crs = Self.crs(fromLink: href) else {
                throw GeoConvError(
                    .unsupported,
                    "the \"crs\" links to \"\(href)\", which names no EPSG or OGC CRS geoconv can read without fetching it",
                    at: location,
                    hint: "give the CRS with --s-srs (for example --s-srs EPSG:28356); geoconv never fetches URLs")
            }
            name = crs
        default:
            throw GeoConvError(
                .unsupported,
                "a \"crs\" of type \(object["type"].map { JSONText.string($0) } ?? "(none)") is not one geoconv reads",
                at: location, hint: "use \"name\", \"EPSG\", \"OGC\" or \"link\", or give the CRS with --s-srs")
        }
        if WGS84Names.contains(name) { return nil }
        return name  // reprojected to WGS84 through PROJ by the conversion
    }

    /// The CRS an EPSG or OGC URL names (`EPSG:N`, `OGC:CRS84`), read from the URL alone.
    static func crs(fromLink href: String) -> String? {
        let lower = href.lowercased()
        let parts = lower.split(whereSeparator: { $0 == "/" || $0 == "." || $0 == "?" || $0 == "=" }).map(String.init)
        let known = ["opengis.net/def/crs/", "spatialreference.org/ref/epsg/", "epsg.io/"]
        guard known.contains(where: { lower.contains($0) }) else { return nil }
        if lower.contains("/crs84") { return "OGC:CRS84" }
        // The number after "epsg" (…/EPSG/0/28356, …/ref/epsg/28356/…), or the first number of epsg.io/28356.
        if let at = parts.lastIndex(of: "epsg") {
            for part in parts[(at + 1)...] where part != "0" {
                if let code = Int(part), code > 0 { return "EPSG:\(code)" }
            }
        }
        if lower.contains("epsg.io/"), let code = parts.compactMap({ Int($0) }).first(where: { $0 > 0 }) {
            return "EPSG:\(code)"
        }
        return nil
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
                let featureIndex = index + (options.featureRunStart ?? 0)
                func pointer() -> String { "/features/" + String(featureIndex) }
                _ = try scanner.peekToken()  // the feature's place is its first byte, not the comma before it
                lastPlace = .element(scanner.place, prefix: "/features", index: featureIndex)
                problemBox.startFeature()
                guard try scanner.peekToken() == UInt8(ascii: "{") else {
                    let found = try scanner.describeNext()
                    let failure = scanner.error("every feature must be an object, found \(found)", pointer: pointer())
                    if readsPastBadFeatures {
                        _ = try scanner.parseValue(depth: 2, pointer: pointer())
                        try skip(failure)
                        continue
                    }
                    throw failure
                }
                let start = scanner.mark
                // Most features in the common form, read straight into a feature; the others
                // gathered into their parts first.
                var parts = ObjectParts()
                do throws(GeoConvError) {
                    if let feature = try parseCommonFeature(depth: 2, pointer: pointer(), otherwise: &parts) {
                        if problemBox.featureFailed { continue }  // its errors are listed
                        return feature
                    }
                } catch {
                    guard readsPastBadFeatures, error.code == .invalidInput else { throw error }
                    try skipFeature(from: start, pointer: pointer(), failure: error)
                    continue
                }
                if problemBox.featureFailed { continue }  // its errors are listed
                do throws(GeoConvError) {
                    return try feature(from: parts, pointer: pointer(), requireFeature: true)
                } catch {
                    guard readsPastBadFeatures, error.code == .invalidInput else { throw error }
                    try skip(error)
                }
            case .sequence(let index):
                if recordFeatureIndex < recordFeatures.count {
                    let (feature, location) = recordFeatures[recordFeatureIndex]
                    recordFeatureIndex += 1
                    lastLocation = location
                    return feature
                }
                guard let byte = try scanner.peekRecord() else {
                    state = .done
                    return nil
                }
                scanner.startValue()
                func pointer() -> String { "/" + String(index) }
                lastPlace = .element(scanner.place, prefix: "", index: index)
                problemBox.startFeature()
                state = .sequence(index: index + 1)
                var parts = ObjectParts()
                let recordStart = scanner.mark
                do throws(GeoConvError) {
                    guard byte == UInt8(ascii: "{") else {
                        throw scanner.error(
                            "every record of a GeoJSON text sequence must be an object, found \(try scanner.describeNext())",
                            pointer: pointer())
                    }
                    scanner.recordEndsAtNewline = !scanner.separatesRecordsWithRS
                    defer { scanner.recordEndsAtNewline = false }
                    // Most records in the common form, read straight into a feature.
                    if let feature = try parseCommonFeature(depth: 1, pointer: pointer(), otherwise: &parts) {
                        if problemBox.featureFailed { continue }  // its errors are listed
                        return feature
                    }
                } catch {
                    // A record that does not parse: resynchronise at the next record.
                    guard readsPastBadFeatures, error.code == .invalidInput else { throw error }
                    try scanner.skipRecord()
                    try skip(error)
                    continue
                }
                if problemBox.featureFailed { continue }  // its errors are listed
                if parts.kind == .featureCollection {
                    try readCollectionRecord(from: recordStart, index: index)
                    continue
                }
                do throws(GeoConvError) {
                    return try feature(from: parts, pointer: pointer())
                } catch {
                    guard readsPastBadFeatures, error.code == .invalidInput else { throw error }
                    try skip(error)
                }
            }
        }
    }

    /// A FeatureCollection record of a text sequence (as some writers emit one per batch):
    /// its features, read by a reader of their own over the record's bytes, with their
    /// places and warnings moved to where they are in the input (`/N/features/M`).
    mutating func readCollectionRecord(from start: JSONScanner.Mark, index: Int) throws(GeoConvError) {
        let place = scanner.place(of: start)
        let run = FeatureRun(
            bytes: scanner.bytes(since: start), line: place.line, column: place.column, byteOffset: place.byteOffset,
            recordsBefore: 0)
        func relocate(_ location: SourceLocation) -> SourceLocation {
            var moved = run.relocate(location)
            moved.file = scanner.name
            moved.pointer = "/\(index)" + (location.pointer ?? "")
            return moved
        }
        let log = DiagnosticLog(strict: diagnostics.isStrict)
        recordFeatures.removeAll(keepingCapacity: true)
        recordFeatureIndex = 0
        do throws(GeoConvError) {
            var inner = GeoJSONReader(
                try run.input(named: scanner.name),
                options: GeoJSONReadOptions(
                    skipsInvalidFeatures: options.skipsInvalidFeatures,
                    maximumDepth: options.maximumDepth),
                diagnostics: log)
            let header = try inner.readHeader()
            if header.crs != nil {
                throw GeoConvError(
                    .unsupported, "a FeatureCollection record of a text sequence has a \"crs\" of its own",
                    at: relocate(SourceLocation(line: 1, column: 1, byteOffset: 0)),
                    hint: "give the CRS with --s-srs, or reproject the records first")
            }
            if header.name != nil || header.description != nil || !header.foreignMembers.isEmpty {
                try log.warn(
                    GeoJSONCode.geojsonseqRecordMembersDropped,
                    "the members of a FeatureCollection record other than its features are not carried over (a text sequence has no document)",
                    at: SourceLocation(line: 1, column: 1, byteOffset: 0))
            }
            while let feature = try inner.next() { recordFeatures.append((feature, inner.lastLocation.map(relocate))) }
        } catch {
            diagnostics.absorb(log, relocating: relocate)
            throw error.relocated(relocate)
        }
        diagnostics.absorb(log, relocating: relocate)
    }

    /// Resynchronises after a member of `features` that failed to read at `failure`: goes
    /// back to its start and steps over it as plain JSON, then lists or skips it. When it is
    /// not even JSON, nothing after it can be trusted: its JSON error is thrown.
    func skipFeature(from start: JSONScanner.Mark, pointer: String, failure: GeoConvError) throws(GeoConvError) {
        scanner.rewind(to: start)
        do throws(GeoConvError) {
            try scanner.skipValue(depth: 1, pointer: pointer)
        } catch {
            // the same fault, better said
            if error.location?.byteOffset == failure.location?.byteOffset { throw failure }
            listWhenValidating(failure)
            throw error
        }
        try skip(failure)
    }

    /// A `crs` member after `features` (GeoServer writes it last), read before the features
    /// are: when the input's last 64 KiB hold `"crs"`, a second pass over the file steps over
    /// the root's members (the features unparsed) to read it. `nil` when there is none there,
    /// or the input cannot be read twice (standard input: the member is then refused where it
    /// stands, with the hint to give `--s-srs`).
    func crsAfterFeatures() throws(GeoConvError) -> String? {
        let reader = scanner.reader
        guard let tail = reader.tail(64 << 10), Self.holdsCRSName(tail), let reread = reader.rereading else {
            return nil
        }
        let second = JSONScanner(
            try reread(), maximumDepth: options.maximumDepth, maximumValueBytes: options.maximumFeatureBytes)
        guard try second.peekToken() == UInt8(ascii: "{") else { return nil }
        second.advance()
        if try second.peekToken() == UInt8(ascii: "}") { return nil }
        repeat {
            let location = second.location()
            let key = try second.parseKey(pointer: "")
            if key == "crs" {
                return try Self.legacyCRS(try second.parseValue(depth: 1, pointer: "/crs"), at: location)
            }
            try second.skipValue(depth: 1, pointer: "/" + JSONScanner.escapePointer(key))
        } while try second.nextElement(close: UInt8(ascii: "}"), pointer: "")
        return nil
    }

    /// Whether `bytes` hold `"crs"` anywhere.
    private static func holdsCRSName(_ bytes: [UInt8]) -> Bool {
        let name: [UInt8] = [0x22, 0x63, 0x72, 0x73, 0x22]  // "crs"
        guard bytes.count >= name.count else { return false }
        for start in 0...(bytes.count - name.count) where bytes[start] == name[0] {
            if bytes[start..<(start + name.count)].elementsEqual(name) { return true }
        }
        return false
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
                    throw GeoConvError(
                        .invalidInput,
                        "an object with a \"features\" array has type \(value), not \"FeatureCollection\"", at: location
                    )
                }
            case "crs":
                if options.sourceCRSIsGiven { break }  // --s-srs says what the coordinates are
                if let crs = try Self.legacyCRS(value, at: location), crs != crsReadAhead {
                    throw GeoConvError(
                        .unsupported, "the \"crs\" member comes after the features, which were already read",
                        at: location,
                        hint:
                            "read the file by its name (a second pass then reads it first), move \"crs\" before \"features\", or give --s-srs"
                    )
                }
            case "features":
                throw GeoConvError(.invalidInput, "a second \"features\" member", at: location)
            case "bbox":
                // Derived data (writers put it last once every feature is known), but the
                // user's: said, with the way to get one back.
                try checkBBox(value, at: location)
                var location = location
                location.pointer = "/bbox"
                try diagnostics.warn(
                    GeoJSONCode.membersAfterFeatures,
                    "the document member \"bbox\" comes after the features and is not carried over",
                    at: location, hint: "--write-bbox writes one computed from the features written")
            default:
                var location = location
                location.pointer = "/" + JSONScanner.escapePointer(key)  // (the value too: all of it is dropped)
                try diagnostics.warn(
                    GeoJSONCode.membersAfterFeatures,
                    "the document member \"\(key)\" comes after the features and is not carried over",
                    at: location, hint: "put document members before \"features\"")
            }
        }
        try checkTrailing()
    }

    func checkTrailing() throws(GeoConvError) {
        if try scanner.peekToken() != nil {
            throw scanner.error(
                "unexpected content after the GeoJSON object: \(try scanner.describeNext())",
                hint: "a GeoJSON file holds one object; for one object per line use --from geojsonseq")
        }
    }

    func error(_ message: String, at location: SourceLocation, hint: String? = nil) -> GeoConvError {
        GeoConvError(.invalidInput, message, at: location, hint: hint)
    }

    /// What validation collects while reading (`GeoJSONValidation.swift`).
    let problemBox = ProblemBox()
}
