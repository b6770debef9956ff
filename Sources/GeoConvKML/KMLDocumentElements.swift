import GeoConvCore
internal import GeoConvXML

/// What the reader does with an element it meets outside any feature: the dispatch table of
/// the document's level. Each kind has one handler in `KMLReaderState`; an element the
/// table does not name is a Schema's Placemark alias or reported as unknown.
enum KMLDocumentElement {
    case root
    /// `Document` and `Folder`.
    case container
    /// A container's `name` and `description`.
    case containerName, containerDescription
    case style, styleMap, cascadingStyle, schema
    /// `LookAt` and `Camera`.
    case view
    /// Placemark, GroundOverlay, NetworkLink and ScreenOverlay.
    case feature
    /// A geometry outside any Placemark.
    case bareGeometry
    /// PhotoOverlay, Tour and Model, dropped with their own codes.
    case droppedFeature(KMLCode)
    /// A Document's or Folder's `ExtendedData`.
    case containerData
    /// Document and Folder parts no model field holds.
    case containerPart

    /// Whether the kind is read as itself even when a Schema makes its name a Placemark
    /// alias (`<Schema name="…" parent="Placemark">`); the other kinds' names become features.
    var precedesAliases: Bool {
        switch self {
        case .bareGeometry, .droppedFeature, .containerData, .containerPart: false
        default: true
        }
    }

    static let table: [String: KMLDocumentElement] = {
        var table: [String: KMLDocumentElement] = [
            "kml": .root, "Document": .container, "Folder": .container,
            "name": .containerName, "description": .containerDescription,
            "Style": .style, "StyleMap": .styleMap, "CascadingStyle": .cascadingStyle, "Schema": .schema,
            "LookAt": .view, "Camera": .view,
            "PhotoOverlay": .droppedFeature(.photoOverlayDropped), "Tour": .droppedFeature(.tourDropped),
            "Model": .droppedFeature(.modelDropped), "ExtendedData": .containerData,
        ]
        for name in ["Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay"] { table[name] = .feature }
        for name in ["Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Track", "MultiTrack"] {
            table[name] = .bareGeometry
        }
        for name in [
            "open", "Snippet", "visibility", "ListStyle", "atom:author", "atom:link", "author", "link", "Region",
            "TimeStamp", "TimeSpan", "address", "phoneNumber", "styleUrl", "snippet", "Metadata", "AddressDetails",
        ] {
            table[name] = .containerPart
        }
        return table
    }()
}

/// The handlers of the document's level, one per kind of `KMLDocumentElement`.
extension KMLReaderState {
    /// Processes a start tag met outside any feature; returns a feature when it read one.
    func start(_ element: String, isEmpty: Bool) throws(XMLParseError) -> Feature? {
        let kind = KMLDocumentElement.table[element]
        if kind?.precedesAliases != true, !tables.placemarkAliases.isEmpty, tables.placemarkAliases[element] != nil {
            lastLocation = location()
            reports.featuresMet += 1
            return try parseFeature(element, id: parser.attribute("id"), isEmpty: isEmpty)
        }
        guard let kind else {
            warn(
                KMLCode.elementDropped, "<\(element)> is not a KML element geoconv knows; it is not carried over",
                at: location())
            if !isEmpty { try parser.skipElement() }
            return nil
        }
        switch kind {
        case .root: return nil
        case .container: openContainer(element, isEmpty: isEmpty)
        case .containerName: try readContainerName(isEmpty: isEmpty)
        case .containerDescription: try readContainerDescription(isEmpty: isEmpty)
        case .style: try readSharedStyle(isEmpty: isEmpty)
        case .styleMap: try readSharedStyleMap(isEmpty: isEmpty)
        case .cascadingStyle: try readCascadingStyle(isEmpty: isEmpty)
        case .schema: try readSchema(isEmpty: isEmpty)
        case .view: try readDocumentView(element, isEmpty: isEmpty)
        case .feature: return try readFeature(element, isEmpty: isEmpty)
        case .bareGeometry: return try readBareGeometry(element, isEmpty: isEmpty)
        case .droppedFeature(let code):
            warn(code, "\(element) elements are not carried over", at: location())
            if !isEmpty { try parser.skipElement() }
        case .containerData:
            if !isEmpty && !headerDone && folders.depth <= 1 {
                try readDocumentData()
            } else {
                try dropContainerPart(element, isEmpty: isEmpty)
            }
        case .containerPart: try dropContainerPart(element, isEmpty: isEmpty)
        }
        return nil
    }

    func openContainer(_ element: String, isEmpty: Bool) {
        let isFolder = folders.start(element, isEmpty: isEmpty)
        if isEmpty && isFolder {
            warn(
                KMLCode.emptyFolderDropped,
                "an empty Folder is not carried over: folders are rebuilt from the features in them",
                at: location())
        }
    }

