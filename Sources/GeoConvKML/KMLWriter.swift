public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
internal import GeoConvXML
import OrderedCollections

/// Options for writing KML.
public struct KMLWriteOptions: Hashable, Sendable {
    /// Decimals for coordinates; `nil` for the shortest form that reads back exactly.
    public var precision: Int?
    /// Whether top-level folders are written as `<Document>`s, each with a copy of the
    /// schema (the KMZ writer's choice). GDAL's LIBKML driver (QGIS) takes a KMZ's
    /// top-level containers as layers and finds their fields only in a `<Schema>` of the
    /// layer itself, which only a Document may hold; in a `.kml` it finds the document's.
    /// Google Earth shows a Document like a Folder, and geoconv reads either as a folder.
    public var topFoldersAsDocuments: Bool

    /// Creates options.
    public init(precision: Int? = nil, topFoldersAsDocuments: Bool = false) {
        self.precision = precision
        self.topFoldersAsDocuments = topFoldersAsDocuments
    }
}

/// Writes KML 2.2 (`http://www.opengis.net/kml/2.2`; the `gx:` namespace is declared only
/// when a `gx:Track` is written).
///
/// - Identical styles are written once as shared `<Style id>`s referenced by `styleUrl`
///   (ids reuse the source's `styleUrl` name when it is free).
/// - Properties go to `ExtendedData` as `SchemaData` typed by one `<Schema>` (int, double,
///   bool, string), so numbers and booleans come back as numbers and booleans.
/// - Folders are rebuilt from `geoconv:folder`; names and text are escaped, HTML
///   descriptions written as CDATA.
/// - Shared styles and the schema belong before the placemarks: into a file, the document's
///   start is written once the first megabyte of placemarks has shown it, padded with white
///   space to 32 KB, and placemarks then go straight to the file (what later features add to
///   the start is written over the white space at the end; a start that outgrows it has the
///   file rewritten); elsewhere placemarks are held in a spool (memory, then an unlinked
///   temporary file) until the end. Memory stays bounded either way.
/// - With `--jobs`, most placemarks are written on the workers (`KMLRecordsWriter`); this
///   writer gives their shared styles ids, learns their field types and reports what they
///   lose, in order, so the bytes and messages are one thread's.
public struct KMLWriter: LossKeyedWriter {
    let state: KMLWriterState

    /// Creates a writer.
    public init(_ output: ByteWriter, options: KMLWriteOptions = KMLWriteOptions(), diagnostics: DiagnosticLog) {
        state = KMLWriterState(output: output, options: options, diagnostics: diagnostics)
    }

    /// Into nowhere, the key of what a placemark loses (`KMLWriterState.lossKey(of:shape:)`).
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        state.lossKey(of: feature, shape: shape)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        if let crs = header.crs {
            throw GeoConvError(
                .unsupported, "KML is always WGS84 longitude/latitude; the input is in \(crs)",
                hint: "reproject the input first")
        }
        state.header = header
        if let longitude = header.camera?.target.longitude { _ = try state.viewLongitude(longitude) }
        // A document view with a gx:TimeSpan/TimeStamp (written in the start) needs the gx namespace.
        if let view = header.foreignMembers[model: .view], view["timespan"] != nil || view["timestamp"] != nil {
            state.usesGX = true
        }
        try header.reportEmbeddedFilesDropped(by: "KML (one file)", diagnostics: state.diagnostics)
        // (The document view's elements as read are its LookAt/Camera: `documentStart`.)
        state.header = try header.droppingParts(unheldBy: .kml, diagnostics: state.diagnostics)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) { try state.write(feature) }

    public mutating func finish() throws(GeoConvError) { try state.finish() }
}

