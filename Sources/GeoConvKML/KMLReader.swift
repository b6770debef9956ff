public import GeoConvCore
internal import GeoConvXML
internal import OrderedCollections
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Options for reading KML.
public struct KMLReadOptions: Hashable, Sendable {
    /// Skip placemarks whose content is invalid (bad coordinates), counting them.
    public var skipsInvalidFeatures: Bool
    /// The deepest element nesting accepted.
    public var maximumDepth: Int

    /// Creates options.
    public init(skipsInvalidFeatures: Bool = false, maximumDepth: Int = 256) {
        self.skipsInvalidFeatures = skipsInvalidFeatures
        self.maximumDepth = maximumDepth
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
    private let state: KMLReaderState
    /// Where the last feature started.
    public var lastLocation: SourceLocation? { state.lastLocation }

    /// Creates a reader over an input.
    public init(_ input: ByteReader, options: KMLReadOptions = KMLReadOptions(), diagnostics: DiagnosticLog) throws(GeoConvError) {
        do {
            let parser = try XMLPullParser(maximumDepth: options.maximumDepth) { buffer in
                try input.read(into: buffer)
            }
            state = KMLReaderState(parser: parser, name: input.name, options: options, diagnostics: diagnostics)
        } catch {
            throw GeoConvError(.io, error.message)
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader { try state.readHeader() }

    public mutating func next() throws(GeoConvError) -> Feature? { try state.next() }
}

/// The reader's mutable state (a class, so the parser's position and the style tables are
/// shared by the helper functions).
final class KMLReaderState {
    let parser: XMLPullParser
    let name: String
    let options: KMLReadOptions
    let diagnostics: DiagnosticLog
    /// KML edges go the shorter way round, as Google Earth draws them.
    var header = DocumentHeader(edgesTakeShorterWay: true)
    var headerDone = false
    var sawDocument = false
    var pending: [Feature] = []
    var containers: [(isFolder: Bool, name: String?, features: Int)] = []
    var styles: [String: KMLStyle] = [:]
    var styleMaps: [String: KMLStyleMap] = [:]
    var schemas: [String: [String: (type: String, displayName: String?)]] = [:]
    /// KML 2.0-style placemark types: `<Schema parent="Placemark" name="X">` makes `<X>` a Placemark.
    var placemarkAliases: [String: [String: (type: String, displayName: String?)]] = [:]
    var lastLocation: SourceLocation?
    var finished = false

    init(parser: XMLPullParser, name: String, options: KMLReadOptions, diagnostics: DiagnosticLog) {
        self.parser = parser
        self.name = name
        self.options = options
        self.diagnostics = diagnostics
    }

    func location() -> SourceLocation { SourceLocation(file: name, line: parser.line, column: parser.column) }

    func convert(_ error: XMLParseError) -> GeoConvError {
        if let failure = parser.sourceFailure as? GeoConvError { return failure }
        return GeoConvError(error.isLimit ? .limitExceeded : .invalidInput, error.message,
                            at: SourceLocation(file: name, line: error.line > 0 ? error.line : nil,
                                               column: error.column > 0 ? error.column : nil),
                            hint: error.isLimit ? "see docs/security.md for what geoconv refuses" : "the KML is not well-formed XML")
    }

    func readHeader() throws(GeoConvError) -> DocumentHeader {
        while !headerDone {
            if let feature = try step() {
                pending.append(feature)
                headerDone = true
            }
            if let strictFailure { throw strictFailure }
        }
        return header
    }

    func next() throws(GeoConvError) -> Feature? {
        if !headerDone { _ = try readHeader() }
        if !pending.isEmpty { return pending.removeFirst() }
        while !finished {
            let feature = try step()
            if let strictFailure { throw strictFailure }
            if let feature { return feature }
        }
        return nil
    }

    /// The first warning that `--strict` turned into an error, raised once the current
    /// event is processed (warnings come from inside XML parsing, whose errors are
    /// `XMLParseError`s).
    var strictFailure: GeoConvError?

    /// Records a warning; under `--strict`, keeps it to be thrown by `next()`.
    func warn(_ code: String, _ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
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
                finished = true
                headerDone = true
                return nil
            }
            switch event {
            case .text: return nil
            case .end(let element):
                if element == "Document" || element == "Folder", let container = containers.popLast() {
                    if container.isFolder && container.features == 0 {
                        warn("kml.empty-folder-dropped",
                             "an empty Folder\(container.name.map { " (\"\($0)\")" } ?? "") is not carried over: folders are rebuilt from the features in them",
                             at: location())
                    }
                    if !containers.isEmpty { containers[containers.count - 1].features += container.features }
                }
                return nil
            case .start(let element, let isEmpty):
                return try start(element, isEmpty: isEmpty)
            }
        } catch {
            throw convert(error)
        }
    }

