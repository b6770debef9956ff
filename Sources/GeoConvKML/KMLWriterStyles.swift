import GeoConvCore
internal import GeoConvXML

/// A placemark's style: written inline or as a shared `<Style>` (one per distinct style,
/// with ids that stay unique beside the document's own).
extension KMLWriterState {
    func writeStyle(_ feature: Feature, isOverlay: Bool) throws(GeoConvError) {
        // The very style written last, a copy of its box (not empty: it was written), by its
        // model style alone: rules and classes give thousands one style.
        if !hasAskedProperties, let last = lastStyleIdentity, last.isOverlay == isOverlay,
            feature.style.boxIdentity == last.box
        {
            if let xml = last.xml { referTo(xml) }
            return
        }
        // Nothing to draw and nothing KML keeps as style: most features.
        if feature.style.isEmpty && !hasAskedProperties { return }
        if !hasAskedProperties, let last = lastStyle, last.isOverlay == isOverlay, feature.style.writesAs(last.style) {
            // Styled as the last feature, by its model style alone: its outcome again.
            if let xml = last.xml { referTo(xml) }
            return
        }
        var style = KMLStyle(feature: feature)
        if isOverlay { style.iconHref = nil }  // the overlay's image, written as its <Icon>
        if feature.style.spans.count > 0 {
            if style.lineColor == nil, let first = feature.style.spans.first { style.lineColor = first.style.fromColor }
            try warn(
                KMLCode.spansNotDrawn,
                "style spans are kept in ExtendedData (\(ModelKey.spans.name)) but KML viewers draw one line colour",
                hint: "explode spans into one line per span (--explode-spans) to see them in other viewers")
        }
        if feature.style.opacity != nil || feature.style.zIndex != nil || feature.style.infoWindowAnchor != nil {
            try warn(
                KMLCode.markerOptionsAsData,
                "marker opacity, z-index and info-window anchor have no KML element; they are kept in ExtendedData")
        }
        var preferred = property("styleUrl", of: feature)?.stringValue.map {
            $0.hasPrefix("#") ? String($0.dropFirst()) : $0
        }
        if let candidate = preferred, !KMLWriterState.isNCName(candidate) {
            // KML's ids are XML names (xsd:ID): the OGC schema refuses "14erStyle".
            try warn(
                KMLCode.styleIDRenamed,
                "the style id \"\(candidate)\" is not an XML name, as KML's ids must be: the style is "
                    + "written under an id of geoconv's, and the placemarks' styleUrl name that",
                hint: "start the id with a letter or an underscore, and use letters, digits, '-', '_' and '.'")
            preferred = nil
        }
        var highlightID: String?
        if let highlight = property(.highlightStyle, of: feature) {
            var styled = Feature(geometry: nil, properties: highlight)
            StyleProperties.derive(into: &styled)
            let highlightStyle = KMLStyle(feature: styled)
            if !highlightStyle.isEmpty { highlightID = sharedStyle(text(of: highlightStyle)) }
        }
        // What only the model style decides (no property asked for, nothing reported) is kept
        // for the next feature styled alike: style rules and classes give thousands one style.
        let remembers =
            !hasAskedProperties && feature.style.spans.isEmpty && feature.style.opacity == nil
            && feature.style.zIndex == nil && feature.style.infoWindowAnchor == nil
        guard !style.isEmpty || highlightID != nil else {
            if remembers { remember(feature.style, isOverlay: isOverlay, xml: nil) }
            // A reference to a style the document does not hold (another file's, or one the
            // source left out) is written as it is: Google Earth and GDAL keep it so.
            if let url = property("styleUrl", of: feature)?.stringValue, !url.isEmpty {
                append("<styleUrl>")
                XMLEscaping.appendText(url, to: &buffer)
                append("</styleUrl>")
            }
            return
        }
        guard let highlightID else {
            let xml = text(of: style)
            if remembers { remember(feature.style, isOverlay: isOverlay, xml: xml) }
            if preferred == nil { return referTo(xml) }
            let id = try sharedStyle(xml, preferred: preferred)
            append(text: "<styleUrl>#\(XMLEscaping.text(id))</styleUrl>")
            return
        }
        // A StyleMap: the source's styleUrl named the map, so the map gets that id.
        let normalID = sharedStyle(text(of: style))
        let key = normalID + "|" + highlightID
        // As with styles: a map the source named keeps its name; others share one per pair.
        let mapID: String
        if let preferred, styleMaps[preferred] == key {
            mapID = preferred
        } else if let preferred, !usedIDs.contains(preferred) {
            usedIDs.insert(preferred)
            mapID = preferred
            styleMaps[preferred] = key
            if styleMapIDs[key] == nil { styleMapIDs[key] = preferred }
        } else if let existing = styleMapIDs[key] {
            mapID = existing
        } else {
            mapID = freshID(preferred: nil, generated: "m\(styleMaps.count + 1)")
            styleMaps[mapID] = key
            styleMapIDs[key] = mapID
        }
        append(text: "<styleUrl>#\(XMLEscaping.text(mapID))</styleUrl>")
    }

