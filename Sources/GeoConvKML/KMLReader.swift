internal import DequeModule
public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
internal import GeoConvXML

/// Options for reading KML.
public struct KMLReadOptions: Hashable, Sendable {
    /// Skip placemarks whose content is invalid (bad coordinates), counting them.
    public var skipsInvalidFeatures: Bool
    /// The deepest element nesting accepted.
    public var maximumDepth: Int
    /// Whether the reader finds runs of Placemarks as it reads (a splitter scans the bytes),
    /// to hand them out as `FeatureRun`s to whoever reads them on other threads (`--jobs`).
    /// The reader starts no thread: a run not handed out is read on its own thread. The
    /// features, their order and their warnings are the same either way.
    public var cutsRuns: Bool

    /// Creates options.
    public init(skipsInvalidFeatures: Bool = false, maximumDepth: Int = 256, cutsRuns: Bool = false) {
        self.skipsInvalidFeatures = skipsInvalidFeatures
        self.maximumDepth = maximumDepth
        self.cutsRuns = cutsRuns
    }
}

/// Reads KML 2.2 (and 2.1, prefixed or unprefixed) streaming, through libxml2's
/// `xmlTextReader` with every dangerous feature off (see `XMLPullParser`).
///
/// - The first Document's name, description and LookAt/Camera make the header.
/// - Placemarks, GroundOverlays and NetworkLinks become features, one at a time, with
///   their folder path (`geoconv:folder`), name, description, `Snippet`, `visibility`,
///   ExtendedData (`Data`, and `SchemaData` typed by its `Schema`), time stamps and spans.
/// - Geometry: Point, LineString, LinearRing (a LineString), Polygon with holes,
///   MultiGeometry (nested; homogeneous ones become Multi*), `gx:Track` / `gx:MultiTrack`
///   (times in `coordinateProperties.times`), altitudes, `altitudeMode`, `extrude`,
///   `tessellate` (= geodesic).
/// - Styles: inline, shared through `styleUrl` (`#id`), `StyleMap` (normal state; the
///   highlight style's URL kept), resolved as the placemark ends. A style defined after
///   the placemark that uses it is not known yet when streaming; that is reported.
/// - NetworkLinks are kept as data and never fetched; nothing is ever read from outside.
public struct KMLReader: FeatureReader {
    let state: KMLReaderState
    /// Where the last feature started.
    public var lastLocation: SourceLocation? { state.lastLocation }