    func start(_ element: String, isEmpty: Bool) throws(XMLParseError) -> Feature? {
        switch element {
        case "kml":
            return nil
        case "Document", "Folder":
            let isFolder = element == "Folder" || sawDocument
            if element == "Document" { sawDocument = true }
            if !isEmpty {
                containers.append((isFolder, nil, 0))
            } else if isFolder {
                warn("kml.empty-folder-dropped", "an empty Folder is not carried over: folders are rebuilt from the features in them",
                     at: location())
            }
            return nil
        case "name" where !containers.isEmpty && !isEmpty:
            let text = try parser.readElementText()
            containers[containers.count - 1].name = text
            if !containers[containers.count - 1].isFolder && !headerDone { header.name = text }
            return nil
        case "description" where !containers.isEmpty && !isEmpty:
            let text = try parser.readElementText()
            if !containers[containers.count - 1].isFolder && !headerDone {
                header.description = text
            } else {
                warn("kml.folder-description-dropped", "folder descriptions are not carried over", at: location())
            }
            return nil
        case "name", "description":
            if !isEmpty { try parser.skipElement() }  // outside any Document or Folder: nothing to carry
            return nil
        case "Style":
            let id = parser.attribute("id")
            let style = isEmpty ? KMLStyle() : try parseStyle()
            if let id { styles[id] = style }
            return nil
        case "StyleMap":
            let id = parser.attribute("id")
            let map = isEmpty ? KMLStyleMap() : try parseStyleMap()
            if let id { styleMaps[id] = map }
            return nil
        case "CascadingStyle":
            // Google Earth's gx:CascadingStyle kml:id="…" wraps a Style.
            let id = parser.attribute("id")
            guard !isEmpty else { return nil }
            while let event = try parser.next() {
                if case .start("Style", let styleEmpty) = event {
                    let style = styleEmpty ? KMLStyle() : try parseStyle()
                    if let id { styles[id] = style }
                } else if case .start(_, let otherEmpty) = event, !otherEmpty {
                    try parser.skipElement()
                } else if case .end("CascadingStyle") = event {
                    break
                }
            }
            return nil
        case "Schema":
            let id = parser.attribute("id") ?? parser.attribute("name") ?? ""
            let parent = parser.attribute("parent")
            let aliasName = parser.attribute("name")
            let fields = isEmpty ? [:] : try parseSchema()
            if parent == "Placemark", let aliasName { placemarkAliases[aliasName] = fields }
            schemas[id] = fields
            if let schemaName = parser.attribute("name"), schemas[schemaName] == nil { schemas[schemaName] = fields }
            return nil
        case "LookAt", "Camera":
            guard !isEmpty else { return nil }
            let camera = try parseView(element)
            if !headerDone, header.camera == nil {
                header.camera = camera.camera
            } else {
                warn("kml.view-dropped", "a \(element) after the first feature is not carried over", at: location())
            }
            return nil
        case "Placemark", "GroundOverlay", "NetworkLink":
            lastLocation = location()
            let id = parser.attribute("id")
            if !containers.isEmpty { containers[containers.count - 1].features += 1 }
            do throws(XMLParseError) {
                return try parseFeature(element, id: id, isEmpty: isEmpty)
            } catch {
                guard options.skipsInvalidFeatures, !error.isLimit, parser.sourceFailure == nil else { throw error }
                record { () throws(GeoConvError) in
                    try diagnostics.skip("kml.invalid-feature-skipped", "skipped an invalid \(element): \(error.message)",
                                         at: SourceLocation(file: name, line: error.line, column: error.column))
                }
                return nil
            }
        case let alias where placemarkAliases[alias] != nil:
            lastLocation = location()
            return try parseFeature(alias, id: parser.attribute("id"), isEmpty: isEmpty)
        case "ScreenOverlay", "PhotoOverlay", "Tour", "Model":
            warn("kml.\(element.lowercased())-dropped", "\(element) elements are not carried over", at: location())
            if !isEmpty { try parser.skipElement() }
            return nil
        case "open", "Snippet", "visibility", "ListStyle", "atom:author", "atom:link", "author", "link", "Region", "ExtendedData", "TimeStamp",
             "TimeSpan", "address", "phoneNumber", "styleUrl", "snippet", "Metadata", "AddressDetails":
            // Document and Folder parts that no model field holds.
            warn("kml.element-dropped", "a Document's or Folder's <\(element)> is not carried over: only placemarks, overlays and links, the document's name, description and first view are",
                 at: location())
            if !isEmpty { try parser.skipElement() }
            return nil
        default:
            warn("kml.element-dropped", "<\(element)> is not a KML element geoconv knows; it is not carried over", at: location())
            if !isEmpty { try parser.skipElement() }
            return nil
        }
    }

    // MARK: Styles and schemas

