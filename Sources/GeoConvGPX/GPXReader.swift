public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
internal import GeoConvXML

/// Options for reading GPX.
public struct GPXReadOptions: Hashable, Sendable {
    /// Skip waypoints, routes and tracks whose content is invalid (a bad `lat`), counting them.
    public var skipsInvalidFeatures: Bool
    /// The deepest element nesting accepted.
    public var maximumDepth: Int

    /// Creates options.
    public init(skipsInvalidFeatures: Bool = false, maximumDepth: Int = 256) {
        self.skipsInvalidFeatures = skipsInvalidFeatures
        self.maximumDepth = maximumDepth
    }
}

/// Reads GPX 1.0 and 1.1 streaming, through `GeoConvXML` (no entities, no DTDs, no network).
///
/// - `metadata` (1.1) or the 1.0 header elements make the header: `name`, `desc`, and the
///   rest (author, copyright, links, time, keywords, bounds, extensions) as the
///   `gpx:metadata` member.
/// - `wpt` → Point (`ele` as altitude); `rte` → LineString of its `rtept`; `trk` →
///   MultiLineString, one line per `trkseg`. Times of route and track points go to
///   `coordinateProperties.times` (one array per segment for tracks), as `gx:Track`'s do.
/// - `name` → title, `desc` → snippet, `sym` → marker symbol, `time` of a waypoint →
///   `timestamp`; `cmt`, `src`, `type`, `number` and the accuracy fields by their names;
///   `link`s (and 1.0's `url`/`urlname`) → `links`.
/// - `extensions`: children in GDAL's `ogr` namespace become properties (as GDAL writes
///   fields); the rest is kept as data in `extensions` (see `GPXExtensions`).
public struct GPXReader: FeatureReader {
    private let state: GPXReaderState
    /// Where the last feature started.
    public var lastLocation: SourceLocation? { state.lastLocation }

