import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvXML

/// KML's part of the conservation check: every element text and attribute value of a KML
/// document, with `coordinates` and `gx:coord` split into ordinates, a style's contents
/// marked as shared (the writer keeps one copy of identical styles) and style ids with the
/// references to them as renamable (the writer names its shared styles itself).
enum KMLValueListing {
    /// The elements whose content is a style: written once however many features use it.
    private static let styleElements: Set<String> = [
        "Style", "StyleMap", "IconStyle", "LabelStyle", "LineStyle", "PolyStyle",
        "BalloonStyle", "ListStyle",
    ]

    /// Elements whose text is a KML colour (`aabbggrr`).
    private static let colorElements: Set<String> = ["color", "bgColor", "textColor"]

    /// `true` as `1` and `false` as `0`; other text as it is.
    private static func booleanAsDigit(_ text: String) -> String {
        switch text {
        case "true": "1"
        case "false": "0"
        default: text
        }
    }

    /// Element values the KML 2.2 schema gives when the element is absent: a writer may leave
    /// them out (`ogckml22.xsd`'s defaults; GDAL and Google Earth omit them too).
    private static let defaults: [String: String] = [
        "visibility": "1", "open": "0", "tessellate": "0", "extrude": "0", "altitudeMode": "clampToGround",
        "longitude": "0", "latitude": "0", "altitude": "0", "heading": "0", "tilt": "0", "roll": "0",
        "color": "ffffffff", "colorMode": "normal", "scale": "1", "width": "1", "fill": "1", "outline": "1",
        "bgColor": "ffffffff", "textColor": "ff000000", "displayMode": "default", "drawOrder": "0", "rotation": "0",
        "refreshVisibility": "0", "flyToView": "0", "refreshMode": "onChange", "refreshInterval": "4",
        "viewRefreshMode": "never", "viewRefreshTime": "4", "viewBoundScale": "1", "listItemType": "check",
        "minAltitude": "0", "maxAltitude": "0", "minLodPixels": "0", "maxLodPixels": "-1",
        "minFadeExtent": "0", "maxFadeExtent": "0", "shape": "rectangle",
    ]
    /// The same for attributes, by element and attribute.
    private static let attributeDefaults: [String: String] = [
        "hotSpot@x": "0.5", "hotSpot@y": "0.5", "hotSpot@xunits": "fraction", "hotSpot@yunits": "fraction",
    ]

    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        let listed: [XMLListedValue]
        do {
            // (A description's XHTML is one value, as the reader keeps it.)
            listed = try XMLValueListing.values(markupElements: ["description"]) { buffer in
                try input.read(into: buffer)
            }
        } catch {
            throw .xmlRefusal(
                error.message, isLimit: error.isLimit, line: error.line, column: error.column, file: input.name,
                format: "KML", underlyingError: error)
        }
        var values: [ListedValue] = []
        values.reserveCapacity(listed.count)
        for value in listed {
            let enclosing = value.enclosing.map { ListedValue.Position(line: $0.line, column: $0.column) }
            let own = enclosing.last ?? ListedValue.Position(line: 0, column: 0)
            let holder = value.attribute.map { value.element + "@" + $0 } ?? value.element
            // A colour in another spelling (upper case, a leading #) is the same colour.
            let spelled =
                value.attribute == nil && Self.colorElements.contains(value.element)
                ? String(value.text.trimmed.drop { $0 == "#" }).lowercased() : value.text
            let schemaDefault = value.attribute == nil ? defaults[value.element] : attributeDefaults[holder]
            // (xsd:boolean's two spellings: a default of 1 is also written true.)
            let isDefault =
                schemaDefault.map {
                    ListedValue.matchKey(Self.booleanAsDigit($0))
                        == ListedValue.matchKey(Self.booleanAsDigit(spelled.trimmed))
                }
                ?? false
            let inStyle = value.path.contains { styleElements.contains($0) }
            var kind = ListedValue.Kind.plain
            if inStyle { kind = .shared }
            // kml:id is id
            let attribute = value.attribute.map { name in name.split(separator: ":").last.map(String.init) ?? name }
            if value.element == "styleUrl"
                || (attribute == "id" && (styleElements.contains(value.element) || value.element == "CascadingStyle"))
            {
                kind = .renamable
            }
            // A schema field's name and display name, and a Data's display name: the writer
            // writes one schema, each field (and its label) once, however many schemas or
            // placemarks named it.
            if (value.attribute == "name" && (value.element == "SimpleField" || value.element == "SimpleArrayField"))
                || (value.element == "displayName"
                    && value.path.dropLast().last.map { ["Data", "SimpleField", "SimpleArrayField"].contains($0) }
                        == true)
            {
                kind = .shared
            }
            // A schema field's type: the writer types its fields from their values (`float` is written `double`).
            if value.attribute == "type", value.element == "SimpleField" || value.element == "SimpleArrayField" {
                kind = .renamable
            }
            // A StyleMap's Pair keys: a map with only a normal style is written as that style.
            if value.element == "key", value.path.dropLast().last == "Pair" { kind = .renamable }
            // A schema's id and the references to it: the writer names its own schema.
            // (KML 2.1's `parent="Placemark"` schema: its custom placemark elements are read
            // as Placemarks and written as such, with the fields as SchemaData.)
            if (value.element == "Schema"
                && (value.attribute == "id" || value.attribute == "name" || value.attribute == "parent"))
                || value.attribute == "schemaUrl"
            {
                kind = .renamable
            }
            if value.attribute == nil, value.element == "coordinates" || value.element == "coord" {
                for token in ordinates(value.text) {
                    values.append(
                        ListedValue(
                            text: token, line: own.line, column: own.column, enclosing: enclosing, kind: kind,
                            holder: holder))
                }
                continue
            }
            // A Data value that is a JSON string (an id that is not an XML name, kept in
            // geoconv:id as JSON text) is listed as the string it holds, on either side.
            var text = spelled
            if value.attribute == nil, value.element == "value", text.hasPrefix("\""), text.hasSuffix("\""),
                text.count >= 2,
                case .string(let inner)? = JSONText.parse(text)
            {
                text = inner
            }
            values.append(
                ListedValue(
                    text: text, line: own.line, column: own.column, enclosing: enclosing, kind: kind, holder: holder,
                    isDefault: isDefault))
        }
        return values
    }

    /// The numbers of a `coordinates` (`lon,lat[,alt]` tuples) or `gx:coord` text.
    private static func ordinates(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar == "," || scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