    func parseStyle() throws(XMLParseError) -> KMLStyle {
        var style = KMLStyle()
        var path: [String] = []
        while let event = try parser.next() {
            switch event {
            case .start(let element, let isEmpty):
                if isEmpty {
                    if element == "hotSpot" { style.hotSpot = hotSpot() }
                    continue
                }
                let parent = path.last
                switch (parent, element) {
                case ("LineStyle", "color"): style.lineColor = Color(kml: try parser.readElementText())
                case ("LineStyle", "width"): style.lineWidth = Double(try parser.readElementText().trimmed)
                case ("PolyStyle", "color"): style.polyColor = Color(kml: try parser.readElementText())
                case ("PolyStyle", "fill"): style.polyFill = Self.kmlBool(try parser.readElementText())
                case ("PolyStyle", "outline"): style.polyOutline = Self.kmlBool(try parser.readElementText())
                case ("IconStyle", "color"): style.iconColor = Color(kml: try parser.readElementText())
                case ("IconStyle", "scale"): style.iconScale = Double(try parser.readElementText().trimmed)
                case ("IconStyle", "heading"): style.iconHeading = Double(try parser.readElementText().trimmed)
                case ("Icon", "href"): style.iconHref = try parser.readElementText().trimmed
                case ("LabelStyle", "color"): style.labelColor = Color(kml: try parser.readElementText())
                case ("LabelStyle", "scale"): style.labelScale = Double(try parser.readElementText().trimmed)
                case ("BalloonStyle", "text"): style.balloonText = try parser.readElementText()
                case (_, "hotSpot"):
                    style.hotSpot = hotSpot()
                    try parser.skipElement()
                default:
                    if ["LineStyle", "PolyStyle", "IconStyle", "LabelStyle", "BalloonStyle", "Icon", "ListStyle"].contains(element) {
                        path.append(element)
                    } else {
                        try parser.skipElement()
                    }
                }
            case .end(let element):
                if element == "Style" { return style }
                if path.last == element { path.removeLast() }
            case .text: continue
            }
        }
        return style
    }

    func hotSpot() -> (x: Double, y: Double, xUnits: String, yUnits: String)? {
        guard let x = parser.attribute("x").flatMap({ Double($0) }), let y = parser.attribute("y").flatMap({ Double($0) }) else { return nil }
        return (x, y, parser.attribute("xunits") ?? "fraction", parser.attribute("yunits") ?? "fraction")
    }

    static func kmlBool(_ text: String) -> Bool? {
        switch text.trimmed.lowercased() {
        case "1", "true": true
        case "0", "false": false
        default: nil
        }
    }

    func parseStyleMap() throws(XMLParseError) -> KMLStyleMap {
        var map = KMLStyleMap()
        var key: String?, url: String?, pairStyle: KMLStyle?
        while let event = try parser.next() {
            switch event {
            case .start(let element, let isEmpty):
                guard !isEmpty else { continue }
                switch element {
                case "Pair":
                    key = nil
                    url = nil
                    pairStyle = nil
                case "key": key = try parser.readElementText().trimmed
                case "styleUrl": url = try parser.readElementText().trimmed
                case "Style": pairStyle = try parseStyle()
                default: try parser.skipElement()
                }
            case .end(let element):
                if element == "Pair" {
                    if key == "highlight" {
                        map.highlight = url
                        map.highlightInline = pairStyle
                    } else {
                        map.normal = url
                        map.normalInline = pairStyle
                    }
                }
                if element == "StyleMap" { return map }
            case .text: continue
            }
        }
        return map
    }

    func parseSchema() throws(XMLParseError) -> [String: (type: String, displayName: String?)] {
        var fields: [String: (type: String, displayName: String?)] = [:]
        while let event = try parser.next() {
            switch event {
            case .start(let element, let isEmpty):
                if element == "SimpleField", let fieldName = parser.attribute("name") {
                    var displayName: String?
                    if !isEmpty {
                        let children = try parseChildren(until: "SimpleField")
                        displayName = children["displayName"]
                    }
                    fields[fieldName] = ((parser.attribute("type") ?? "string").lowercased(), displayName)
                } else if !isEmpty {
                    try parser.skipElement()
                }
            case .end(let element):
                if element == "Schema" { return fields }
            case .text: continue
            }
        }
        return fields
    }

    /// The model style a `styleUrl` names (a local `#id` of a Style or StyleMap).
    func resolve(_ url: String, into feature: inout Feature, visited: Set<String> = []) -> KMLStyle? {
        let trimmed = url.trimmed
        guard !visited.contains(trimmed), visited.count < 16 else {
            warn("kml.style-loop", "styleUrl \"\(trimmed)\" leads back to itself through StyleMaps; no style is applied",
                                  at: lastLocation)
            return nil
        }
        guard let hash = trimmed.firstIndex(of: "#") else {
            warn("kml.style-unresolved", "styleUrl \"\(trimmed)\" is not a local #id; styles in other files are not fetched",
                                  at: lastLocation)
            return nil
        }
        if hash != trimmed.startIndex {
            warn("kml.external-style", "styleUrl \"\(trimmed)\" points into another file, which geoconv never fetches",
                                  at: lastLocation)
            return nil
        }
        let id = String(trimmed[trimmed.index(after: hash)...])
        if let style = styles[id] { return style }
        if let map = styleMaps[id] {
            applyHighlight(of: map, to: &feature, visited: visited.union([trimmed]))
            if let inline = map.normalInline { return inline }
            if let normal = map.normal { return resolve(normal, into: &feature, visited: visited.union([trimmed])) }
            return nil
        }
        warn("kml.style-unresolved",
                              "styleUrl \"\(trimmed)\" names no Style or StyleMap defined before it; its style is not applied",
                              at: lastLocation, hint: "define shared styles before the placemarks that use them")
        return nil
    }