final class KMLWriterState {
    let output: ByteWriter
    let options: KMLWriteOptions
    let diagnostics: DiagnosticLog
    /// Whether the bytes go nowhere (`geoconv info` learning what would be lost): coordinates
    /// and data values, which report nothing, are then not formatted.
    let discards: Bool
    @exclusivity(unchecked) var header = DocumentHeader()
    let body: Spool
    // What the document's start says (`documentStart()`): each change is counted.
    /// Shared styles, id → style XML, in order of first use.
    @exclusivity(unchecked) var styles: OrderedDictionary<String, String> = [:] { didSet { startChanges &+= 1 } }
    /// The schema fields `kml.mixed-types` was reported for.
    @exclusivity(unchecked) var mixedTypeFields: Set<Int> = []
    /// Whether the features of a shape have a property the writer asks for by name (`lossKey`).
    @exclusivity(unchecked) var shapesAsking: [Int32: Bool] = [:]
    /// Style XML → the first id it was written under: the id `sharedStyle(_:)` gives that XML,
    /// whether a source named it (`sharedStyle(_:preferred:)`) or geoconv did.
    @exclusivity(unchecked) var styleIDs: [String: String] = [:]
    // field → type
    @exclusivity(unchecked) var schema: OrderedDictionary<String, SchemaType> = [:] { didSet { startChanges &+= 1 } }
    // field → displayName
    @exclusivity(unchecked) var displayNames: [String: String] = [:] { didSet { startChanges &+= 1 } }
    /// The track arrays' fields (`gx:SimpleArrayField`), in the order met.
    @exclusivity(unchecked) var arrayFields: OrderedDictionary<String, SchemaType> = [:] {
        didSet { startChanges &+= 1 }
    }
    /// StyleMaps, id → "normal id|highlight id", in order of first use.
    @exclusivity(unchecked) var styleMaps: OrderedDictionary<String, String> = [:] { didSet { startChanges &+= 1 } }
    /// "normal id|highlight id" → the first StyleMap id it was written under, for maps no source named.
    @exclusivity(unchecked) var styleMapIDs: [String: String] = [:]
    @exclusivity(unchecked) var usesGX = false { didSet { if usesGX != oldValue { startChanges &+= 1 } } }
    @exclusivity(unchecked) var startChanges = 0
    @exclusivity(unchecked) var usedIDs: Set<String> = []
    /// Each style's `<Style>` text, made once (a file styled by rules has a few styles over
    /// a million placemarks); emptied when it grows past `KMLStyle.remembered`.
    @exclusivity(unchecked) var styleTexts: [KMLStyle: String] = [:]
    /// The last model style written by itself (`writeStyle`: a feature with no property the
    /// writer asks for), as an overlay's or not, and the `<Style>` text it made (`nil`: none).
    @exclusivity(unchecked) var lastStyle: (style: Style, isOverlay: Bool, xml: String?)?
    /// `lastStyle`'s box identity, whether it was an overlay's, and its text: a feature whose
    /// style is a copy of it is told without counting references.
    @exclusivity(unchecked) var lastStyleIdentity: (box: ObjectIdentifier, isOverlay: Bool, xml: String?)?
    /// The style box `styleOnlyInElements` asked of last, the style (kept, so that the
    /// identity stays its own), whether its fields are all written as elements and whether
    /// it is empty.
    @exclusivity(unchecked) var elementsOnlyIdentity: ObjectIdentifier?
    @exclusivity(unchecked) var elementsOnlyStyle = Style()
    @exclusivity(unchecked) var elementsOnlyAnswer = true
    @exclusivity(unchecked) var elementsOnlyEmpty = true
    /// The last shared style a placemark referred to, and its `<styleUrl>` (`styleURL(_:)`).
    @exclusivity(unchecked) var lastReference: (xml: String, bytes: [UInt8])?
    /// The last shared style's text asked for and its id (`sharedStyle(_:)`).
    @exclusivity(unchecked) var lastSharedStyle: (xml: String, id: String)?
    @exclusivity(unchecked) var folders: [String] = []
    @exclusivity(unchecked) var buffer: [UInt8] = []
    /// The document's start (everything before the placemarks), written early into a file
    /// output once the first features have shown what it holds, padded with white space to
    /// `length` bytes (`startRegion`, or the start's own length when it is longer). The
    /// placemarks then go straight to the file, not through `body`, while the start as the
    /// features have made it (a style, a field, a wider type added) fits in `length`:
    /// `finish()` writes it there, over the white space. A start that outgrows it sends the
    /// next placemarks to `body`, and `finish()` rewrites the start and the placemarks written
    /// straight after it. (A fixed length, not the early start's plus some room: the early
    /// start is written at a feature `--jobs` moves, the end of a run; the bytes do not.)
    @exclusivity(unchecked) var writtenStart: (bytes: [UInt8], length: Int)?
    /// `startChanges` when the start was last known to fit in `writtenStart.length`.
    @exclusivity(unchecked) var fittingChanges = 0
    /// Whether placemarks go straight to the output.
    @exclusivity(unchecked) var writesStraight = false
    /// How much of the body is held before the start is written early.
    static let earlyStartThreshold = 1 << 20
    /// The bytes a start written early takes in the file, white space after it: room for the
    /// styles, StyleMaps and fields met later (two hundred styles or so: a file styled by
    /// rules or classes meets its styles as its values change, long after the first megabyte).
    static let startRegion = 32 << 10
    /// The document's `LookAt`/`Camera` as `documentStart` writes it, made once (what it
    /// reports is said once, and the `gx` namespace it may need is known before the root is
    /// written); `nil` until then, `.some(nil)` for none.
    @exclusivity(unchecked) var documentView: [UInt8]??
    /// `writeExtendedData`'s Data list, kept between features for its storage.
    @exclusivity(unchecked) var scratchData: [(String, String)] = []
    /// For the property at each place of a feature: its name, the type last noted and its
    /// field's index in `schema`. Most features repeat their predecessor's names, so a
    /// repeated type needs nothing and a changed one no lookup by name.
    /// (`nil` at a place no property was noted at yet: a style key's, a null's.)
    @exclusivity(unchecked) var notedTypes: [(key: String, type: SchemaType, field: Int)?] = []
    /// Each schema field's `<SimpleData name="…">` start tag (the field's range of `bytes`),
    /// made the first time the field is written.
    @exclusivity(unchecked) var simpleDataStarts: (bytes: [UInt8], ranges: [Range<Int>]) = ([], [])
    /// Whether the feature being written has a property in `askedNames`.
    @exclusivity(unchecked) var hasAskedProperties = true
    /// In a records writer's state (`KMLRecordsWriter`): the schema changes its placemarks
    /// made and what it would report about them, in order, for the document's writer to
    /// learn and report in their place; `nil` in the document's writer.
    @exclusivity(unchecked) var events: [RecordEvent]?
    /// In a records writer's state: the placemark being written, counted in its run.
    @exclusivity(unchecked) var recordIndex = 0
    /// In a records writer's state: where its placemarks' `styleUrl`s belong (in `buffer`
    /// while a placemark is written, then in the run's bytes) and the style each names, for
    /// the document's writer to give the shared style its id, in order.
    @exclusivity(unchecked) var styleReferences: [StyleReference]?
    /// What the document's writer shares with its records writers on other threads (the
    /// `<styleUrl>`s it has given, the buffers of runs it has written); `nil` until a
    /// records writer is made.
    @exclusivity(unchecked) var recordsShare: KMLRecordsShare?
    /// In a records writer's state: the `<styleUrl>`s it found in `recordsShare`, by style XML.
    @exclusivity(unchecked) var knownStyleURLs: [String: [UInt8]] = [:]