    /// The id of the shared `<Style>` with this XML, made on first use. A style the source
    /// named (`preferred`) keeps its name, even beside an identical style of another name, as
    /// Google Earth and GDAL keep it: a reference from another file (`doc.kml#b`) still finds
    /// it. Styles of no name share the first id their XML was written under.
    /// `style`'s `<Style>` text, made once for each distinct style.
    func text(of style: KMLStyle) -> String {
        if let known = styleTexts[style] { return known }
        let xml = style.xml
        if styleTexts.count >= KMLStyle.remembered { styleTexts.removeAll(keepingCapacity: true) }
        styleTexts[style] = xml
        return xml
    }

    func sharedStyle(_ xml: String, preferred: String?) throws(GeoConvError) -> String {
        if let preferred {
            if styles[preferred] == xml { return preferred }
            if !usedIDs.contains(preferred) {
                usedIDs.insert(preferred)
                styles[preferred] = xml
                if styleIDs[xml] == nil { styleIDs[xml] = preferred }
                return preferred
            }
            // The style differs from the one of that name (an inline Style merged into it) or the
            // name is another element's: a style of its own, under an id of geoconv's.
            try warn(
                KMLCode.styleIDRenamed,
                "the placemark's style differs from the style \"\(preferred)\" it names (an inline Style "
                    + "is merged into it), or the id is taken: it is written as a style of its own, under an "
                    + "id of geoconv's",
                hint: "a styleUrl and an inline Style on one placemark make one style in geoconv's model")
        }
        return sharedStyle(xml)
    }

    /// Keeps `style` as the last one written by itself (`lastStyle`), with its identity
    /// (`lastStyleIdentity`, which `lastStyle` keeps its own: the two are written only here).
    private func remember(_ style: Style, isOverlay: Bool, xml: String?) {
        lastStyle = (style, isOverlay, xml)
        lastStyleIdentity = style.boxIdentity.map { ($0, isOverlay, xml) }
    }

    /// The placemark's reference to the shared style with this XML, which no source named:
    /// its `styleUrl`, or, in a records writer, its place for the document's writer to fill.
    private func referTo(_ xml: String) {
        if styleReferences != nil {
            if let known = knownStyleURL(xml) {
                buffer.append(contentsOf: known)
            } else {
                styleReferences?.append(StyleReference(offset: buffer.count, xml: xml))
            }
            return
        }
        let reference = styleURL(xml)  // (the style named even into nowhere: its id is given)
        if !discards { buffer.append(contentsOf: reference) }
    }

    /// `<styleUrl>#id</styleUrl>`.
    static func styleURLBytes(id: String) -> [UInt8] {
        var bytes: [UInt8] = []
        append("<styleUrl>#", to: &bytes)
        XMLEscaping.appendText(id, to: &bytes)
        append("</styleUrl>", to: &bytes)
        return bytes
    }

    /// The `<styleUrl>` naming the shared style with this XML (`sharedStyle(_:)`), made once
    /// for the last style named: placemarks styled alike come in runs, and an id, once
    /// given, stays.
    func styleURL(_ xml: String) -> [UInt8] {
        if let last = lastReference, last.xml == xml { return last.bytes }
        let bytes = Self.styleURLBytes(id: sharedStyle(xml))
        lastReference = (xml, bytes)
        recordsShare?.record(bytes, for: xml)
        return bytes
    }

    /// In a records writer's state: the `<styleUrl>` the document's writer gave the style
    /// with this XML (`recordsShare`), `nil` while it has given none.
    private func knownStyleURL(_ xml: String) -> [UInt8]? {
        if let last = lastReference, last.xml == xml { return last.bytes }
        let bytes: [UInt8]
        if let known = knownStyleURLs[xml] {
            bytes = known
        } else {
            guard let given = recordsShare?.styleURL(xml) else { return nil }
            if knownStyleURLs.count >= KMLStyle.remembered { knownStyleURLs.removeAll() }
            knownStyleURLs[xml] = given
            bytes = given
        }
        lastReference = (xml, bytes)
        return bytes
    }

    /// The id of the shared `<Style>` with this XML for styles no source named: the first id
    /// the XML was written under, or one made now. (The last one asked for is kept: features
    /// styled alike come in runs.)
    func sharedStyle(_ xml: String) -> String {
        if let last = lastSharedStyle, last.xml == xml { return last.id }
        let id: String
        if let existing = styleIDs[xml] {
            id = existing
        } else {
            id = freshID(preferred: nil, generated: "s\(styles.count + 1)")
            styles[id] = xml
            styleIDs[xml] = id
        }
        lastSharedStyle = (xml, id)
        return id
    }

    /// `preferred` when it is free, else `generated` made unique; recorded as used.
    func freshID(preferred: String?, generated: String) -> String {
        var id = preferred.flatMap { usedIDs.contains($0) ? nil : $0 } ?? generated
        while usedIDs.contains(id) { id += "_" }
        usedIDs.insert(id)
        return id
    }
}
