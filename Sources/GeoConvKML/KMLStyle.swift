import GeoConvCore
import GeoConvFormatKit
internal import GeoConvXML

/// A KML `<Style>` as read: the parts geoconv maps, each optional so that an inline style
/// can override only what it says (KML's cascading of shared and inline styles).
struct KMLStyle: Hashable, Sendable {
    /// The simplestyle and geoconv style properties KML has no element for: read from and
    /// written to ExtendedData.
    static let extendedDataStyleKeys = NameSet([
        "marker-symbol", "marker-size", ModelKey.spans.name, ModelKey.infoWindowAnchor.name,
        ModelKey.opacity.name, ModelKey.zIndex.name,
    ])

    /// How many styles' texts a writer remembers (`KMLWriterState.styleTexts`).
    static let remembered = 4096

    var lineColor: Color?
    var lineWidth: Double?
    var polyColor: Color?
    var polyFill: Bool?
    var polyOutline: Bool?
    var iconHref: String?
    var iconScale: Double?
    var iconHeading: Double?
    var iconColor: Color?
    var hotSpot: (x: Double, y: Double, xUnits: String, yUnits: String)?
    var labelColor: Color?
    var labelScale: Double?
    var balloonText: String?

    static func == (a: KMLStyle, b: KMLStyle) -> Bool {
        a.lineColor == b.lineColor && a.lineWidth == b.lineWidth && a.polyColor == b.polyColor
            && a.polyFill == b.polyFill
            && a.polyOutline == b.polyOutline && a.iconHref == b.iconHref && a.iconScale == b.iconScale
            && a.iconHeading == b.iconHeading && a.iconColor == b.iconColor && a.hotSpot?.x == b.hotSpot?.x
            && a.hotSpot?.y == b.hotSpot?.y && a.hotSpot?.xUnits == b.hotSpot?.xUnits
            && a.hotSpot?.yUnits == b.hotSpot?.yUnits
            && a.labelColor == b.labelColor && a.labelScale == b.labelScale && a.balloonText == b.balloonText
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(lineColor)
        hasher.combine(lineWidth)
        hasher.combine(polyColor)
        hasher.combine(iconHref)
    }

    /// This style with `other`'s fields laid over it (an inline style over a shared one).
    func overridden(by other: KMLStyle) -> KMLStyle {
        var result = self
        result.lineColor = other.lineColor ?? lineColor
        result.lineWidth = other.lineWidth ?? lineWidth
        result.polyColor = other.polyColor ?? polyColor
        result.polyFill = other.polyFill ?? polyFill
        result.polyOutline = other.polyOutline ?? polyOutline
        result.iconHref = other.iconHref ?? iconHref
        result.iconScale = other.iconScale ?? iconScale
        result.iconHeading = other.iconHeading ?? iconHeading
        result.iconColor = other.iconColor ?? iconColor
        result.hotSpot = other.hotSpot ?? hotSpot
        result.labelColor = other.labelColor ?? labelColor
        result.labelScale = other.labelScale ?? labelScale
        result.balloonText = other.balloonText ?? balloonText
        return result
    }

    /// Sets the feature's style (and the togeojson properties the model has no field for).
    func apply(to feature: inout Feature) {
        if let lineColor { feature.style.strokeColor = lineColor }
        if let lineWidth { feature.style.strokeWidth = lineWidth }
        if let polyColor { feature.style.fillColor = polyColor }
        if polyFill == false { feature.style.fillColor = (feature.style.fillColor ?? .white).withOpacity(0) }
        if polyOutline == false { feature.style.strokeColor = (feature.style.strokeColor ?? .white).withOpacity(0) }
        if let iconHref { feature.style.icon = iconHref }
        if let iconScale { feature.style.iconScale = iconScale }
        if let iconHeading { feature.style.rotation = iconHeading }
        if let iconColor { feature.style.markerColor = iconColor }
        if let hotSpot {
            if hotSpot.xUnits == "fraction" && hotSpot.yUnits == "fraction" {
                feature.style.groundAnchor = Anchor(x: hotSpot.x, y: 1 - hotSpot.y)
            } else {
                feature.properties["icon-offset"] = .array([KMLStyle.number(hotSpot.x), KMLStyle.number(hotSpot.y)])
                feature.properties["icon-offset-units"] = .array([.string(hotSpot.xUnits), .string(hotSpot.yUnits)])
            }
        }
        if let labelColor {
            feature.properties["label-color"] = .string(labelColor.cssHex)
            feature.properties["label-opacity"] = KMLStyle.number(labelColor.opacity)
        }
        if let labelScale { feature.properties["label-scale"] = KMLStyle.number(labelScale) }
        if let balloonText { feature[model: .balloonText] = balloonText }
    }