    static let schemaID = "geoconv-schema"

    /// Properties KML writes in its own elements (or that only describe KML structure).
    static let structural = NameSet([
        ModelKey.folder.name, "styleUrl", "Snippet", "visibility", "address", "phoneNumber",
        "timestamp", "timespan", KMLNames.geometryType, ModelKey.latLonBox.name, ModelKey.latLonQuad.name,
        "icon-offset", "icon-offset-units", "label-color", "label-opacity", "label-scale",
        ModelKey.balloonText.name, ModelKey.altitudeMode.name, ModelKey.extrude.name, ModelKey.radius.name,
        ModelKey.circleCenter.name, ModelKey.geodesic.name, ModelKey.groundAnchor.name, ModelKey.view.name,
        ModelKey.region.name, ModelKey.highlightStyle.name, ModelKey.displayNames.name,
    ])

    /// Whether a structural property's value is one KML's own element does not take, so that
    /// it stays data under its key: a `visibility` that is not a boolean (`"0"`), an
    /// `@geometry-type` the feature is not written as (a `groundoverlay` with a polygon and no
    /// box is a Placemark).
    static func isUnusedStructural(_ key: String, _ value: JSONValue, element: FeatureElement) -> Bool {
        switch key {
        case "visibility": value.boolValue == nil
        case KMLNames.geometryType: element == .placemark
        default: false
        }
    }

