import GeoConvCore
import GeoConvFormatKit
internal import GeoConvXML

/// Styles, StyleMaps and schemas: read where they are defined, resolved as a placemark ends.
extension KMLReaderState {

    func parseStyle() throws(XMLParseError) -> KMLStyle {
        let start = location()
        var style = KMLStyle()
        try readStyle(parent: nil, into: &style)
        // The model has no fill or outline switch: "off" is a colour of opacity 0, which
        // loses the colour's own opacity (written back as that colour at opacity 0).
        if style.polyFill == false, let color = style.polyColor, color.alphaByte != 0 {
            warn(
                KMLCode.fillOffAsOpacity,
                "a PolyStyle with <fill>0</fill> is read as a fill of opacity 0: its colour's alpha (\(Self.hex(color.alphaByte))) is not kept",
                at: start)
        }
        if style.polyOutline == false, let color = style.lineColor, color.alphaByte != 0 {
            warn(
                KMLCode.outlineOffAsOpacity,
                "a PolyStyle with <outline>0</outline> is read as an outline of opacity 0: the LineStyle colour's alpha (\(Self.hex(color.alphaByte))) is not kept",
                at: start)
        }
        return style
    }

    /// The `<color>` being read: `aabbggrr` (a leading `#` tolerated); anything else is
    /// reported where it stands and no colour is applied.
    private func color() throws(XMLParseError) -> Color? {
        let at = location()
        let text = try parser.readElementText()
        if let color = Color(kml: text) { return color }
        warn(
            KMLCode.invalidColor,
            "<color>\(text.trimmed)</color> is not a KML colour (aabbggrr: 8 hexadecimal digits); no colour is applied",
            at: at, hint: "write the colour as 8 hexadecimal digits, alpha first: ff0000ff is opaque red")
        return nil
    }

    /// A byte as two hexadecimal digits, as KML colours spell them.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The children of a Style or of one of its sub-styles (`parent`), into `style`.
    private func readStyle(parent: String?, into style: inout KMLStyle) throws(XMLParseError) {
        try parser.forEachChild { (element, isEmpty) throws(XMLParseError) in
            if element == "hotSpot" {
                style.hotSpot = hotSpot()
                if !isEmpty { try parser.skipElement() }
                return
            }
            guard !isEmpty else { return }
            switch (parent, element) {
            case ("LineStyle", "color"): style.lineColor = try color()
            case ("LineStyle", "width"): style.lineWidth = Double(try parser.readElementText().trimmed)
            case ("PolyStyle", "color"): style.polyColor = try color()
            case ("PolyStyle", "fill"): style.polyFill = Self.kmlBool(try parser.readElementText())
            case ("PolyStyle", "outline"): style.polyOutline = Self.kmlBool(try parser.readElementText())
            case ("IconStyle", "color"): style.iconColor = try color()
            case ("IconStyle", "scale"): style.iconScale = Double(try parser.readElementText().trimmed)
            case ("IconStyle", "heading"): style.iconHeading = Double(try parser.readElementText().trimmed)
            case ("Icon", "href"): style.iconHref = try parser.readElementText().trimmed
            case ("LabelStyle", "color"): style.labelColor = try color()
            case ("LabelStyle", "scale"): style.labelScale = Double(try parser.readElementText().trimmed)
            case ("BalloonStyle", "text"): style.balloonText = try parser.readElementText()
            default:
                if Self.subStyles.contains(element) {
                    try readStyle(parent: element, into: &style)
                } else {
                    warn(
                        KMLCode.styleElementDropped,
                        "<\(element)> in a \(parent.map { "<\($0)>" } ?? "Style") is not carried over: geoconv keeps line, polygon, icon and label colours, widths and scales, the icon, its heading and hot spot, fill, outline and balloon text",
                        at: location())
                    try parser.skipElement()
                }
            }
        }
    }

    /// The elements of a Style whose children it reads.
    private static let subStyles: Set<String> = [
        "LineStyle", "PolyStyle", "IconStyle", "LabelStyle", "BalloonStyle", "Icon", "ListStyle",
    ]