    static func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }

    /// The KML style that draws a feature's model style (the properties the reader turned
    /// into style are read back too, so a KML → KML trip keeps them).
    init(feature: Feature) {
        let style = feature.style
        lineColor = style.strokeColor
        lineWidth = style.strokeWidth
        polyColor = style.fillColor
        // An outline or fill of opacity 0 is KML's outline or fill off (as read), which
        // Google Earth and GDAL honour on polygons whatever the colour.
        if let stroke = style.strokeColor, stroke.alphaByte == 0 { polyOutline = false }
        if let fill = style.fillColor, fill.alphaByte == 0 { polyFill = false }
        iconHref = style.icon
        iconScale = style.iconScale
        iconHeading = style.rotation
        iconColor = style.markerColor
        if let anchor = style.groundAnchor {
            hotSpot = (anchor.x, 1 - anchor.y, "fraction", "fraction")
        } else if let offset = feature.properties["icon-offset"]?.arrayValue, offset.count == 2,
            let x = offset[0].doubleValue, let y = offset[1].doubleValue
        {
            let units = feature.properties["icon-offset-units"]?.arrayValue?.compactMap(\.stringValue) ?? []
            hotSpot = (x, y, units.first ?? "pixels", units.count > 1 ? units[1] : "pixels")
        }
        if let text = feature.properties["label-color"]?.stringValue, let color = Color(css: text) {
            labelColor = color.withOpacity(feature.properties["label-opacity"]?.doubleValue ?? 1)
        }
        labelScale = feature.properties["label-scale"]?.doubleValue
        balloonText = feature[model: .balloonText]
    }

    init() {}

    var isEmpty: Bool { self == KMLStyle() }

    /// The `<Style>` element's children as KML text.
    var xml: String {
        var out = ""
        if iconHref != nil || iconScale != nil || iconHeading != nil || iconColor != nil || hotSpot != nil {
            out += "<IconStyle>"
            if let iconColor { out += "<color>\(iconColor.kmlHex)</color>" }
            if let iconScale { out += "<scale>\(DecimalFormatter.shortest(iconScale))</scale>" }
            if let iconHeading { out += "<heading>\(DecimalFormatter.shortest(iconHeading))</heading>" }
            if let iconHref { out += "<Icon><href>\(XMLEscaping.text(iconHref))</href></Icon>" }
            if let hotSpot {
                out +=
                    "<hotSpot x=\"\(DecimalFormatter.shortest(hotSpot.x))\" y=\"\(DecimalFormatter.shortest(hotSpot.y))\" xunits=\"\(XMLEscaping.attribute(hotSpot.xUnits))\" yunits=\"\(XMLEscaping.attribute(hotSpot.yUnits))\"/>"
            }
            out += "</IconStyle>"
        }
        if labelColor != nil || labelScale != nil {
            out += "<LabelStyle>"
            if let labelColor { out += "<color>\(labelColor.kmlHex)</color>" }
            if let labelScale { out += "<scale>\(DecimalFormatter.shortest(labelScale))</scale>" }
            out += "</LabelStyle>"
        }
        if lineColor != nil || lineWidth != nil {
            out += "<LineStyle>"
            if let lineColor { out += "<color>\(lineColor.kmlHex)</color>" }
            if let lineWidth { out += "<width>\(DecimalFormatter.shortest(lineWidth))</width>" }
            out += "</LineStyle>"
        }
        if polyColor != nil || polyFill != nil || polyOutline != nil {
            out += "<PolyStyle>"
            if let polyColor { out += "<color>\(polyColor.kmlHex)</color>" }
            if let polyFill { out += "<fill>\(polyFill ? 1 : 0)</fill>" }
            if let polyOutline { out += "<outline>\(polyOutline ? 1 : 0)</outline>" }
            out += "</PolyStyle>"
        }
        if let balloonText {
            out += "<BalloonStyle><text>\(XMLEscaping.cdataOrText(balloonText))</text></BalloonStyle>"
        }
        return out
    }
}

/// The property names the KML codec uses for KML facts the model has no field for, besides
/// the model's own `geoconv:` keys (`ModelKey`: `folder`, `altitudeMode`, `view`, …).
package enum KMLNames {
    /// A ScreenOverlay's positions on the screen, in schema order (each `{x, y, xunits, yunits}`).
    static let screenPlaces = ["overlayXY", "screenXY", "rotationXY", "size"]
    /// What a feature stood for in KML, as togeojson says it: `groundoverlay`, `networklink`.
    package static let geometryType = "@geometry-type"
    /// Properties of the model kept in ExtendedData as JSON text.
    static let jsonValued = NameSet([
        ModelKey.spans.name, ModelKey.groundAnchor.name, ModelKey.infoWindowAnchor.name,
        ModelKey.opacity.name, ModelKey.zIndex.name, ModelKey.geodesic.name, ModelKey.radius.name,
        ModelKey.circleCenter.name, ModelKey.folder.name, ModelKey.latLonBox.name,
        ModelKey.latLonQuad.name, "coordinateProperties", "timespan", "icon-offset",
        "icon-offset-units", ModelKey.id.name, ModelKey.highlightStyle.name, ModelKey.view.name,
        ModelKey.region.name, ModelKey.displayNames.name,
    ])
}

/// A `StyleMap`: its normal and highlight styles, each a URL or an inline `Style`.
struct KMLStyleMap {
    var normal: String?
    var normalInline: KMLStyle?
    var highlight: String?
    var highlightInline: KMLStyle?
}