    /// The structural properties a geometry element holds.
    static let geometryFacts: Set<String> = [ModelKey.altitudeMode.name, ModelKey.extrude.name]

    /// What GroundOverlays and NetworkLinks write as their own elements, in schema order.
    static let overlayElements = ["color", "drawOrder"]
    static let groundOverlayElements = ["altitude", "altitudeMode"]
    static let linkElements = [
        "href", "refreshMode", "refreshInterval", "viewRefreshMode", "viewRefreshTime", "viewBoundScale",
        "viewFormat", "httpQuery",
    ]
    static let networkLinkElements = ["refreshVisibility", "flyToView"]
    /// The properties a GroundOverlay or NetworkLink writes as its own elements, not as data.
    static let groundOverlayOwn = NameSet(overlayElements + groundOverlayElements + ["icon"])
    static let networkLinkOwn = NameSet(networkLinkElements + linkElements)
    static let screenOverlayOwn = NameSet(overlayElements + KMLNames.screenPlaces + ["icon", "rotation"])
    static let noOwnElements = NameSet([String]())
    /// Every property the writer looks up by name. Most features of a large file have none of
    /// them, which one pass over their keys shows: then no lookup is made
    /// (`hasAskedProperties`, `property(_:of:)`).
    static let askedNames = NameSet(
        structural.all.union(groundOverlayOwn.all).union(networkLinkOwn.all).union(screenOverlayOwn.all)
            .union(["coordinateProperties"]))
    static let altitudeModes: Set<String> = [
        "clampToGround", "relativeToGround", "absolute", "relativeToSeaFloor", "clampToSeaFloor",
    ]
    static let regionBox = ["north", "south", "east", "west", "minAltitude", "maxAltitude", "altitudeMode"]
    static let regionLod = ["minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent"]
    static let viewElements = ["longitude", "latitude", "altitude", "heading", "tilt", "roll", "range", "altitudeMode"]

    init(output: ByteWriter, options: KMLWriteOptions, diagnostics: DiagnosticLog) {
        self.output = output
        body = Spool(discards: output.discards)
        discards = output.discards
        self.options = options
        self.diagnostics = diagnostics
    }

    /// Appends a literal's bytes to the placemark being written (nothing when the bytes go
    /// nowhere: `geoconv info` only wants what would be reported). Unlabelled, so that a
    /// plain literal takes this path, with no String on the way.
    @inline(__always)
    func append(_ literal: StaticString) { if !discards { KMLWriterState.append(literal, to: &buffer) } }

    /// Appends made text (an interpolation, a name) as `append(_:)`.
    func append(text: String) { if !discards { buffer.append(contentsOf: text.utf8) } }