    func readContainerName(isEmpty: Bool) throws(XMLParseError) {
        guard let container = folders.current, !isEmpty else {
            if !isEmpty { try parser.skipElement() }  // outside any Document or Folder: nothing to carry
            return
        }
        let at = location()
        let text = try parser.readElementText()
        if folders.name(text, featuresMet: reports.featuresMet) {
            warn(
                KMLCode.foldersMerged,
                "this Folder and the one before it are both named \"\(text)\": they are written as one Folder",
                at: at, hint: "give sibling folders different names to keep them apart")
        }
        if !container.isFolder && !headerDone { header.name = text }
    }

    func readContainerDescription(isEmpty: Bool) throws(XMLParseError) {
        guard let container = folders.current, !isEmpty else {
            if !isEmpty { try parser.skipElement() }
            return
        }
        let at = location()
        let text = try parser.readElementMarkup()  // (XHTML kept as markup, as a placemark's)
        if !container.isFolder && !headerDone {
            header.description = text
        } else {
            warn(KMLCode.folderDescriptionDropped, "folder descriptions are not carried over", at: at)
        }
    }

    func readSharedStyle(isEmpty: Bool) throws(XMLParseError) {
        let id = parser.attribute("id")
        let place = location()
        if let id { reports.styleDefinitions.append((id, place)) }
        let style = isEmpty ? KMLStyle() : try parseStyle()
        if let id {
            tables.styles[id] = style
            if !isEmpty, style == KMLStyle() {
                // Every part of it was reported; the style itself is not written either.
                warn(
                    KMLCode.styleDropped,
                    "Style \"\(id)\" holds nothing geoconv keeps (its parts are reported); it is not written",
                    at: place)
                tables.droppedStyles.insert(id)
            }
        } else if !isEmpty {
            // Outside a feature and without an id, no styleUrl can name it.
            warn(
                KMLCode.unusedStyleDropped, "a shared Style without an id is used by no feature and is not written",
                at: place)
        }
    }

    func readSharedStyleMap(isEmpty: Bool) throws(XMLParseError) {
        let id = parser.attribute("id")
        if let id {
            reports.styleDefinitions.append((id, location()))
            reports.styleMapPlaces[id] = location()
        }
        let map = isEmpty ? KMLStyleMap() : try parseStyleMap()
        if let id { tables.styleMaps[id] = map }
    }

    /// Google Earth's gx:CascadingStyle kml:id="…" wraps a Style.
    func readCascadingStyle(isEmpty: Bool) throws(XMLParseError) {
        let id = parser.attribute("id")
        guard !isEmpty else { return }
        if let id { reports.styleDefinitions.append((id, location())) }
        try parser.forEachChild { (child, childEmpty) throws(XMLParseError) in
            if child == "Style" {
                let style = childEmpty ? KMLStyle() : try parseStyle()
                if let id { tables.styles[id] = style }
            } else if !childEmpty {
                try parser.skipElement()
            }
        }
    }

    func readSchema(isEmpty: Bool) throws(XMLParseError) {
        let id = parser.attribute("id") ?? parser.attribute("name") ?? ""
        let parent = parser.attribute("parent")
        let aliasName = parser.attribute("name")
        let fields = isEmpty ? [:] : try parseSchema(definedAt: parent == nil ? location() : nil)
        if parent == "Placemark", let aliasName { tables.placemarkAliases[aliasName] = fields }
        tables.schemas[id] = fields
        if let schemaName = parser.attribute("name"), tables.schemas[schemaName] == nil {
            tables.schemas[schemaName] = fields
        }
    }

    /// The first LookAt or Camera before any feature is the header's view.
    func readDocumentView(_ element: String, isEmpty: Bool) throws(XMLParseError) {
        guard !isEmpty else { return }
        let camera = try parseView(element)
        if !headerDone, header.camera == nil {
            header.camera = camera.camera
            // Its elements as read: written back exactly while the camera stays this one.
            if camera.camera != nil { header.foreignMembers[model: .view] = camera.elements }
        } else {
            warn(KMLCode.viewDropped, "a \(element) after the first feature is not carried over", at: location())
        }
    }

    func readFeature(_ element: String, isEmpty: Bool) throws(XMLParseError) -> Feature? {
        lastLocation = location()
        let id = parser.attribute("id")
        folders.count()
        reports.featuresMet += 1
        do throws(XMLParseError) {
            let feature = try parseFeature(element, id: id, isEmpty: isEmpty)
            if element == "NetworkLink", let href = feature.properties["href"]?.stringValue, href.contains("://"),
                let place = lastLocation
            {
                reports.remoteLinks.append((href, place))
            }
            return feature
        } catch {
            guard options.skipsInvalidFeatures, !error.isLimit, parser.sourceFailure == nil else { throw error }
            let error = inInput(error)
            record { () throws(GeoConvError) in
                try diagnostics.skip(
                    KMLCode.invalidFeatureSkipped, "skipped an invalid \(element): \(error.message)",
                    at: SourceLocation(
                        file: name, line: error.line > 0 ? error.line : nil,
                        column: error.column > 0 ? error.column : nil))
            }
            return nil
        }
    }