    /// Creates a reader over an input.
    public init(
        _ input: ByteReader, options: GPXReadOptions = GPXReadOptions(), diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        do {
            let failure = ReadFailure()
            let parser = try XMLPullParser(maximumDepth: options.maximumDepth) { buffer in
                try failure.recording { () throws(GeoConvError) in try input.read(into: buffer) }
            }
            state = GPXReaderState(
                parser: parser, name: input.name, options: options, diagnostics: diagnostics, readFailure: failure)
        } catch {
            throw GeoConvError(.io, error.message, underlyingError: error)
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader { try state.readHeader() }

    public mutating func next() throws(GeoConvError) -> Feature? { try state.next() }
}

/// The reader's state: the parser, the header, and a feature read while looking for the
/// header's end.
final class GPXReaderState {
    let parser: XMLPullParser
    /// The input's own error when reading it failed inside the parser.
    let readFailure: ReadFailure
    let name: String
    let options: GPXReadOptions
    let diagnostics: DiagnosticLog
    var header = DocumentHeader()
    var metadata: JSONObject = [:]
    var headerDone = false
    var pending: (feature: Feature, location: SourceLocation)?
    var lastLocation: SourceLocation?
    var finished = false

    init(
        parser: XMLPullParser, name: String, options: GPXReadOptions, diagnostics: DiagnosticLog,
        readFailure: ReadFailure
    ) {
        self.parser = parser
        self.readFailure = readFailure
        self.name = name
        self.options = options
        self.diagnostics = diagnostics
    }

    /// Where the current element starts: its line (libxml2 keeps no column for a node, and
    /// the parser's own column is where its read-ahead has got to).
    func location() -> SourceLocation {
        SourceLocation(file: name, line: parser.nodeLine ?? parser.line, column: parser.nodeColumn)
    }

    /// Any error of reading as the `GeoConvError` it means.
    func typed(_ error: any Error) -> GeoConvError {
        if let error = error as? XMLParseError { return convert(error) }
        if let error = error as? GeoConvError { return error }
        return GeoConvError(.io, "\(error)")
    }

    func convert(_ error: XMLParseError) -> GeoConvError {
        if let failure = readFailure.error { return failure }
        return .xmlRefusal(
            error.message, isLimit: error.isLimit, line: error.line, column: error.column, file: name, format: "GPX",
            underlyingError: error)
    }

    func readHeader() throws(GeoConvError) -> DocumentHeader {
        guard !headerDone else { return header }
        do {
            try findRoot()
            // Header elements until the first waypoint, route or track.
            while pending == nil, !finished, let event = try parser.next() {
                switch event {
                case .start(let element, let isEmpty):
                    if let feature = try feature(element, isEmpty: isEmpty) {
                        pending = feature
                    } else {
                        try headerElement(element, isEmpty: isEmpty)
                    }
                case .end: finished = true
                case .text: continue
                }
            }
        } catch {
            throw typed(error)
        }
        if !metadata.isEmpty { header.foreignMembers[GPXNames.metadataMember] = .object(metadata) }
        headerDone = true
        return header
    }

    func next() throws(GeoConvError) -> Feature? {
        if !headerDone { _ = try readHeader() }
        if let (feature, location) = pending {
            pending = nil
            lastLocation = location
            return feature
        }
        do {
            while !finished, let event = try parser.next() {
                switch event {
                case .start(let element, let isEmpty):
                    if let (feature, location) = try feature(element, isEmpty: isEmpty) {
                        lastLocation = location
                        return feature
                    }
                    if !isEmpty || !parser.attributes.isEmpty {
                        // Document extensions come after the tracks, when the header is written.
                        // (An empty element with attributes holds values too: <topografix:active_point lat lon/>.)
                        let at = location()
                        if !isEmpty { try parser.skipElement() }
                        try diagnostics.warn(
                            GPXCode.lateDocumentElement,
                            "the document's <\(element)> after its waypoints, routes and tracks is not kept",
                            at: at)
                    }
                case .end: finished = true
                case .text: continue
                }
            }
            return nil
        } catch {
            throw typed(error)
        }
    }

    /// Reads to the root element and checks it is `<gpx>`.
    private func findRoot() throws {
        while let event = try parser.next() {
            guard case .start(let element, let isEmpty) = event else { continue }
            guard element == "gpx" else {
                throw GeoConvError(
                    .invalidInput, "the root element is <\(element)>, not <gpx>", at: location(),
                    hint: "give a GPX 1.0 or 1.1 document, or name the format with --from")
            }
            if let version = parser.attribute("version"), version != "1.1", version != "1.0" {
                try diagnostics.warn(GPXCode.unknownVersion, "GPX version \(version) is read as 1.1", at: location())
            }
            finished = isEmpty
            return
        }
        throw GeoConvError(
            .invalidInput, "the document has no root element", at: location(), hint: "give a GPX document")
    }

    /// A waypoint, route or track starting here, read whole; `nil` for any other element.
    /// With `skipsInvalidFeatures`, one with an invalid value is counted and the next returned.
    private func feature(_ element: String, isEmpty: Bool) throws -> (Feature, SourceLocation)? {
        let kind: GPXFeatureKind
        switch element {
        case "wpt": kind = .waypoint
        case "rte": kind = .route
        case "trk": kind = .track
        default: return nil
        }
        let at = location()
        let (feature, failure) = try readFeature(kind, isEmpty: isEmpty, at: at)
        guard let failure else { return (feature, at) }
        guard options.skipsInvalidFeatures else { throw failure }
        try diagnostics.skip(
            GPXCode.invalidFeatureSkipped, "skipped an invalid \(element): \(failure.message)", at: failure.location)
        // The element was read to its end: the next feature, if any.
        while let event = try parser.next() {
            switch event {
            case .start(let element, let isEmpty):
                if let found = try self.feature(element, isEmpty: isEmpty) { return found }
                if !isEmpty { try parser.skipElement() }
            case .end:
                finished = true
                return nil
            case .text: continue
            }
        }
        return nil
    }

    /// The 1.1 `metadata` element or a 1.0 header element.
    private func headerElement(_ element: String, isEmpty: Bool) throws {
        guard element == "metadata" else {
            // GPX 1.0: name, desc, author, email, url, urlname, time, keywords, bounds; 1.1's
            // document extensions when there is no feature.
            try metadataElement(element, isEmpty: isEmpty)
            return
        }
        guard !isEmpty else { return }
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty): try metadataElement(child, isEmpty: isEmpty)
            case .end: return
            case .text: continue
            }
        }
    }

    private func metadataElement(_ element: String, isEmpty: Bool) throws {
        if element == "bounds" {
            var bounds: JSONObject = [:]
            for key in ["minlat", "minlon", "maxlat", "maxlon"] {
                if let text = parser.attribute(key), let number = GPXFields.number(text) { bounds[key] = number }
            }
            metadata["bounds"] = .object(bounds)
            if !isEmpty { try parser.skipElement() }
            return
        }
        if element == "link" {
            GPXFields.append(link: try GPXFields.readLink(parser, isEmpty: isEmpty), to: &metadata)
            return
        }
        if element == "copyright" {
            metadata[element] = try GPXExtensions.read(
                parser, isEmpty: isEmpty, attributes: parser.attributes, namespace: GPXNames.namespace)
            return
        }
        guard !isEmpty else { return }
        switch element {
        case "name": header.name = try parser.readElementText()
        case "desc": header.description = try parser.readElementText()
        case "extensions":
            metadata[element] = try GPXExtensions.read(
                parser, isEmpty: false, attributes: [], namespace: GPXNames.namespace)
        case "author":
            // GPX 1.0's author is a name; 1.1's a person (name, email, link).
            let author = try GPXExtensions.read(parser, isEmpty: false, attributes: [], namespace: GPXNames.namespace)
            var person = metadata["author"]?.objectValue ?? [:]
            if let name = author.stringValue {
                person["name"] = .string(name)
            } else {
                person.merge(author.objectValue ?? [:]) { $1 }
            }
            metadata["author"] = .object(person)
        case "email":
            // GPX 1.0's email, "id@domain": 1.1's author email.
            let text = try parser.readElementText().trimmed
            var person = metadata["author"]?.objectValue ?? [:]
            if let at = text.lastIndex(of: "@") {
                person["email"] = .object([
                    "@id": .string(String(text[..<at])), "@domain": .string(String(text[text.index(after: at)...])),
                ])
                metadata["author"] = .object(person)
            } else {
                metadata["email"] = .string(text)
            }
        case "url": GPXFields.append(link: ["href": .string(try parser.readElementText())], to: &metadata)
        case "urlname": GPXFields.nameLastLink(try parser.readElementText(), in: &metadata)
        default: metadata[element] = .string(try parser.readElementText())  // time, keywords
        }
    }
}

/// Names shared by the reader and the writer.
enum GPXNames {
    /// The GPX 1.1 namespace.
    static let namespace = "http://www.topografix.com/GPX/1/1"
    /// The GPX 1.0 namespace, whose documents may hold other namespaces' elements anywhere.
    static let namespace10 = "http://www.topografix.com/GPX/1/0"
    /// GDAL's namespace for fields written as extensions (`<ogr:name>`).
    static let ogrNamespace = "http://osgeo.org/gdal"
    /// The header member holding `metadata` beyond name and description.
    static let metadataMember = "gpx:metadata"
}

enum GPXFeatureKind {
    case waypoint, route, track
}