    /// Appends a literal's bytes to `bytes`.
    @inline(__always)
    static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(literal: text)
    }

    /// The property `name` (one of `askedNames`) of the feature being written.
    @inline(__always)
    func property(_ name: String, of feature: Feature) -> JSONValue? {
        hasAskedProperties ? feature.properties[name] : nil
    }

    /// The model key `key` (one of `askedNames`) of the feature being written, as its kind.
    @inline(__always)
    func property<V>(_ key: ModelKey<V>, of feature: Feature) -> V? {
        hasAskedProperties ? feature[model: key] : nil
    }

    /// Reports text that XML 1.0 cannot hold (control characters other than tab and line
    /// breaks), which the escaping drops.
    func checkText(_ text: String) throws(GeoConvError) {
        if XMLEscaping.hasForbiddenCharacters(text) { try warnTextDropped() }
    }

    /// Reports a loss in the placemark being written: to the log, or, in a records writer's
    /// state, as an event the document's writer reports in its place (`events`).
    func warn(_ code: KMLCode, _ message: @autoclosure () -> String, hint: String? = nil) throws(GeoConvError) {
        if events != nil {
            events?.append(.warning(record: recordIndex, code: code, message: message(), hint: hint))
        } else {
            try diagnostics.warn(code, message(), hint: hint)
        }
    }

    /// Notes a change that loses nothing in the placemark being written (as `warn`).
    func note(_ code: KMLCode, _ message: @autoclosure () -> String) {
        if events != nil {
            events?.append(.note(record: recordIndex, code: code, message: message()))
        } else {
            diagnostics.note(code, message())
        }
    }

    /// Reports one text whose characters XML 1.0 cannot hold were dropped.
    func warnTextDropped() throws(GeoConvError) {
        try warn(
            KMLCode.controlCharactersDropped,
            "control characters (such as U+0000) cannot appear in XML 1.0 and are dropped from KML text")
    }

    func write(_ feature: Feature) throws(GeoConvError) {
        buffer.removeAll(keepingCapacity: true)
        try buildPlacemark(feature, hasAskedProperties: KMLWriterState.asksForProperties(feature))
        try emit(buffer)
    }

    /// Whether `feature` has a property the writer asks for by name (most have none).
    static func asksForProperties(_ feature: Feature) -> Bool {
        feature.properties.keys.contains { askedNames.contains($0) }
    }

    /// Appends `feature`'s element (and the folder changes before it) to `buffer`, noting
    /// what the document's start must hold for it.
    func buildPlacemark(_ feature: Feature, hasAskedProperties: Bool) throws(GeoConvError) {
        try feature.requireFinite(writing: "KML", at: diagnostics.currentLocation)
        self.hasAskedProperties = hasAskedProperties
        if !hasAskedProperties, !feature.hasStringID, folders.isEmpty, feature.title == nil, feature.snippet == nil {
            // Most features of a large file: a Placemark with nothing but data, a geometry and
            // perhaps a style (rules and classes style thousands so): what the general path
            // below writes for them, without its lookups.
            let extendedID: JSONValue? = if case .number(let n)? = feature.id { .number(n) } else { nil }
            append("<Placemark>")
            if !feature.style.isEmpty { try writeStyle(feature, isOverlay: false) }
            try writeExtendedData(feature, id: extendedID, element: .placemark)
            if let geometry = feature.geometry { try writeGeometry(geometry, feature: feature) }
            append("</Placemark>\n")
            return
        }
        try moveToFolder(property(.folder, of: feature)?.compactMap(\.stringValue) ?? [])
        let kind = property(KMLNames.geometryType, of: feature)?.stringValue
        let box = property(.latLonBox, of: feature)
        let quad = property(.latLonQuad, of: feature)?.compactMap { corner -> (Double, Double)? in
            guard let pair = corner.arrayValue, pair.count == 2, let lon = pair[0].doubleValue,
                let lat = pair[1].doubleValue,
                lon.isFinite, lat.isFinite
            else { return nil }
            return (lon, lat)
        }
        let hasQuad = quad?.count == 4
        // (A GroundOverlay without a box is one still: its LatLonBox is optional.)
        let element: FeatureElement =
            kind == "groundoverlay" && (box != nil || hasQuad || feature.geometry == nil)
            ? .groundOverlay
            : (kind == "networklink"
                ? .networkLink : (kind == "screenoverlay" && feature.geometry == nil ? .screenOverlay : .placemark))
        append(element.openTag)
        var extendedID: JSONValue?
        switch feature.id {
        case .string(let s)? where KMLWriterState.isNCName(s) && !usedIDs.contains(s):
            usedIDs.insert(s)
            append(" id=\"")
            XMLEscaping.appendAttribute(s, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        case .string(let s)?:
            if KMLWriterState.isNCName(s) {
                try warn(
                    KMLCode.duplicateID,
                    "the id \"\(s)\" is used more than once; KML ids are unique, so the repeat is kept in ExtendedData (\(ModelKey.id.name))"
                )
            }
            extendedID = .string(s)
        case .number(let n)?: extendedID = .number(n)
        case nil: break
        }
        buffer.append(UInt8(ascii: ">"))
        if let title = feature.title {
            try checkText(title)
            append("<name>")
            XMLEscaping.appendText(title, to: &buffer)
            append("</name>")
        }
        if let description = feature.snippet { try checkText(description) }
        if let visibility = property("visibility", of: feature)?.boolValue {
            append(text: "<visibility>\(visibility ? 1 : 0)</visibility>")
        }
        for key in ["address", "phoneNumber"] {
            if let text = property(key, of: feature)?.stringValue {
                append(text: "<\(key)>\(XMLEscaping.text(text))</\(key)>")
            }
        }
        if let snippet = property("Snippet", of: feature)?.stringValue {
            append(text: "<Snippet>\(XMLEscaping.text(snippet))</Snippet>")
        }
        if let description = feature.snippet {
            append(text: "<description>\(XMLEscaping.cdataOrText(description))</description>")
        }
        if let view = property(.view, of: feature) { try writeView(view) }
        if let when = property("timestamp", of: feature)?.stringValue {
            append(text: "<TimeStamp><when>\(XMLEscaping.text(when))</when></TimeStamp>")
        }
        if let span = property("timespan", of: feature)?.objectValue {
            append("<TimeSpan>")
            if let begin = span["begin"]?.stringValue { append(text: "<begin>\(XMLEscaping.text(begin))</begin>") }
            if let end = span["end"]?.stringValue { append(text: "<end>\(XMLEscaping.text(end))</end>") }
            append("</TimeSpan>")
        }
        try writeStyle(feature, isOverlay: element == .groundOverlay || element == .screenOverlay)
        if let region = property(.region, of: feature) { writeRegion(region) }
        try writeExtendedData(feature, id: extendedID, element: element)
        if element == .groundOverlay {
            elements(KMLWriterState.overlayElements, of: feature)
            if let icon = property("icon", of: feature)?.stringValue ?? feature.style.icon {
                append(text: "<Icon><href>\(XMLEscaping.text(icon))</href></Icon>")
            }
            if let altitude = property("altitude", of: feature)?.doubleValue {
                append(text: "<altitude>\(DecimalFormatter.shortest(altitude))</altitude>")
            }
            if let mode = property("altitudeMode", of: feature)?.stringValue { try writeAltitudeMode(mode) }
            if let box {
                append("<LatLonBox>")
                for key in ["north", "south", "east", "west", "rotation"] {
                    if let value = box[key]?.doubleValue {
                        append(text: "<\(key)>\(DecimalFormatter.shortest(value))</\(key)>")
                    }
                }
                append("</LatLonBox>")
            }
            if let quad, hasQuad {
                usesGX = true
                append("<gx:LatLonQuad><coordinates>")
                for (index, corner) in quad.enumerated() {
                    if index > 0 { buffer.append(0x20) }
                    number(corner.0)
                    buffer.append(UInt8(ascii: ","))
                    number(corner.1)
                }
                append("</coordinates></gx:LatLonQuad>")
            }
        } else if element == .screenOverlay {
            elements(KMLWriterState.overlayElements, of: feature)
            if let icon = property("icon", of: feature)?.stringValue ?? feature.style.icon {
                append(text: "<Icon><href>\(XMLEscaping.text(icon))</href></Icon>")
            }
            for name in KMLNames.screenPlaces {
                guard let place = property(name, of: feature)?.objectValue else { continue }
                append(text: "<\(name)")
                for attribute in ["x", "y", "xunits", "yunits"] {
                    guard let value = place[attribute] else { continue }
                    let text = value.stringValue ?? (value.doubleValue.map(DecimalFormatter.shortest) ?? "")
                    append(text: " \(attribute)=\"\(XMLEscaping.attribute(text))\"")
                }
                append("/>")
            }
            if let rotation = property("rotation", of: feature)?.doubleValue {
                append(text: "<rotation>\(DecimalFormatter.shortest(rotation))</rotation>")
            }
        } else if element == .networkLink {
            elements(KMLWriterState.networkLinkElements, of: feature)
            append("<Link>")
            elements(KMLWriterState.linkElements, of: feature)
            append("</Link>")
        } else if let geometry = feature.geometry {
            try writeGeometry(geometry, feature: feature)
        }
        append(element.closeTag)
        if element == .networkLink, let geometry = feature.geometry, !geometry.isEmpty {
            // A NetworkLink holds no geometry (togeojson gives a link its Region's box as one):
            // the geometry is written beside it, as a Placemark of the same name.
            try warn(
                KMLCode.networklinkGeometryAsPlacemark,
                "a NetworkLink holds no geometry: the feature's \(geometry.kind.rawValue) is written as a Placemark of the same name after the link"
            )
            append("<Placemark>")
            if let title = feature.title {
                append("<name>")
                XMLEscaping.appendText(title, to: &buffer)
                append("</name>")
            }
            try writeGeometry(geometry, feature: feature)
            append("</Placemark>\n")
        }
    }

    /// The element a feature is written as, with its tags as literals.
    enum FeatureElement {
        case placemark, groundOverlay, networkLink, screenOverlay

        /// The start tag, to its attributes.
        var openTag: StaticString {
            switch self {
            case .placemark: "<Placemark"
            case .groundOverlay: "<GroundOverlay"
            case .networkLink: "<NetworkLink"
            case .screenOverlay: "<ScreenOverlay"
            }
        }

        /// The end tag and the line break after it.
        var closeTag: StaticString {
            switch self {
            case .placemark: "</Placemark>\n"
            case .groundOverlay: "</GroundOverlay>\n"
            case .networkLink: "</NetworkLink>\n"
            case .screenOverlay: "</ScreenOverlay>\n"
            }
        }
    }

    func moveToFolder(_ path: [String]) throws(GeoConvError) {
        var common = 0
        while common < folders.count, common < path.count, folders[common] == path[common] { common += 1 }
        while folders.count > common {
            if folders.count == 1, options.topFoldersAsDocuments {
                append("</Document>\n")
            } else {
                append("</Folder>\n")
            }
            folders.removeLast()
        }
        for name in path[common...] {
            if folders.isEmpty, options.topFoldersAsDocuments {
                // The schema's copy goes where the NUL is (`finish`): NUL is never written otherwise.
                append(text: "<Document><name>\(XMLEscaping.text(name))</name>\n\0")
            } else {
                append(text: "<Folder><name>\(XMLEscaping.text(name))</name>\n")
            }
            folders.append(name)
        }
    }

    /// Each of `names` the feature has as a property, as an element of that name.
    func elements(_ names: [String], of feature: Feature) {
        for name in names {
            guard let value = property(name, of: feature) else { continue }
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = n.literal
            case .bool(let b): text = b ? "1" : "0"
            default: continue
            }
            append(text: "<\(name)>\(XMLEscaping.text(text))</\(name)>")
        }
    }

    /// An altitude mode, in the `gx:` namespace where it belongs there; an unknown one is
    /// not written (KML's default, clampToGround, applies) and is reported.
    func writeAltitudeMode(_ mode: String) throws(GeoConvError) {
        guard KMLWriterState.altitudeModes.contains(mode) else {
            try warn(
                KMLCode.invalidAltitudeMode,
                "altitudeMode \"\(mode)\" is not a KML altitude mode; it is not written, so KML's default (clampToGround) applies",
                hint: "use clampToGround, relativeToGround, absolute, relativeToSeaFloor or clampToSeaFloor")
            return
        }
        let gx = mode == "relativeToSeaFloor" || mode == "clampToSeaFloor"
        if gx { usesGX = true }
        append(text: gx ? "<gx:altitudeMode>\(mode)</gx:altitudeMode>" : "<altitudeMode>\(mode)</altitudeMode>")
    }
}
