import GeoConvCore

/// A feature's style as GDAL's feature style string (the OGR Feature Style Specification), the
/// text of an `OGR_STYLE` column: GDAL gives such a column's text as the feature's style
/// (`OGRFeature::GetStyleString`), so its KML and DXF writers draw what the model drew, and
/// geoconv's reader reads it back as the style.
///
/// - `PEN(c:#rrggbbaa,w:2px)` the stroke's colour and width; `BRUSH(fc:#rrggbbaa)` the fill;
///   `SYMBOL(id:"icon",c:#rrggbbaa,s:1.5,a:30)` the marker's icon, tint, scale and angle (the
///   specification's angle is counter-clockwise, the model's rotation clockwise).
/// - Not held (each named in a warning): gradients and spans along a line, geodesic lines,
///   simplestyle's marker symbol and size, anchors, opacity and z-index.
enum GeoPackageStyle {
    /// The column's name, as GDAL spells it.
    static let column = "OGR_STYLE"

    /// The style string of `style`, and the parts it cannot hold (empty when it holds all).
    static func text(of style: Style) -> (text: String, dropped: [String]) {
        var tools: [String] = []
        var dropped: [String] = []
        var pen: [String] = []
        if let color = style.strokeColor { pen.append("c:" + hex(color)) }
        if let width = style.strokeWidth { pen.append("w:" + DecimalFormatter.shortest(width) + "px") }
        if !pen.isEmpty { tools.append("PEN(" + pen.joined(separator: ",") + ")") }
        if let fill = style.fillColor { tools.append("BRUSH(fc:" + hex(fill) + ")") }
        var symbol: [String] = []
        if let icon = style.icon { symbol.append("id:\"" + icon.replacing("\"", with: "\\\"") + "\"") }
        if let color = style.markerColor { symbol.append("c:" + hex(color)) }
        if let scale = style.iconScale { symbol.append("s:" + DecimalFormatter.shortest(scale)) }
        if let rotation = style.rotation {
            let angle = (360 - rotation).truncatingRemainder(dividingBy: 360)
            symbol.append("a:" + DecimalFormatter.shortest(angle == 0 ? 0 : angle))
        }
        if !symbol.isEmpty { tools.append("SYMBOL(" + symbol.joined(separator: ",") + ")") }
        if !style.spans.isEmpty { dropped.append("spans along the line") }
        if style.geodesic != nil { dropped.append("geodesic") }
        if style.markerSymbol != nil { dropped.append("marker symbol") }
        if style.markerSize != nil { dropped.append("marker size") }
        if style.groundAnchor != nil || style.infoWindowAnchor != nil { dropped.append("anchors") }
        if style.opacity != nil { dropped.append("opacity") }
        if style.zIndex != nil { dropped.append("z-index") }
        return (tools.joined(separator: ";"), dropped)
    }

    /// The style a style string says; `nil` when it says nothing the model holds.
    static func style(of text: String) -> Style? {
        var style = Style()
        for tool in tools(of: text) {
            for (name, value) in tool.parameters {
                switch (tool.name, name) {
                case ("PEN", "c"): style.strokeColor = color(value)
                case ("PEN", "w"): style.strokeWidth = length(value)
                case ("BRUSH", "fc"): style.fillColor = color(value)
                case ("SYMBOL", "id"): style.icon = value.isEmpty ? nil : value
                case ("SYMBOL", "c"): style.markerColor = color(value)
                case ("SYMBOL", "s"): style.iconScale = Double(value)
                case ("SYMBOL", "a"):
                    style.rotation = Double(value).map { angle in
                        let clockwise = (360 - angle).truncatingRemainder(dividingBy: 360)
                        return clockwise == 0 ? 0 : clockwise
                    }
                default: continue
                }
            }
        }
        return style.isEmpty ? nil : style
    }

    /// `#rrggbb`, with `aa` when not opaque.
    private static func hex(_ color: Color) -> String {
        let alpha = UInt8((min(1, max(0, color.opacity)) * 255).rounded())
        let bytes = alpha == 255 ? [color.red, color.green, color.blue] : [color.red, color.green, color.blue, alpha]
        return "#" + HexText.lowercase(bytes)
    }

    /// `#rrggbb` or `#rrggbbaa`.
    private static func color(_ text: String) -> Color? {
        let digits = Array(text.utf8.dropFirst())
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        let opacity = bytes.count == 4 ? Double(bytes[3]) / 255 : 1
        return Color(red: bytes[0], green: bytes[1], blue: bytes[2], opacity: opacity)
    }

    /// A width in pixels or points (`2px`, `1.5pt`, `2`); other units (millimetres, ground
    /// units) are not screen widths: none.
    private static func length(_ text: String) -> Double? {
        if text.hasSuffix("px") || text.hasSuffix("pt") { return Double(text.dropLast(2)) }
        return Double(text)
    }

    /// The tools of a style string (`PEN(c:#ff0000,w:2px);BRUSH(fc:#00ff00)`), each with its
    /// parameters; a quoted value may hold commas, semicolons and escaped quotes.
    static func tools(of text: String) -> [(name: String, parameters: [(String, String)])] {
        var result: [(name: String, parameters: [(String, String)])] = []
        var characters = Substring(text)
        while !characters.isEmpty {
            characters = characters.drop { $0 == ";" || $0 == " " }
            guard let open = characters.firstIndex(of: "(") else { break }
            let name = String(characters[..<open].filter { $0 != " " }).uppercased()
            var at = characters.index(after: open)
            var parameters: [(String, String)] = []
            var key = ""
            var value = ""
            var inValue = false
            var quoted = false
            while at < characters.endIndex {
                let c = characters[at]
                at = characters.index(after: at)
                if quoted {
                    if c == "\\", at < characters.endIndex {
                        value.append(characters[at])
                        at = characters.index(after: at)
                    } else if c == "\"" {
                        quoted = false
                    } else {
                        value.append(c)
                    }
                } else if c == "\"", inValue {
                    quoted = true
                } else if c == ":", !inValue {
                    inValue = true
                } else if c == "," || c == ")" {
                    if !key.isEmpty { parameters.append((key.lowercased(), value)) }
                    key = ""
                    value = ""
                    inValue = false
                    if c == ")" { break }
                } else if inValue {
                    value.append(c)
                } else if c != " " {
                    key.append(c)
                }
            }
            result.append((name, parameters))
            characters = characters[at...]
        }
        return result
    }
}