    /// Keeps a StyleMap's highlight style on the feature as `geoconv:highlight-style`: the
    /// style in simplestyle properties, as the normal style is written to GeoJSON.
    func applyHighlight(of map: KMLStyleMap, to feature: inout Feature, visited: Set<String> = []) {
        var highlight: KMLStyle?
        if let inline = map.highlightInline {
            highlight = inline
        } else if let url = map.highlight {
            var scratch = Feature(geometry: nil)
            highlight = resolve(url, into: &scratch, visited: visited)
        }
        guard let highlight else { return }
        var styled = Feature(geometry: nil)
        highlight.apply(to: &styled)
        feature.properties[KMLNames.highlightStyle] = .object(StyleProperties.merged(styled))
    }

    // MARK: Views

    /// A `LookAt` or `Camera`: the camera it makes (when it has a finite position) and its
    /// elements in order (numbers as numbers), to write back as they were.
    func parseView(_ element: String) throws(XMLParseError) -> (camera: CameraPosition?, elements: JSONObject) {
        var elements: JSONObject = ["kind": .string(element)]
        for (child, text) in try parseChildren(until: element) {
            if let value = Double(text), value.isFinite, let number = JSONNumber(literal: text) ?? JSONNumber(value) {
                elements[child] = .number(number)
            } else {
                elements[child] = .string(text)
            }
        }
        let values = elements.compactMapValues(\.doubleValue)
        guard let latitude = values["latitude"], let longitude = values["longitude"] else { return (nil, elements) }
        let distance = element == "LookAt" ? values["range"] : values["altitude"]
        let camera = CameraPosition(kmlLatitude: latitude, longitude: longitude, range: distance ?? 1000,
                                    heading: values["heading"] ?? 0, tilt: values["tilt"] ?? 0)
        return (camera, elements)
    }

    // MARK: Features

    func folderPath() -> [String] { containers.filter(\.isFolder).map { $0.name ?? "" } }

    func parseFeature(_ element: String, id: String?, isEmpty: Bool) throws(XMLParseError) -> Feature {
        var feature = Feature(geometry: nil)
        if let id { feature.id = .string(id) }
        let path = folderPath()
        if !path.isEmpty { feature.properties[KMLNames.folder] = .array(path.map(JSONValue.string)) }
        if element == "GroundOverlay" { feature.properties[KMLNames.geometryType] = "groundoverlay" }
        if element == "NetworkLink" { feature.properties[KMLNames.geometryType] = "networklink" }
        guard !isEmpty else { return feature }
        var styleUrl: String?
        var inlineStyle: KMLStyle?
        var geometries: [Geometry] = []
        var times: [JSONValue] = []
        var latLonBox: JSONObject = [:]
        while let event = try parser.next() {
            switch event {
            case .text: continue
            case .end(let name):
                guard name == element else { continue }
                return finish(&feature, styleUrl: styleUrl, inlineStyle: inlineStyle, geometries: geometries, times: times,
                              latLonBox: latLonBox)
            case .start(let child, let childEmpty):
                if childEmpty { continue }
                switch child {
                case "name": feature.title = try parser.readElementText()
                case "description":
                    let text = try parser.readElementMarkup()
                    feature.snippet = text.isEmpty ? nil : text
                case "Snippet": feature.properties["Snippet"] = .string(try parser.readElementText())
                case "visibility":
                    if let flag = Self.kmlBool(try parser.readElementText()) { feature.properties["visibility"] = .bool(flag) }
                case "address", "phoneNumber":
                    feature.properties[child] = .string(try parser.readElementText())
                case "styleUrl":
                    styleUrl = try parser.readElementText().trimmed
                case "Style":
                    let style = try parseStyle()
                    inlineStyle = inlineStyle.map { $0.overridden(by: style) } ?? style
                case "StyleMap":
                    let map = try parseStyleMap()
                    if let normal = map.normalInline { inlineStyle = normal }
                    if let url = map.normal { styleUrl = url }
                    applyHighlight(of: map, to: &feature)
                case "LookAt", "Camera":
                    feature.properties[KMLNames.view] = .object(try parseView(child).elements)
                case "Region":
                    feature.properties[KMLNames.region] = .object(try parseRegion())
                case "ExtendedData": try parseExtendedData(into: &feature)
                case "TimeStamp":
                    if let when = try parseChildren(until: "TimeStamp")["when"] { feature.properties["timestamp"] = .string(when) }
                case "TimeSpan":
                    let span = try parseChildren(until: "TimeSpan")
                    var object: JSONObject = [:]
                    if let begin = span["begin"] { object["begin"] = .string(begin) }
                    if let end = span["end"] { object["end"] = .string(end) }
                    feature.properties["timespan"] = .object(object)
                case "Icon" where element != "Placemark":
                    let icon = try parseLink(until: "Icon")
                    if let href = icon["href"] { feature.properties["icon"] = .string(href) }
                case "Link", "Url":
                    for (key, value) in try parseLink(until: child) { feature.properties[key] = .string(value) }
                case "LatLonBox":
                    latLonBox = try parseLatLonBox()
                case "altitude", "altitudeMode", "drawOrder", "color", "refreshVisibility", "flyToView", "open":
                    let text = try parser.readElementText().trimmed
                    if element != "Placemark" {
                        feature.properties[child] = Double(text).map(KMLStyle.number) ?? .string(text)
                    } else {
                        warn("kml.element-dropped", "a Placemark's <\(child)> is not carried over (it belongs to overlays)", at: location())
                    }
                default:
                    if let fields = placemarkAliases[element], let field = fields[child] {
                        feature.properties[child] = Self.typed(try parser.readElementText(), as: field.type, key: child)
                    } else if let geometry = try parseGeometryOrWarn(child, into: &feature, times: &times) {
                        geometries.append(geometry)
                    }
                }
            }
        }
        return finish(&feature, styleUrl: styleUrl, inlineStyle: inlineStyle, geometries: geometries, times: times,
                      latLonBox: latLonBox)
    }

