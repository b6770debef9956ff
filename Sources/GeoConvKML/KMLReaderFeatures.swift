import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
internal import GeoConvXML
internal import OrderedCollections

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Placemarks, overlays and links: their elements, ExtendedData, Region and views.
extension KMLReaderState {
    // MARK: Views

    /// A `LookAt` or `Camera`: the camera it makes (when it has a finite position) and its
    /// elements in order (numbers as numbers), to write back as they were.
    func parseView(_ element: String) throws(XMLParseError) -> (camera: CameraPosition?, elements: JSONObject) {
        var elements: JSONObject = ["kind": .string(element)]
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            guard !isEmpty else { return }
            switch child {
            case "TimeSpan", "TimeStamp":
                // gx:TimeSpan / gx:TimeStamp: the time the view shows (historical imagery, a track's span).
                var time: JSONObject = [:]
                for (name, text) in try parseChildren() where name == "begin" || name == "end" || name == "when" {
                    time[name] = .string(text)
                }
                elements[child == "TimeSpan" ? "timespan" : "timestamp"] = .object(time)
            case let name where KMLWriterState.viewElements.contains(name):
                let at = location()
                let text = try parser.readElementText().trimmed
                if name == "longitude", let value = Double(text), value.isFinite, abs(value) > 180,
                    let wrapped = JSONNumber(value.remainder(dividingBy: 360))
                {
                    // gpsbabel writes 186.5: the same meridian, which the KML schema wants within ±180.
                    warn(
                        KMLCode.viewLongitudeWrapped,
                        "a \(element)'s longitude \(text) is beyond ±180, which the KML schema refuses: it is "
                            + "read as \(wrapped.literal), the same meridian (as Google Earth reads it)", at: at)
                    elements[child] = .number(wrapped)
                } else if let value = Double(text), value.isFinite,
                    let number = JSONNumber(literal: text) ?? JSONNumber(value)
                {
                    elements[child] = .number(number)
                } else {
                    elements[child] = .string(text)
                }
            default:
                warn(KMLCode.elementDropped, "<\(child)> in a \(element) is not carried over", at: location())
                try parser.skipElement()
            }
        }
        return (CameraPosition(kmlView: elements), elements)
    }

    // MARK: Features

    /// The folders the next placemark is in, as its `geoconv:folder` value (`nil` for none).
    func folderValue() -> JSONValue? { folders.folderValue() }

    func parseFeature(_ element: String, id: String?, isEmpty: Bool) throws(XMLParseError) -> Feature {
        var feature = Feature(geometry: nil)
        if let id { feature.id = .string(id) }
        if let folder = folderValue() { feature.properties[.folder] = folder }
        if element == "GroundOverlay" { feature.properties[KMLNames.geometryType] = "groundoverlay" }
        if element == "NetworkLink" { feature.properties[KMLNames.geometryType] = "networklink" }
        if element == "ScreenOverlay" { feature.properties[KMLNames.geometryType] = "screenoverlay" }
        guard !isEmpty else { return feature }
        var styleUrl: String?
        var styleUrlPlace: SourceLocation?
        var inlineStyle: KMLStyle?
        var geometries: [Geometry] = []
        var times: [JSONValue] = []
        var latLonBox: JSONObject = [:]
        try parser.forEachChild { (child, childEmpty) throws(XMLParseError) in
            if element == "ScreenOverlay", KMLNames.screenPlaces.contains(child) {
                // A screen position (attributes): {x, y, xunits, yunits}, numbers as numbers.
                var place: JSONObject = [:]
                for name in ["x", "y", "xunits", "yunits"] {
                    guard let text = parser.attribute(name) else { continue }
                    place[name] = Double(text).map(KMLStyle.number) ?? .string(text)
                }
                feature.properties[child] = .object(place)
                if !childEmpty { try parser.skipElement() }
                return
            }
            guard !childEmpty else { return }
            switch featureElements.kind(of: child) {
            case .geometry? where tables.placemarkAliases.isEmpty:
                if let geometry = try parseGeometryOrWarn(child, into: &feature, times: &times) {
                    geometries.append(geometry)
                }
            case .extendedData?:
                try parseExtendedData(into: &feature, reserving: element == "NetworkLink" ? Self.linkChildren : [])
            case .name?: feature.title = try parser.readElementText()
            case .description?:
                // (An empty one says "" as an empty <name> does, and as GPX's <desc></desc>.)
                feature.snippet = try parser.readElementMarkup()
            case .snippet?: feature.properties["Snippet"] = .string(try parser.readElementText())
            case .visibility?:
                if let flag = Self.kmlBool(try parser.readElementText()) {
                    feature.properties["visibility"] = .bool(flag)
                }
            case .contact?:
                feature.properties[child] = .string(try parser.readElementText())
            case .styleUrl?:
                styleUrlPlace = location()
                styleUrl = try parser.readElementText().trimmed
            case .style?:
                let style = try parseStyle()
                inlineStyle = inlineStyle.map { $0.overridden(by: style) } ?? style
            case .styleMap?:
                let map = try parseStyleMap()
                if let normal = map.normalInline { inlineStyle = normal }
                if let url = map.normal { styleUrl = url }
                applyHighlight(of: map, to: &feature)
            case .view?:
                feature[model: .view] = try parseView(child).elements
            case .region?:
                feature[model: .region] = try parseRegion()
            case .timeStamp?:
                if let when = try parseChildren(keeping: ["when"], in: child)["when"] {
                    feature.properties["timestamp"] = .string(when)
                }
            case .timeSpan?:
                let span = try parseChildren(keeping: ["begin", "end"], in: child)
                var object: JSONObject = [:]
                if let begin = span["begin"] { object["begin"] = .string(begin) }
                if let end = span["end"] { object["end"] = .string(end) }
                feature.properties["timespan"] = .object(object)
            case .overlayIcon? where element != "Placemark":
                let at = location()
                var icon: OrderedDictionary<String, String> = [:]
                var direct = ""
                try parser.forEachChild(
                    { (name, isEmpty) throws(XMLParseError) in
                        if !isEmpty { icon[name] = try parser.readElementText().trimmed }
                    }, text: { direct += parser.text })
                // `<Icon>url</Icon>` (KML 2.0's writers, map georeferencers): the URL is its href.
                if icon["href"] == nil, !direct.trimmed.isEmpty { icon["href"] = direct.trimmed }
                if let href = icon["href"] { feature.properties["icon"] = .string(href) }
                let others = icon.keys.filter { $0 != "href" }.sorted()
                if !others.isEmpty {
                    warn(
                        KMLCode.elementDropped,
                        "an overlay's <Icon> keeps its href only: \(others.map { "<\($0)>" }.joined(separator: ", ")) \(others.count == 1 ? "is" : "are") not carried over",
                        at: at)
                }
            case .link?:
                for (key, value) in try parseChildren(keeping: Self.linkChildren, in: child) {
                    feature.properties[key] = .string(value)
                }
            case .latLonBox?:
                latLonBox = try parseLatLonBox()
            case .latLonQuad?:
                // gx:LatLonQuad: four corners, counter-clockwise from the lower left.
                let corners = Self.corners(try parseChildren()["coordinates"] ?? "")
                guard corners.count == 4 else {
                    warn(
                        KMLCode.invalidLatLonQuad,
                        "a gx:LatLonQuad needs four 'longitude,latitude' corners, found \(corners.count); the overlay has no geometry",
                        at: location())
                    return
                }
                feature[model: .latLonQuad] = corners.map { c -> JSONValue in
                    .array([
                        JSONNumber(c.longitude).map(JSONValue.number) ?? .null,
                        JSONNumber(c.latitude).map(JSONValue.number) ?? .null,
                    ])
                }
                geometries.append(.polygon(PolygonRings(outer: Path(corners + [corners[0]]))))
            case .overlayValue?:
                let text = try parser.readElementText().trimmed
                if element != "Placemark" {
                    feature.properties[child] = Double(text).map(KMLStyle.number) ?? .string(text)
                } else {
                    warn(
                        KMLCode.elementDropped, "a Placemark's <\(child)> is not carried over (it belongs to overlays)",
                        at: location())
                }
            default:
                if !tables.placemarkAliases.isEmpty, let fields = tables.placemarkAliases[element],
                    let field = fields[child]
                {
                    feature.properties[child] = Self.typed(try parser.readElementText(), as: field.type, key: child)
                } else if let geometry = try parseGeometryOrWarn(child, into: &feature, times: &times) {
                    geometries.append(geometry)
                }
            }
        }
        finish(
            &feature, styleUrl: styleUrl, styleUrlPlace: styleUrlPlace, inlineStyle: inlineStyle,
            geometries: geometries, times: times, latLonBox: latLonBox)
        // Moved out (the children's closure holds `feature`: returning it would copy it).
        var made = Feature(geometry: nil)
        swap(&made, &feature)
        return made
    }

    func finish(
        _ feature: inout Feature, styleUrl: String?, styleUrlPlace: SourceLocation? = nil,
        inlineStyle: KMLStyle?, geometries: [Geometry], times: [JSONValue], latLonBox: JSONObject
    ) {
        var style = KMLStyle()
        if let styleUrl {
            feature.properties["styleUrl"] = .string(styleUrl)
            // (Copied only for a placemark with both: to undo the use if the merge changes it.)
            let usedBefore = inlineStyle == nil ? [] : reports.usedStyles
            if let shared = resolve(styleUrl, into: &feature) { style = shared }
            if let inlineStyle {
                unmergeIfChanged(&feature, styleUrl, at: styleUrlPlace, style, inlineStyle, usedBefore)
            }
        }
        if let inlineStyle { style = style.overridden(by: inlineStyle) }
        style.apply(to: &feature)
        if geometries.count == 1 {
            feature.geometry = geometries[0]
        } else if geometries.count > 1 {
            feature.geometry = KMLReaderState.combine(geometries)
        }
        if times.count == 1, case .string(let when) = times[0], case .point? = feature.geometry,
            feature.properties["timestamp"] == nil,
            feature.properties["coordinateProperties"] == nil
        {
            // A track of one position is a point at one time: a TimeStamp, as it is written back.
            feature.properties["timestamp"] = .string(when)
        } else if !times.isEmpty {
            // A track's times join the other per-point values kept as data, if any.
            var perPoint = feature.properties["coordinateProperties"]?.objectValue ?? [:]
            perPoint["times"] = times.count == 1 ? times[0] : .array(times)
            feature.properties["coordinateProperties"] = .object(perPoint)
        }
        if !latLonBox.isEmpty {
            feature[model: .latLonBox] = latLonBox
            if let north = latLonBox["north"]?.doubleValue, let south = latLonBox["south"]?.doubleValue,
                let east = latLonBox["east"]?.doubleValue, let west = latLonBox["west"]?.doubleValue
            {
                feature.geometry = .polygon(
                    PolygonRings(
                        outer: KMLReaderState.box(
                            north: north, south: south, east: east, west: west,
                            rotation: latLonBox["rotation"]?.doubleValue ?? 0)))
            }
        }
        if let id = feature.properties.removeValue(forKey: .id) {
            switch id {
            case .string(let s): feature.id = .string(s)
            case .number(let n): feature.id = .number(n)
            default: break
            }
        }
        StyleProperties.derive(into: &feature, only: { KMLStyle.extendedDataStyleKeys.contains($0) })
        // A Point carrying geoconv:radius is a circle (written that way by geoconv).
        if case .point(let center)? = feature.geometry, let radius = feature[model: .radius],
            radius.isFinite, radius >= 0
        {
            feature.geometry = .circle(center: center, radius: radius)
        }
        // A Polygon carrying geoconv:radius and geoconv:circle-center is a circle drawn as its polygon.
        if case .polygon? = feature.geometry, let radius = feature[model: .radius], radius.isFinite, radius >= 0,
            let center = feature[model: .circleCenter]?.compactMap(\.doubleValue), center.count == 2,
            center.allSatisfy(\.isFinite)
        {
            feature.geometry = .circle(center: Coordinate(latitude: center[1], longitude: center[0]), radius: radius)
            feature.properties.removeValue(forKey: .circleCenter)
        }
    }

    /// The LatLonBox as a closed ring, rotated counter-clockwise by `rotation` degrees about its centre.
    static func box(north: Double, south: Double, east: Double, west: Double, rotation: Double) -> Path {
        var corners = [(west, south), (east, south), (east, north), (west, north)]
        if rotation != 0 {
            let cx = (east + west) / 2
            let cy = (north + south) / 2
            let angle = rotation * .pi / 180
            let c = cos(angle)
            let s = sin(angle)
            corners = corners.map { (x, y) in (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) }
        }
        var ring = corners.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        ring.append(ring[0])
        return Path(ring)
    }

    /// Several geometries of one MultiGeometry: Multi* when they are all of one simple kind,
    /// else a GeometryCollection.
    static func combine(_ geometries: [Geometry]) -> Geometry {
        var points: [Coordinate] = []
        var lines: [Path] = []
        var polygons: [PolygonRings] = []
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
    func parseChildren() throws(XMLParseError) -> OrderedDictionary<String, String> {
        var values: OrderedDictionary<String, String> = [:]
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            if !isEmpty { values[child] = try parser.readElementText().trimmed }
        }
        return values
    }

    /// A placemark whose inline `Style` changes the shared Style its `styleUrl` names has a
    /// style of its own: the reference is not kept (written, it would give the shared name to
    /// the merged style, and the shared style's own values would be gone without a word), and
    /// the shared style counts as used only where a placemark uses it as it is. Google Earth
    /// draws the same merge; GDAL's LIBKML driver keeps both and lets the viewer merge.
    private func unmergeIfChanged(
        _ feature: inout Feature, _ styleUrl: String, at place: SourceLocation?,
        _ shared: KMLStyle, _ inline: KMLStyle, _ usedBefore: Set<String>
    ) {
        let id = styleUrl.hasPrefix("#") ? String(styleUrl.dropFirst()) : styleUrl
        guard tables.styles[id] != nil, shared.overridden(by: inline) != shared else { return }
        feature.properties.removeValue(forKey: "styleUrl")
        if !usedBefore.contains(id) {
            reports.usedStyles.remove(id)
            reports.lastUsedStyle = nil
        }
        warn(
            KMLCode.styleMerged,
            "the placemark's inline Style changes the shared style \"\(id)\" it names: its style is the two "
                + "merged, written as a style of its own, and the styleUrl is not kept",
            at: place ?? lastLocation,
            hint: "geoconv keeps one style per feature; the shared style is written where a placemark uses it "
                + "as it is")
    }

    /// The text of each child of the element just started that is one of `known`; any other
    /// child is reported where it stands (`parent` names the element in the message).
    func parseChildren(
        keeping known: Set<String>, in parent: String
    ) throws(XMLParseError) -> OrderedDictionary<String, String> {
        var values: OrderedDictionary<String, String> = [:]
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            guard known.contains(child) else {
                // (An empty unknown element holds no value: nothing to report.)
                if !isEmpty || !parser.attributes.isEmpty {
                    warn(KMLCode.elementDropped, "<\(child)> in a <\(parent)> is not carried over", at: location())
                }
                if !isEmpty { try parser.skipElement() }
                return
            }
            if !isEmpty { values[child] = try parser.readElementText().trimmed }
        }
        return values
    }

    /// The elements of a NetworkLink's `Link` (or KML 2.0 `Url`) that are carried.
    static let linkChildren: Set<String> = Set(KMLWriterState.linkElements)

    func parseLatLonBox() throws(XMLParseError) -> JSONObject {
        var box: JSONObject = [:]
        let values = try parseChildren(keeping: ["north", "south", "east", "west", "rotation"], in: "LatLonBox")
        for key in ["north", "south", "east", "west", "rotation"] {
            if let text = values[key], let number = Double(text) { box[key] = KMLStyle.number(number) }
        }
        return box
    }

    /// `lon,lat[,alt]` tuples separated by whitespace; `[]` when one does not parse.
    static func corners(_ text: String) -> [Coordinate] {
        var result: [Coordinate] = []
        for tuple in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            let numbers = tuple.split(separator: ",").compactMap { Double($0) }
            guard numbers.count >= 2, numbers.allSatisfy(\.isFinite) else { return [] }
            result.append(Coordinate(latitude: numbers[1], longitude: numbers[0]))
        }
        return result
    }

    /// Records a Data or SimpleField `displayName` in `geoconv:display-names`.
    static func setDisplayName(_ label: String, for key: String, in feature: inout Feature) {
        var names = feature[model: .displayNames] ?? [:]
        names[key] = .string(label)
        feature[model: .displayNames] = names
    }

    /// A `Region`: its `LatLonAltBox` and `Lod` values in one object, numbers as numbers.
    func parseRegion() throws(XMLParseError) -> JSONObject {
        var region: JSONObject = [:]
        try parser.forEachChild { (child, isEmpty) throws(XMLParseError) in
            let known: Set<String>
            switch child {
            case "LatLonAltBox": known = Set(KMLWriterState.regionBox)
            case "Lod": known = Set(KMLWriterState.regionLod)
            default:
                warn(KMLCode.elementDropped, "<\(child)> in a <Region> is not carried over", at: location())
                if !isEmpty { try parser.skipElement() }
                return
            }
            guard !isEmpty else { return }
            for (key, text) in try parseChildren(keeping: known, in: child) {
                region[key] = JSONNumber(literal: text).map(JSONValue.number) ?? .string(text)
            }
        }
        return region
    }

    /// A feature's ExtendedData into its properties; a name in `reserved` (a NetworkLink's
    /// `href`…, which its Link sets) is kept under another name, with a warning.
    func parseExtendedData(into feature: inout Feature, reserving reserved: Set<String> = []) throws(XMLParseError) {
        extendedSchema = [:]
        simpleDataPlace = 0
        func data(_ element: String, isEmpty: Bool) throws(XMLParseError) {
            switch element {
            case "Data":
                let key = parser.attribute("name") ?? ""
                let place = (parser.nodeLine, parser.nodeColumn)
                var value = ""
                if !isEmpty {
                    let children = try parseChildren(keeping: ["value", "displayName"], in: "Data")
                    value = children["value"] ?? ""
                    if let label = children["displayName"] { Self.setDisplayName(label, for: key, in: &feature) }
                }
                setData(key, Self.dataValue(key, value), at: place, into: &feature, reserved: reserved.contains(key))
            case "SchemaData":
                let written = parser.attribute("schemaUrl") ?? ""
                if let last = tables.lastSchemaData, last.url == written {
                    extendedSchema = last.schema
                } else {
                    let url = written.trimmed
                    let id = url.hasPrefix("#") ? String(url.dropFirst()) : url
                    extendedSchema = tables.schemas[id] ?? [:]
                    tables.lastSchemaData = (written, extendedSchema)
                    tables.lastSchemaFields = []
                }
                simpleDataPlace = 0
                let at = location()
                if !isEmpty { try parser.forEachChild(data) }
                if !isEmpty, simpleDataPlace == 0 {
                    // (What it held is reported where it stands; the SchemaData itself is not written.)
                    warn(KMLCode.elementDropped, "a <SchemaData> without <SimpleData> is not carried over", at: at)
                }
            case "SimpleData":
                let key = parser.attribute("name") ?? ""
                let place = (parser.nodeLine, parser.nodeColumn)
                let text = isEmpty ? "" : try parser.readElementText()
                let field = simpleDataField(key, at: simpleDataPlace)  // one lookup for the type and the label
                simpleDataPlace += 1
                if reserved.contains(key) {
                    // Its field is not in use under this name (the cache is dropped, so that
                    // later SimpleData of the name count again).
                    reports.usedFields.remove(key)
                    tables.lastSchemaFields = []
                    setData(
                        key, Self.typed(text, as: field?.type ?? "string", key: key), at: place, into: &feature,
                        reserved: true)
                } else {
                    setData(key, Self.typed(text, as: field?.type ?? "string", key: key), at: place, into: &feature)
                }
                if let label = field?.displayName { Self.setDisplayName(label, for: key, in: &feature) }
            default:
                // (gx:SimpleArrayData belongs in a gx:Track's ExtendedData, where it is read.)
                warn(
                    KMLCode.elementDropped,
                    "<\(element)> in a Placemark's ExtendedData is not carried over: only Data and SimpleData are",
                    at: location())
                if !isEmpty { try parser.skipElement() }
            }
        }
        // The properties' hash table made once at the size the last big ExtendedData had
        // (a placemark's data is much the size of the one before), not rebuilt at each doubling.
        if largeExtendedData > feature.properties.count { feature.properties.reserveCapacity(largeExtendedData) }
        try parser.forEachChild(data)
        if feature.properties.count > 15 { largeExtendedData = feature.properties.count }
    }

    /// Sets a Data or SimpleData value. A name the placemark already has (one ExtendedData
    /// with the same `<Data name="Rank">` nine times, as real exports have) keeps its value,
    /// and this one is kept as `Rank_2` (`_3`, …), with a warning at its element: Google
    /// Earth shows every row; GDAL keeps one of them.
    private func setData(
        _ key: String, _ value: JSONValue, at place: (line: Int?, column: Int?), into feature: inout Feature,
        reserved: Bool = false
    ) {
        // (A "title" is data: the <name> is written as `name`, which every reader takes for the
        // title before a `title`.)
        let saysOtherwise =
            key == "name" && feature.title != nil && value.stringValue != feature.title
            || key == "description" && feature.snippet != nil && value.stringValue != feature.snippet
        if reserved || saysOtherwise {
            // The placemark's own <name>/<description> is that property in every other
            // format (and the writer's): a value under that name saying something else would
            // be taken for it. (One saying the same is the same property: kept as it is.)
            var number = 2
            while feature.properties[key + "_" + String(number)] != nil { number += 1 }
            let renamed = key + "_" + String(number)
            feature.properties[renamed] = value
            warn(
                KMLCode.repeatedDataRenamed,
                "a <Data>/<SimpleData> named \"\(key)\" would stand for the feature's own <\(reserved ? key : key == "description" ? "description" : "name")>; it is kept as \"\(renamed)\"",
                at: placed(line: place.line, column: place.column),
                hint: "give the ExtendedData value another name")
            return
        }
        guard let earlier = feature.properties.updateValue(value, forKey: key) else { return }
        feature.properties[key] = earlier
        var number = 2
        while feature.properties[key + "_" + String(number)] != nil { number += 1 }
        let renamed = key + "_" + String(number)
        feature.properties[renamed] = value
        warn(
            KMLCode.repeatedDataRenamed,
            "the name \"\(key)\" is given twice in one placemark's ExtendedData; the second value is kept as \"\(renamed)\"",
            at: placed(line: place.line, column: place.column),
            hint: "give each <Data>/<SimpleData> of a placemark its own name")
    }

    /// The field of the SimpleData `key` at `place` in a SchemaData of `extendedSchema` (the
    /// last one's, `lastSchemaData`): known without a lookup when the SchemaData before had
    /// the same name there.
    private func simpleDataField(_ key: String, at place: Int) -> (type: String, displayName: String?)? {
        // (Cleared whenever `lastSchemaData` is set or dropped.)
        let count = tables.lastSchemaFields.count
        if place < count, tables.lastSchemaFields[place].key == key { return tables.lastSchemaFields[place].field }
        // (A key is met here once per place and schema, not per feature: the schema fields in use.)
        reports.usedFields.insert(key)
        let field = extendedSchema[key]
        if place < count {
            tables.lastSchemaFields[place] = (key, field)
        } else if place == count {
            tables.lastSchemaFields.append((key, field))
        }
        return field
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

}