    func hotSpot() -> (x: Double, y: Double, xUnits: String, yUnits: String)? {
        guard let x = parser.attribute("x").flatMap({ Double($0) }),
            let y = parser.attribute("y").flatMap({ Double($0) })
        else { return nil }
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
        try parser.forEachChild { (element, isEmpty) throws(XMLParseError) in
            guard !isEmpty else { return }
            guard element == "Pair" else { return try parser.skipElement() }
            var key: String?
            var url: String?
            var pairStyle: KMLStyle?
            try parser.forEachChild { (child, childEmpty) throws(XMLParseError) in
                guard !childEmpty else { return }
                switch child {
                case "key": key = try parser.readElementText().trimmed
                case "styleUrl": url = try parser.readElementText().trimmed
                case "Style": pairStyle = try parseStyle()
                default: try parser.skipElement()
                }
            }
            if key == "highlight" {
                map.highlight = url
                map.highlightInline = pairStyle
            } else {
                map.normal = url
                map.normalInline = pairStyle
            }
        }
        return map
    }

    /// A Schema's fields; with `definedAt` (where the Schema starts), each field's place is
    /// kept, to report the fields no feature uses.
    func parseSchema(
        definedAt schemaStart: SourceLocation? = nil
    ) throws(XMLParseError) -> [String: (type: String, displayName: String?)] {
        var fields: [String: (type: String, displayName: String?)] = [:]
        try parser.forEachChild { (element, isEmpty) throws(XMLParseError) in
            // (gx:SimpleArrayField: a track's per-point array, `KMLTrackArrays`.)
            guard element == "SimpleField" || element == "SimpleArrayField", let fieldName = parser.attribute("name")
            else {
                if !isEmpty { try parser.skipElement() }
                return
            }
            if let schemaStart { reports.schemaFieldDefinitions.append((fieldName, location(), schemaStart)) }
            let type = (parser.attribute("type") ?? "string").lowercased()
            let displayName = isEmpty ? nil : try parseChildren()["displayName"]
            fields[fieldName] = (type, displayName)
        }
        return fields
    }

    /// The model style a `styleUrl` names (a local `#id` of a Style or StyleMap).
    func resolve(_ url: String, into feature: inout Feature, visited: Set<String> = []) -> KMLStyle? {
        let trimmed = url.trimmed
        guard !visited.contains(trimmed), visited.count < 16 else {
            // Reported at the placemark, whose styleUrl is not written; the loop's StyleMaps
            // are reported where they are defined, at the document's end (`reportStyleLoops`).
            warn(
                KMLCode.styleReferenceDropped,
                "styleUrl \"\(trimmed)\" leads into a loop of StyleMaps; the reference is not written",
                at: lastLocation)
            return nil
        }
        guard let hash = trimmed.firstIndex(of: "#") else {
            warn(
                KMLCode.styleUnresolved,
                "styleUrl \"\(trimmed)\" is not a local #id; styles in other files are not fetched",
                at: lastLocation)
            return nil
        }
        if hash != trimmed.startIndex {
            warn(
                KMLCode.externalStyle, "styleUrl \"\(trimmed)\" points into another file, which geoconv never fetches",
                at: lastLocation)
            return nil
        }
        let id = String(trimmed[trimmed.index(after: hash)...])
        if tables.styles[id] == nil, tables.styleMaps[id] == nil, let forwardStyles = tables.forwardStyles {
            // Defined further on (or nowhere): Google Earth applies a style wherever it is defined.
            let found = forwardStyles.definition(of: id)
            if let style = found.style { tables.styles[id] = style }
            if let map = found.map { tables.styleMaps[id] = map }
        }
        if tables.styles[id] != nil || tables.styleMaps[id] != nil, reports.lastUsedStyle != id {
            reports.usedStyles.insert(id)
            reports.lastUsedStyle = id
        }
        if tables.droppedStyles.contains(id) {
            warn(
                KMLCode.styleReferenceDropped,
                "styleUrl \"\(trimmed)\" names a Style that holds nothing geoconv keeps; the reference is not written",
                at: lastLocation)
        }
        if let style = tables.styles[id] { return style }
        if let map = tables.styleMaps[id] {
            applyHighlight(of: map, to: &feature, visited: visited.union([trimmed]))
            if let inline = map.normalInline { return inline }
            if let normal = map.normal { return resolve(normal, into: &feature, visited: visited.union([trimmed])) }
            return nil
        }
        if tables.forwardStyles?.canReread == true {
            warn(
                KMLCode.styleUnresolved,
                "styleUrl \"\(trimmed)\" names no Style or StyleMap of the document; no style is applied",
                at: lastLocation, hint: "define the style, or point the styleUrl at one that is defined")
        } else {
            warn(
                KMLCode.styleUnresolved,
                "styleUrl \"\(trimmed)\" names no Style or StyleMap defined before it, and standard input cannot be read again to find one further on; its style is not applied",
                at: lastLocation,
                hint: "read the file by its name, or define shared styles before the placemarks that use them")
        }
        return nil
    }