    func finish(_ feature: inout Feature, styleUrl: String?, inlineStyle: KMLStyle?, geometries: [Geometry], times: [JSONValue],
                latLonBox: JSONObject) -> Feature
    {
        var style = KMLStyle()
        if let styleUrl {
            feature.properties["styleUrl"] = .string(styleUrl)
            if let shared = resolve(styleUrl, into: &feature) { style = shared }
        }
        if let inlineStyle { style = style.overridden(by: inlineStyle) }
        style.apply(to: &feature)
        if geometries.count == 1 {
            feature.geometry = geometries[0]
        } else if geometries.count > 1 {
            feature.geometry = KMLReaderState.combine(geometries)
        }
        if !times.isEmpty { feature.properties["coordinateProperties"] = .object(["times": times.count == 1 ? times[0] : .array(times)]) }
        if !latLonBox.isEmpty {
            feature.properties[KMLNames.latLonBox] = .object(latLonBox)
            if let north = latLonBox["north"]?.doubleValue, let south = latLonBox["south"]?.doubleValue,
               let east = latLonBox["east"]?.doubleValue, let west = latLonBox["west"]?.doubleValue
            {
                feature.geometry = .polygon(PolygonRings(outer: KMLReaderState.box(north: north, south: south, east: east, west: west,
                                                                                   rotation: latLonBox["rotation"]?.doubleValue ?? 0)))
            }
        }
        if let id = feature.properties.removeValue(forKey: "geoconv:id") {
            switch id {
            case .string(let s): feature.id = .string(s)
            case .number(let n): feature.id = .number(n)
            default: break
            }
        }
        StyleProperties.derive(into: &feature, only: { StyleProperties.notInKML.contains($0) })
        // A Point carrying geoconv:radius is a circle (written that way by geoconv).
        if case .point(let center)? = feature.geometry, let radius = feature.properties[KMLNames.radius]?.doubleValue,
           radius.isFinite, radius >= 0
        {
            feature.geometry = .circle(center: center, radius: radius)
        }
        return feature
    }

    /// The LatLonBox as a closed ring, rotated counter-clockwise by `rotation` degrees about its centre.
    static func box(north: Double, south: Double, east: Double, west: Double, rotation: Double) -> Path {
        var corners = [(west, south), (east, south), (east, north), (west, north)]
        if rotation != 0 {
            let cx = (east + west) / 2, cy = (north + south) / 2
            let angle = rotation * .pi / 180
            let c = cos(angle), s = sin(angle)
            corners = corners.map { (x, y) in (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) }
        }
        var ring = corners.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        ring.append(ring[0])
        return Path(ring)
    }

    /// Several geometries of one MultiGeometry: Multi* when they are all of one simple kind,
    /// else a GeometryCollection.
    static func combine(_ geometries: [Geometry]) -> Geometry {
        var points: [Coordinate] = [], lines: [Path] = [], polygons: [PolygonRings] = []
        for geometry in geometries {
            switch geometry {
            case .point(let c): points.append(c)
            case .lineString(let path): lines.append(path)
            case .polygon(let rings): polygons.append(rings)
            default: break
            }
        }
        if points.count == geometries.count { return .multiPoint(points) }
        if lines.count == geometries.count { return .multiLineString(lines) }
        if polygons.count == geometries.count { return .multiPolygon(polygons) }
        return .geometryCollection(geometries)
    }

