import GeoConvCore
internal import GeoConvXML

/// A placemark's style: written inline or as a shared `<Style>` (one per distinct style,
/// with ids that stay unique beside the document's own).
extension KMLWriterState {
    func writeStyle(_ feature: Feature, isOverlay: Bool) throws(GeoConvError) {
        // Nothing to draw and nothing KML keeps as style: most features.
        if feature.style.isEmpty && !hasAskedProperties { return }
        var style = KMLStyle(feature: feature)
        if isOverlay { style.iconHref = nil }  // the overlay's image, written as its <Icon>
        if feature.style.spans.count > 0 {
            if style.lineColor == nil, let first = feature.style.spans.first { style.lineColor = first.style.fromColor }
            try warn("kml.spans-not-drawn",
                     "style spans are kept in ExtendedData (\(ModelKey.spans.name)) but KML viewers draw one line colour",
                     hint: "explode spans into one line per span (--explode-spans) to see them in other viewers")
        }
        if feature.style.opacity != nil || feature.style.zIndex != nil || feature.style.infoWindowAnchor != nil {
            try warn("kml.marker-options-as-data",
                     "marker opacity, z-index and info-window anchor have no KML element; they are kept in ExtendedData")
        }
        var preferred = property("styleUrl", of: feature)?.stringValue.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
        if let candidate = preferred, !KMLWriterState.isNCName(candidate) { preferred = nil }
        var highlightID: String?
        if let highlight = property(.highlightStyle, of: feature) {
            var styled = Feature(geometry: nil, properties: highlight)
            StyleProperties.derive(into: &styled)
            let highlightStyle = KMLStyle(feature: styled)
            if !highlightStyle.isEmpty { highlightID = sharedStyle(highlightStyle.xml, preferred: nil) }
        }
        guard !style.isEmpty || highlightID != nil else { return }
        guard let highlightID else {
            if styleReferences != nil, preferred == nil {
                // A records writer's placemark: the shared style's id is the document writer's to give.
                styleReferences?.append(StyleReference(offset: buffer.count, xml: style.xml))
                return
            }
            append(text: "<styleUrl>#\(XMLEscaping.text(sharedStyle(style.xml, preferred: preferred)))</styleUrl>")
            return
        }
        // A StyleMap: the source's styleUrl named the map, so the map gets that id.
        let normalID = sharedStyle(style.xml, preferred: nil)
        let key = normalID + "|" + highlightID
        let mapID: String
        if let existing = styleMaps[key] {
            mapID = existing
        } else {
            mapID = freshID(preferred: preferred, generated: "m\(styleMaps.count + 1)")
            styleMaps[key] = mapID
        }
        append(text: "<styleUrl>#\(XMLEscaping.text(mapID))</styleUrl>")
    }

    /// The id of the shared `<Style>` with this XML, made on first use.
    func sharedStyle(_ xml: String, preferred: String?) -> String {
        if let existing = styles[xml] { return existing }
        let id = freshID(preferred: preferred, generated: "s\(styles.count + 1)")
        styles[xml] = id
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