    /// At the end of the document: the shared styles no feature used, reported (geoconv keeps
    /// a style as the style of the features that use it, so they are not written).
    /// At the document's end: each StyleMap whose pairs lead back to it through other
    /// StyleMaps, reported where it is defined (no style comes of it; it is not written).
    func reportStyleLoops() {
        func id(_ url: String) -> String {
            let trimmed = url.trimmed
            return trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        }
        for (mapID, place) in reports.styleMapPlaces.sorted(by: {
            ($0.value.line ?? 0, $0.value.column ?? 0) < ($1.value.line ?? 0, $1.value.column ?? 0)
        }) {
            // Depth-first through the maps its pairs name, up to 16 deep, as `resolve` goes.
            var stack: [(id: String, depth: Int)] = [(mapID, 0)]
            var seen: Set<String> = []
            var loops = false
            while let (current, depth) = stack.popLast(), !loops {
                guard depth < 16, seen.insert(current).inserted, let map = tables.styleMaps[current] else { continue }
                for url in [map.normal, map.highlight].compactMap({ $0 }) {
                    let next = id(url)
                    if next == mapID { loops = true }
                    if tables.styleMaps[next] != nil { stack.append((next, depth + 1)) }
                }
            }
            if loops {
                warn(
                    KMLCode.styleLoop,
                    "StyleMap \"\(mapID)\" leads back to itself through StyleMaps; no style comes of it and it is not written",
                    at: place)
            }
        }
    }

    func reportUnusedStyles() {
        reportStyleLoops()
        // And the schema fields no SimpleData or gx:SimpleArrayData used: the writer types
        // its schema from the values it writes, so a field without a value is not written.
        var schemaInUse: Set<SourceLocation> = []
        for (name, _, schema) in reports.schemaFieldDefinitions where reports.usedFields.contains(name) {
            schemaInUse.insert(schema)
        }
        var schemasReported: Set<SourceLocation> = []
        for (name, location, schema) in reports.schemaFieldDefinitions where !reports.usedFields.contains(name) {
            if schemaInUse.contains(schema) {
                warn(
                    KMLCode.unusedSchemaField,
                    "the schema field \"\(name)\" holds no feature's value and is not written (nor its type and display name)",
                    at: location)
            } else if schemasReported.insert(schema).inserted {
                // No field of it is used: the Schema as a whole, where it starts.
                warn(
                    KMLCode.unusedSchemaField,
                    "no field of this Schema holds a feature's value; it is not written (nor its fields' types and display names)",
                    at: schema)
            }
        }
        for (id, location) in reports.styleDefinitions where !reports.usedStyles.contains(id) {
            warn(
                KMLCode.unusedStyleDropped,
                "shared style \"\(id)\" is used by no feature as it is defined and is not written: geoconv keeps "
                    + "styles as the styles of the features that use them",
                at: location)
        }
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
        feature[model: .highlightStyle] = StyleProperties.merged(styled)
    }

}