    /// The text of each child element, in document order (a later repeat replaces an
    /// earlier one); grandchildren are read as their parent's text.
    func parseChildren(until element: String) throws(XMLParseError) -> OrderedDictionary<String, String> {
        var values: OrderedDictionary<String, String> = [:]
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty):
                if !isEmpty { values[child] = try parser.readElementText().trimmed }
            case .end(let name): if name == element { return values }
            case .text: continue
            }
        }
        return values
    }

    func parseLink(until element: String) throws(XMLParseError) -> OrderedDictionary<String, String> { try parseChildren(until: element) }

    func parseLatLonBox() throws(XMLParseError) -> JSONObject {
        var box: JSONObject = [:]
        let values = try parseChildren(until: "LatLonBox")
        for key in ["north", "south", "east", "west", "rotation"] {
            if let text = values[key], let number = Double(text) { box[key] = KMLStyle.number(number) }
        }
        return box
    }

    /// Records a Data or SimpleField `displayName` in `geoconv:display-names`.
    static func setDisplayName(_ label: String, for key: String, in feature: inout Feature) {
        var names = feature.properties[KMLNames.displayNames]?.objectValue ?? [:]
        names[key] = .string(label)
        feature.properties[KMLNames.displayNames] = .object(names)
    }

    /// A `Region`: its `LatLonAltBox` and `Lod` values in one object, numbers as numbers.
    func parseRegion() throws(XMLParseError) -> JSONObject {
        var region: JSONObject = [:]
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty):
                guard !isEmpty else { continue }
                for (key, text) in try parseChildren(until: child) {
                    region[key] = JSONNumber(literal: text).map(JSONValue.number) ?? .string(text)
                }
            case .end(let name):
                if name == "Region" { return region }
            case .text: continue
            }
        }
        return region
    }

    func parseExtendedData(into feature: inout Feature) throws(XMLParseError) {
        var schema: [String: (type: String, displayName: String?)] = [:]
        while let event = try parser.next() {
            switch event {
            case .start(let element, let isEmpty):
                switch element {
                case "Data":
                    let key = parser.attribute("name") ?? ""
                    var value = ""
                    if !isEmpty {
                        let children = try parseChildren(until: "Data")
                        value = children["value"] ?? ""
                        if let label = children["displayName"] { Self.setDisplayName(label, for: key, in: &feature) }
                    }
                    feature.properties[key] = Self.dataValue(key, value)
                case "SchemaData":
                    let url = (parser.attribute("schemaUrl") ?? "").trimmed
                    let id = url.hasPrefix("#") ? String(url.dropFirst()) : url
                    schema = schemas[id] ?? [:]
                case "SimpleData":
                    let key = parser.attribute("name") ?? ""
                    let text = isEmpty ? "" : try parser.readElementText()
                    feature.properties[key] = Self.typed(text, as: schema[key]?.type ?? "string", key: key)
                    if let label = schema[key]?.displayName { Self.setDisplayName(label, for: key, in: &feature) }
                default:
                    if !isEmpty { try parser.skipElement() }
                }
            case .end(let name):
                if name == "ExtendedData" { return }
            case .text: continue
            }
        }
    }

    /// A Data value: text, except geoconv's own JSON-valued keys.
    static func dataValue(_ key: String, _ text: String) -> JSONValue {
        if KMLNames.jsonValued.contains(key), let value = JSONText.parse(text) { return value }
        return .string(text)
    }

    /// A SimpleData value typed by its SimpleField.
    static func typed(_ text: String, as type: String, key: String) -> JSONValue {
        let trimmed = text.trimmed
        switch type {
        case "int", "uint", "short", "ushort":
            if let number = JSONNumber(literal: trimmed), number.isInteger { return .number(number) }
        case "float", "double":
            if let number = JSONNumber(literal: trimmed) { return .number(number) }
            if let value = Double(trimmed), let number = JSONNumber(value) { return .number(number) }
        case "bool":
            if let flag = kmlBool(trimmed) { return .bool(flag) }
        default:
            break
        }
        return dataValue(key, text)
    }

    // MARK: Geometry

    /// A geometry whose coordinates do not parse is dropped with a warning (the rest of the
    /// placemark is kept, as GDAL and togeojson do); `--strict` makes that an error.
    func parseGeometryOrWarn(_ element: String, into feature: inout Feature, times: inout [JSONValue]) throws(XMLParseError) -> Geometry? {
        do throws(XMLParseError) {
            return try parseGeometry(element, into: &feature, times: &times)
        } catch {
            guard !error.isLimit, parser.sourceFailure == nil, error.message.contains("coordinate") || error.message.contains("gx:coord") else {
                throw error
            }
            let location = SourceLocation(file: name, line: error.line, column: error.column)
            do throws(GeoConvError) {
                try diagnostics.warn("kml.invalid-coordinates", "a \(element) is dropped: \(error.message)", at: location,
                                     hint: "fix the <coordinates>; the placemark is kept without this geometry")
            } catch let strict {
                throw XMLParseError(message: strict.message, line: error.line, column: error.column)
            }
            // Skip to the end of this geometry element (the error came from inside it).
            while let event = try parser.next() {
                if case .end(let name) = event, name == element { break }
            }
            return nil
        }
    }

    func parseGeometry(_ element: String, into feature: inout Feature, times: inout [JSONValue]) throws(XMLParseError) -> Geometry? {
        switch element {
        case "Point":
            let coordinates = try parseSimpleGeometry("Point", into: &feature)
            guard let first = coordinates.first else { return nil }
            return .point(first)
        case "LineString", "LinearRing":
            let coordinates = try parseSimpleGeometry(element, into: &feature)
            return coordinates.isEmpty ? .empty(.lineString) : .lineString(Path(coordinates))
        case "Polygon":
            var outer: Path?
            var holes: [Path] = []
            var boundary = ""
            while let event = try parser.next() {
                switch event {
                case .start(let child, let isEmpty):
                    if isEmpty { continue }
                    switch child {
                    case "outerBoundaryIs", "innerBoundaryIs": boundary = child
                    case "LinearRing":
                        let ring = Path(try parseSimpleGeometry("LinearRing", into: &feature))
                        if let first = ring.coordinates.first, let last = ring.coordinates.last, ring.coordinates.count > 1,
                           first.latitude != last.latitude || first.longitude != last.longitude
                        {
                            warn("kml.unclosed-ring", "a LinearRing's first and last coordinates differ; it is closed on writing",
                                                  at: location())
                        }
                        if boundary == "outerBoundaryIs", outer == nil { outer = ring } else { holes.append(ring) }
                    default: try attribute(child, into: &feature)
                    }
                case .end(let name):
                    if name == "Polygon" {
                        guard let outer, !outer.isEmpty else { return .empty(.polygon) }
                        return .polygon(PolygonRings(outer: outer, holes: holes))
                    }
                case .text: continue
                }
            }
            return nil
        case "MultiGeometry", "MultiPolygon", "MultiLineString", "MultiPoint":
            var members: [Geometry] = []
            while let event = try parser.next() {
                switch event {
                case .start(let child, let isEmpty):
                    if isEmpty { continue }
                    if let member = try parseGeometry(child, into: &feature, times: &times) { members.append(member) }
                case .end(let name):
                    if name == element {
                        if members.isEmpty { return .empty(.geometryCollection) }
                        return KMLReaderState.combine(members)
                    }
                case .text: continue
                }
            }
            return nil
        case "Track":
            return try parseTrack(into: &feature, times: &times)
        case "MultiTrack":
            var lines: [Path] = []
            var allTimes: [JSONValue] = []
            while let event = try parser.next() {
                switch event {
                case .start(let child, let isEmpty):
                    if isEmpty { continue }
                    if child == "Track" {
                        var trackTimes: [JSONValue] = []
                        if case .lineString(let path)? = try parseTrack(into: &feature, times: &trackTimes) { lines.append(path) }
                        allTimes.append(.array(trackTimes))
                    } else {
                        try attribute(child, into: &feature)
                    }
                case .end(let name):
                    if name == "MultiTrack" {
                        times += allTimes
                        return lines.isEmpty ? nil : (lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines))
                    }
                case .text: continue
                }
            }
            return nil
        case "Model":
            warn("kml.model-dropped", "3D Model geometries are not carried over", at: location())
            try parser.skipElement()
            return nil
        default:
            warn("kml.element-dropped", "<\(element)> is not carried over", at: location())
            try parser.skipElement()
            return nil
        }
    }

    /// Geometry attributes that apply to the whole feature.
    func attribute(_ element: String, into feature: inout Feature) throws(XMLParseError) {
        switch element {
        case "tessellate":
            if let flag = Self.kmlBool(try parser.readElementText()), flag { feature.style.geodesic = true }
        case "extrude":
            if let flag = Self.kmlBool(try parser.readElementText()), flag { feature.properties[KMLNames.extrude] = true }
        case "altitudeMode":
            feature.properties[KMLNames.altitudeMode] = .string(try parser.readElementText().trimmed)
        default:
            try parser.skipElement()
        }
    }

    /// Point / LineString / LinearRing: coordinates plus attributes.
    func parseSimpleGeometry(_ element: String, into feature: inout Feature) throws(XMLParseError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty):
                if isEmpty { continue }
                if child == "coordinates" {
                    coordinates = try parseCoordinates()
                } else {
                    try attribute(child, into: &feature)
                }
            case .end(let name):
                if name == element { return coordinates }
            case .text: continue
            }
        }
        return coordinates
    }

    /// `<coordinates>` content: tuples `lon,lat[,alt]` separated by whitespace (spaces around
    /// commas are tolerated, as Google Earth does).
    func parseCoordinates() throws(XMLParseError) -> [Coordinate] {
        var result: [Coordinate] = []
        var numbers: [Double] = []
        numbers.reserveCapacity(3)
        var failure: String?
        while let event = try parser.next() {
            switch event {
            case .text:
                parser.withText { bytes in
                    guard failure == nil else { return }
                    failure = KMLReaderState.scanTuples(bytes, numbers: &numbers, into: &result)
                }
            case .start(_, let isEmpty):
                if !isEmpty { try parser.skipElement() }
            case .end:
                if let failure { throw parser.error(failure) }
                if !numbers.isEmpty {
                    guard let tuple = KMLReaderState.tuple(numbers) else {
                        throw parser.error("a coordinate tuple needs longitude and latitude, found \(numbers.count) number")
                    }
                    result.append(tuple)
                }
                return result
            }
        }
        return result
    }

    static func tuple(_ numbers: [Double]) -> Coordinate? {
        guard numbers.count >= 2 else { return nil }
        return Coordinate(latitude: numbers[1], longitude: numbers[0], altitude: numbers.count >= 3 ? numbers[2] : nil)
    }

    /// Scans coordinate text; returns an error message, or nil.
    static func scanTuples(_ bytes: UnsafeBufferPointer<UInt8>, numbers: inout [Double], into result: inout [Coordinate]) -> String? {
        var index = 0
        let count = bytes.count
        var afterComma = false
        while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
                continue
            }
            if byte == UInt8(ascii: ",") {
                afterComma = true
                index += 1
                continue
            }
            let start = index
            while index < count, bytes[index] != 0x20, bytes[index] != 0x09, bytes[index] != 0x0A, bytes[index] != 0x0D,
                  bytes[index] != UInt8(ascii: ",")
            {
                index += 1
            }
            guard let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index])) else {
                return "'\(String(decoding: bytes[start..<index], as: UTF8.self))' in <coordinates> is not a number"
            }
            guard value.isFinite else {
                return "'\(String(decoding: bytes[start..<index], as: UTF8.self))' in <coordinates> is too large for a 64-bit float"
            }
            // A number not joined to the previous by a comma starts a new tuple.
            if !afterComma, !numbers.isEmpty {
                guard let tuple = tuple(numbers) else {
                    return "a coordinate tuple needs longitude and latitude, found \(numbers.count) number"
                }
                result.append(tuple)
                numbers.removeAll(keepingCapacity: true)
            }
            numbers.append(value)
            afterComma = false
        }
        return nil
    }

    func parseTrack(into feature: inout Feature, times: inout [JSONValue]) throws(XMLParseError) -> Geometry? {
        var coordinates: [Coordinate] = []
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty):
                if isEmpty { continue }
                switch child {
                case "when": times.append(.string(try parser.readElementText().trimmed))
                case "coord":
                    let text = try parser.readElementText()
                    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," })
                    let values = parts.compactMap { Double($0) }
                    guard values.count >= 2, values.count == parts.count else {
                        throw parser.error("gx:coord needs 'longitude latitude [altitude]', found '\(text)'")
                    }
                    coordinates.append(Coordinate(latitude: values[1], longitude: values[0], altitude: values.count > 2 ? values[2] : nil))
                default: try attribute(child, into: &feature)
                }
            case .end(let name):
                if name == "Track" {
                    if coordinates.isEmpty { return nil }
                    return coordinates.count == 1 ? .point(coordinates[0]) : .lineString(Path(coordinates))
                }
            case .text: continue
            }
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing whitespace.
    var trimmed: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}