    /// Creates a reader over an input.
    public init(
        _ input: ByteReader, options: KMLReadOptions = KMLReadOptions(), diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        let splitter = options.cutsRuns ? KMLSplitter(input) : nil
        let failure = ReadFailure()
        do {
            let parser = try XMLPullParser(maximumDepth: options.maximumDepth) { buffer in
                try failure.recording { () throws(GeoConvError) in
                    if let splitter { return try splitter.read(into: buffer) }
                    return try input.read(into: buffer)
                }
            }
            state = KMLReaderState(
                parser: parser, name: input.name, options: options, diagnostics: diagnostics, readFailure: failure)
            state.tables.forwardStyles = KMLForwardStyles(reread: input.rereading, maximumDepth: options.maximumDepth)
        } catch {
            throw GeoConvError(.io, error.message, underlyingError: error)
        }
        if let splitter {
            state.scheduler.runs = KMLRunReading(splitter: splitter)
            state.scheduler.runElement = splitter.markerName
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader { try state.readHeader() }

    public mutating func next() throws(GeoConvError) -> Feature? { try state.next() }
}

/// The reader's mutable state (a class, so the parser's position and the tables are shared by
/// the helper functions), in named parts:
/// - the element reader, here: the parser and its places in the input, the header, the
///   features being handed out and what it caches for the next Placemark; the elements of
///   the document's level are dispatched through `KMLDocumentElement`'s table;
/// - where it is among the Documents and Folders (`KMLFolders`);
/// - the document's tables (`KMLDocumentTables`): what a Placemark reads through — shared
///   styles, StyleMaps, schemas — and what a run read on a worker starts from;
/// - what the document's end reports (`KMLDocumentReports`): the styles and fields used, where
///   they were defined, the NetworkLinks met;
/// - the run scheduler (`KMLRunScheduling`, `--jobs`): runs cut and handed out, or read here.
final class KMLReaderState {
    let parser: XMLPullParser
    /// The input's own error when reading it failed inside the parser.
    let readFailure: ReadFailure
    let name: String
    let options: KMLReadOptions
    /// Where warnings go: the caller's log, or while cutting (`nextCut`) the piece's.
    @exclusivity(unchecked) var diagnostics: DiagnosticLog
    /// KML edges go the shorter way round, as Google Earth draws them.
    @exclusivity(unchecked) var header = DocumentHeader(edgesTakeShorterWay: true)
    @exclusivity(unchecked) var headerDone = false
    /// Features read and not yet returned (a run's), with where each starts.
    @exclusivity(unchecked) var pending = Deque<(feature: Feature, location: SourceLocation?)>()
    /// An error a run ended with, thrown once its features before it are returned.
    @exclusivity(unchecked) var pendingError: GeoConvError?
    /// How many properties the last placemark with more than a few had (`parseExtendedData`).
    @exclusivity(unchecked) var largeExtendedData = 0
    /// The feature table's answers for the names met lately (`parseFeature`).
    @exclusivity(unchecked) var featureElements = KMLFeatureElementMemo()
    /// Where the reader is among the Documents and Folders.
    @exclusivity(unchecked) var folders = KMLFolders()
    /// While an ExtendedData is read: the schema of its SchemaData, and the place of the next
    /// SimpleData in it (state here, not captured by the reading closure: no boxed variables
    /// checked for exclusive access on every SimpleData).
    @exclusivity(unchecked) var extendedSchema: [String: (type: String, displayName: String?)] = [:]
    @exclusivity(unchecked) var simpleDataPlace = 0
    @exclusivity(unchecked) var lastLocation: SourceLocation?
    @exclusivity(unchecked) var finished = false

    /// The document's tables.
    @exclusivity(unchecked) var tables = KMLDocumentTables()
    /// What the document's end reports.
    @exclusivity(unchecked) var reports = KMLDocumentReports()
    /// `--jobs`: the runs.
    @exclusivity(unchecked) var scheduler = KMLRunScheduling()
    /// A run's reader: the parser's places (in the document made of the run) moved to the input's.
    @exclusivity(unchecked) var relocation: KMLRunPlaces?

    init(
        parser: XMLPullParser, name: String, options: KMLReadOptions, diagnostics: DiagnosticLog,
        readFailure: ReadFailure = ReadFailure()
    ) {
        self.parser = parser
        self.readFailure = readFailure
        self.name = name
        self.options = options
        self.diagnostics = diagnostics
        parser.attributeWatch = XMLAttributeWatch(
            read: Self.attributesRead, ignored: ["xsi:schemaLocation", "xsi:noNamespaceSchemaLocation"]
        ) {
            [unowned self] element, attribute, value in
            if element == scheduler.runElement { return }  // a run's marker, made by the reader
            warn(
                KMLCode.attributeDropped, "the attribute \(attribute)=\"\(value)\" of <\(element)> is not carried over",
                at: location())
        }
    }

    /// The attributes the reader reads, by element: every other one is reported.
    static let attributesRead: [String: Set<String>] = {
        let position: Set<String> = ["x", "y", "xunits", "yunits"]
        return [
            "Placemark": ["id"], "GroundOverlay": ["id"], "NetworkLink": ["id"], "ScreenOverlay": ["id"],
            "Style": ["id"], "StyleMap": ["id"], "CascadingStyle": ["id"],
            "Schema": ["id", "name", "parent"], "SimpleField": ["name", "type"], "SimpleArrayField": ["name", "type"],
            "Data": ["name"], "SimpleData": ["name"], "SchemaData": ["schemaUrl"], "SimpleArrayData": ["name"],
            "hotSpot": position, "overlayXY": position, "screenXY": position, "rotationXY": position, "size": position,
        ]
    }()

    /// Where the current element starts: its own line (libxml2 keeps no column for a node;
    /// the parser's line and column are where its read-ahead has got to, often lines later).
    func location() -> SourceLocation {
        if let line = parser.nodeLine { return placed(line: line, column: parser.nodeColumn) }
        return placed(line: parser.line, column: parser.column)
    }

    /// A place the parser gave, in the input (a run's reader reads a document of its own).
    func placed(line: Int?, column: Int?) -> SourceLocation {
        guard let relocation, let line else { return SourceLocation(file: name, line: line, column: column) }
        let moved = relocation.move(line: line, column: column)
        return SourceLocation(file: name, line: moved.line, column: moved.column)
    }

    /// An XML error, at its place in the input.
    func inInput(_ error: XMLParseError) -> XMLParseError {
        guard let relocation else { return error }
        return error.moving { line, column in
            let moved = relocation.move(line: line, column: column > 0 ? column : nil)
            return (moved.line, moved.column ?? 0)
        }
    }

    func convert(_ error: XMLParseError) -> GeoConvError {
        if let failure = readFailure.error { return failure }
        let error = inInput(error)
        return .xmlRefusal(
            error.message, isLimit: error.isLimit, line: error.line, column: error.column, file: name, format: "KML",
            underlyingError: error)
    }

    func readHeader() throws(GeoConvError) -> DocumentHeader {
        while !headerDone {
            if let feature = try step() { pending.append((feature, lastLocation)) }
            if !pending.isEmpty || pendingError != nil { headerDone = true }
            if let strictFailure { throw strictFailure }
        }
        return header
    }

    func next() throws(GeoConvError) -> Feature? {
        if !headerDone { _ = try readHeader() }
        while true {
            if let (feature, location) = pending.popFirst() {
                lastLocation = location
                return feature
            }
            if let error = pendingError {
                pendingError = nil
                finished = true
                throw error
            }
            if finished {
                if scheduler.unusedStylesDue {
                    // After the runs cut from the document: every run has been read.
                    scheduler.unusedStylesDue = false
                    reports.usedStyles.formUnion(scheduler.cutStyleUses.all)
                    reports.usedFields.formUnion(scheduler.cutStyleUses.fields)
                    reportUnusedStyles()
                    if let strictFailure { throw strictFailure }
                }
                return nil
            }
            let feature = try step()
            if let strictFailure { throw strictFailure }
            if let feature { return feature }
        }
    }

    /// At a run's marker (main reader): its features, read here when the run is not handed
    /// out, become pending, its warnings this reader's. A run's own wrapper element (a run's
    /// reader) is nothing.
    func readRun() {
        guard let runs = scheduler.runs, let index = parser.attribute("n").flatMap({ Int($0) }) else { return }
        if scheduler.cut != nil { return cutRun(index, from: runs) }
        guard var outcome = runs.outcome(index, snapshot: snapshot, name: name, options: options, like: diagnostics)
        else { return }
        reports.usedStyles.formUnion(outcome.usedStyles)
        reports.usedFields.formUnion(outcome.usedFields)
        reports.featuresMet += outcome.run.placemarks
        folders.count(outcome.run.placemarks)
        diagnostics.absorb(outcome.log)
        if pending.isEmpty {
            // (Taken over, not copied: its features are moved out one by one.)
            swap(&pending, &outcome.features)
        } else {
            pending.append(contentsOf: outcome.features)
        }
        if let error = outcome.error { pendingError = error }
    }

    /// The first warning that `--strict` turned into an error, raised once the current
    /// event is processed (warnings come from inside XML parsing, whose errors are
    /// `XMLParseError`s).
    @exclusivity(unchecked) var strictFailure: GeoConvError?

    /// Records a warning; under `--strict`, keeps it to be thrown by `next()`.
    func warn(_ code: KMLCode, _ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        record { () throws(GeoConvError) in try diagnostics.warn(code, message, at: location, hint: hint) }
    }

    /// Runs a report to the diagnostics; under `--strict`, keeps its error for `next()`.
    func record(_ report: () throws(GeoConvError) -> Void) {
        do throws(GeoConvError) {
            try report()
        } catch {
            if strictFailure == nil { strictFailure = error }
        }
    }

    /// Processes one event at container level; returns a feature when one is complete.
    func step() throws(GeoConvError) -> Feature? {
        do throws(XMLParseError) {
            guard let event = try parser.next() else {
                // (Runs handed to other workers (`nextCut`) are read after this: their uses
                // are known, and reported, at the first `next()` after the runs.)
                if !finished {
                    if scheduler.cut == nil { reportUnusedStyles() } else { scheduler.unusedStylesDue = true }
                }
                if !finished, !reports.remoteLinks.isEmpty, reports.remoteLinks.count == reports.featuresMet {
                    for link in reports.remoteLinks {
                        warn(
                            KMLCode.networkLinkNotFetched,
                            "the document holds nothing but NetworkLinks: its content is at \(link.href), which geoconv never fetches; only the link is converted",
                            at: link.location, hint: "download the linked file and convert it")
                    }
                }
                finished = true
                headerDone = true
                return nil
            }
            switch event {
            case .text: return nil
            case .end(let element):
                if element == "Document" || element == "Folder",
                    let container = folders.end(featuresMet: reports.featuresMet)
                {
                    if container.isFolder && container.features == 0 {
                        warn(
                            KMLCode.emptyFolderDropped,
                            "an empty Folder\(container.name.map { " (\"\($0)\")" } ?? "") is not carried over: folders are rebuilt from the features in them",
                            at: location())
                    }
                }
                return nil
            case .start(let element, let isEmpty):
                if let runElement = scheduler.runElement, element == runElement {
                    readRun()
                    return nil
                }
                return try start(element, isEmpty: isEmpty)
            }
        } catch {
            throw convert(error)
        }
    }
}