    /// A geometry outside any Placemark (a document whose root is a bare <Polygon>, as some
    /// exporters write): read as a feature of its own. GDAL refuses such a file.
    func readBareGeometry(_ element: String, isEmpty: Bool) throws(XMLParseError) -> Feature? {
        guard !isEmpty else { return nil }  // <Point/>: no value to carry
        lastLocation = location()
        reports.featuresMet += 1
        var feature = Feature(geometry: nil)
        var times: [JSONValue] = []
        let geometry = try parseGeometryOrWarn(element, into: &feature, times: &times)
        finish(
            &feature, styleUrl: nil, inlineStyle: nil, geometries: geometry.map { [$0] } ?? [], times: times,
            latLonBox: [:])
        return feature
    }

    /// The document's own data: geoconv's tile layers; anything else is reported.
    func readDocumentData() throws(XMLParseError) {
        var data = Feature(geometry: nil)
        try parseExtendedData(into: &data)
        if let value = data.properties.removeValue(forKey: .tileLayers) {
            header.tileLayers = TileLayer.layers(fromJSON: value.stringValue.flatMap(JSONText.parse) ?? value) ?? []
        }
        if !data.properties.isEmpty {
            warn(
                KMLCode.elementDropped,
                "a Document's or Folder's <ExtendedData> is not carried over: only placemarks, overlays and links, "
                    + "the document's name, description and first view are",
                at: location())
        }
    }

    func dropContainerPart(_ element: String, isEmpty: Bool) throws(XMLParseError) {
        warn(
            KMLCode.elementDropped,
            "a Document's or Folder's <\(element)> is not carried over: only placemarks, overlays and links, "
                + "the document's name, description and first view are",
            at: location())
        if !isEmpty { try parser.skipElement() }
    }
}

/// What the reader does with a child element of a Placemark, GroundOverlay, NetworkLink or
/// ScreenOverlay: the dispatch table of the feature level, read by `parseFeature`. A name
/// the table does not hold is a Schema field of a Placemark alias or a geometry (or
/// reported); so are `geometry` names while a Schema makes Placemark aliases (a field may
/// be named `Point`) and `overlayIcon` in a Placemark (whose icon is its style's).
enum KMLFeatureElement {
    /// Point, LineString, Polygon and MultiGeometry (the other geometries are read as unnamed
    /// children are, by `parseGeometryOrWarn`).
    case geometry
    case extendedData, name, description, snippet, visibility
    /// `address` and `phoneNumber`, kept as text.
    case contact
    case styleUrl, style, styleMap
    /// `LookAt` and `Camera`.
    case view
    case region, timeStamp, timeSpan
    /// An overlay's `Icon`.
    case overlayIcon
    /// A NetworkLink's `Link` (`Url` in KML 2.0).
    case link
    case latLonBox, latLonQuad
    /// An overlay's number or text elements (`altitude`, `drawOrder`, `color`…).
    case overlayValue

    static let table: [String: KMLFeatureElement] = {
        var table: [String: KMLFeatureElement] = [
            "ExtendedData": .extendedData, "name": .name, "description": .description, "Snippet": .snippet,
            "visibility": .visibility, "address": .contact, "phoneNumber": .contact, "styleUrl": .styleUrl,
            "Style": .style, "StyleMap": .styleMap, "LookAt": .view, "Camera": .view, "Region": .region,
            "TimeStamp": .timeStamp, "TimeSpan": .timeSpan, "Icon": .overlayIcon, "Link": .link, "Url": .link,
            "LatLonBox": .latLonBox, "LatLonQuad": .latLonQuad,
        ]
        for name in ["Point", "LineString", "Polygon", "MultiGeometry"] { table[name] = .geometry }
        for name in [
            "altitude", "altitudeMode", "drawOrder", "color", "refreshVisibility", "flyToView", "open", "rotation",
        ] {
            table[name] = .overlayValue
        }
        return table
    }()
}

/// `KMLFeatureElement.table`'s answers for the last names looked up, one per slot of 16
/// chosen by the name's length and first byte (a Placemark's usual children — `name`,
/// `description`, `styleUrl`, `Style`, `ExtendedData`, `Point`, `LineString`, `Polygon` —
/// each have a slot of their own): a document repeats a few child names, which the parser
/// hands out as the same strings, so a lookup is most often one comparison of equal strings
/// and no hashing. Names that share a slot are looked up in the table again.
struct KMLFeatureElementMemo {
    private var names = [String](repeating: "", count: 16)
    private var kinds = [KMLFeatureElement?](repeating: nil, count: 16)

    /// The kind of the child element `name` (`nil`: not in the table).
    mutating func kind(of name: String) -> KMLFeatureElement? {
        let slot = (name.utf8.count &+ Int(name.utf8.first ?? 0)) & 15
        if names[slot] == name { return kinds[slot] }
        let kind = KMLFeatureElement.table[name]
        names[slot] = name
        kinds[slot] = kind
        return kind
    }
}