extension CameraPosition {
    /// The viewport KML views are converted for: 640 points high, 60° vertical field of view.
    public static let kmlViewportHeight = 640.0
    /// The vertical field of view assumed for KML views, degrees.
    public static let kmlFieldOfView = 60.0

    /// The camera a KML `LookAt` (or `Camera`) describes: the range (metres from the target)
    /// becomes the zoom at which a 640-point-high viewport with a 60° field of view shows the
    /// same ground height at this latitude (Web Mercator: 156,543.034 m per point at zoom 0
    /// on the equator, × cos(latitude)).
    public init(kmlLatitude latitude: Double, longitude: Double, range: Double, heading: Double, tilt: Double) {
        let metresPerPointAtZoom0 = 156_543.033_92 * cos(latitude * .pi / 180)
        let visibleMetres = 2 * max(range, 0.01) * tan(CameraPosition.kmlFieldOfView / 2 * .pi / 180)
        let zoom = log2(max(metresPerPointAtZoom0 * CameraPosition.kmlViewportHeight / visibleMetres, 1e-9))
        self.init(target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: heading, viewingAngle: tilt)
    }

    /// The KML `LookAt` range that shows what this camera shows (the inverse of `init(kmlLatitude:…)`).
    public var kmlRange: Double {
        let metresPerPointAtZoom0 = 156_543.033_92 * cos(target.latitude * .pi / 180)
        let visibleMetres = metresPerPointAtZoom0 * CameraPosition.kmlViewportHeight / exp2(zoom)
        return visibleMetres / (2 * tan(CameraPosition.kmlFieldOfView / 2 * .pi / 180))
    }
}
