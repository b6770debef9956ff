import GeoConvCore
internal import GeoConvXML

/// ExtendedData: properties as `SchemaData` typed by the document's one `<Schema>`, the
/// model's facts KML has no element for as `Data`, and the schema's field types.
extension KMLWriterState {
    func writeExtendedData(_ feature: Feature, id: JSONValue?, element: String) throws(GeoConvError) {
        let ownElements = element == "GroundOverlay"
            ? KMLWriterState.groundOverlayOwn : (element == "NetworkLink" ? KMLWriterState.networkLinkOwn : KMLWriterState.noOwnElements)
        if let names = feature.properties[KMLNames.displayNames]?.objectValue {
            for (key, value) in names { if let label = value.stringValue, displayNames[key] == nil { displayNames[key] = label } }
        }
        var simple = scratchSimple, data = scratchData  // reused: no arrays per feature
        simple.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        scratchSimple = []
        scratchData = []
        defer {
            scratchSimple = simple
            scratchData = data
        }
        if let id { data.append(("geoconv:id", JSONText.string(id))) }
        let merged = StyleProperties.merged(feature)
        for (place, (key, value)) in merged.enumerated() {
            if KMLWriterState.structural.contains(key) || ownElements.contains(key) { continue }
            if StyleProperties.names.contains(key) {
                // Title, description and what the KML style says are written as such; the style
                // facts KML has no element for go to ExtendedData (JSON text for geoconv's own).
                if KMLStyle.extendedDataStyleKeys.contains(key) {
                    data.append((key, key.hasPrefix("geoconv:") ? JSONText.string(value) : (value.stringValue ?? JSONText.string(value))))
                }
                continue
            }
            if key == "coordinateProperties" && (usesTrack(feature) || multiTrackTimes(feature) != nil) {
                // The times are the track's <when>s; other per-point values stay as data.
                var rest = value.objectValue ?? [:]
                rest.removeValue(forKey: "times")
                if !rest.isEmpty { data.append((key, JSONText.string(.object(rest)))) }
                continue
            }
            if KMLNames.jsonValued.contains(key) {
                data.append((key, JSONText.string(value)))
                continue
            }
            switch value {
            case .null:
                try diagnostics.warn("kml.null-dropped", "null property values have no KML form; they are dropped")
            case .string(let s):
                try noteType(.string, for: key, at: place)
                simple.append((key, s))
            case .bool(let b):
                try noteType(.bool, for: key, at: place)
                simple.append((key, b ? "true" : "false"))
            case .number(let n):
                let type = KMLWriterState.schemaType(of: n)
                if type == .string {
                    diagnostics.note("kml.number-as-text",
                                     "a number that neither a KML int nor a double holds exactly (beyond ±2^53, or over 15 significant digits) is written as a string field, digits kept")
                }
                try noteType(type, for: key, at: place)
                simple.append((key, n.literal))
            case .array, .object:
                try diagnostics.warn("kml.json-as-text", "array and object property values are written as JSON text and read back as strings")
                try noteType(.string, for: key, at: place)
                simple.append((key, JSONText.string(value)))
            }
        }
        if case .circle(_, let radius)? = feature.geometry {
            data.append((KMLNames.radius, DecimalFormatter.shortest(radius)))
        } else if case .polygon? = feature.geometry, let radius = feature.properties[KMLNames.radius],
                  let center = feature.properties[KMLNames.circleCenter]
        {
            // A circle drawn as its polygon: the exact circle, for readers that know it.
            data.append((KMLNames.radius, JSONText.string(radius)))
            data.append((KMLNames.circleCenter, JSONText.string(center)))
        }
        for (_, value) in simple { try checkText(value) }
        guard !simple.isEmpty || !data.isEmpty else { return }
        append("<ExtendedData>")
        for (key, value) in data {
            append("<Data name=\"")
            XMLEscaping.appendAttribute(key, to: &buffer)
            append("\"><value>")
            XMLEscaping.appendText(value, to: &buffer)
            append("</value></Data>")
        }
        if !simple.isEmpty {
            append("<SchemaData schemaUrl=\"#\(KMLWriterState.schemaID)\">")
            for (key, value) in simple {
                append("<SimpleData name=\"")
                XMLEscaping.appendAttribute(key, to: &buffer)
                append("\">")
                XMLEscaping.appendText(value, to: &buffer)
                append("</SimpleData>")
            }
            append("</SchemaData>")
        }
        append("</ExtendedData>")
    }

    /// The SimpleField type that holds a number exactly: `int` (32-bit), `double` (integers
    /// within ±2^53 and decimals of at most 15 significant digits, which a 64-bit float
    /// keeps), else `string`, so the digits survive (GDAL writes such numbers as floats,
    /// rounded to 15 digits).
    static func schemaType(of number: JSONNumber) -> SchemaType {
        if number.isInteger, let value = Int64(number.literal) {
            if value >= Int64(Int32.min) && value <= Int64(Int32.max) { return .int }
            return value.magnitude <= 1 << 53 ? .double : .string
        }
        // Significant digits of the mantissa: no leading zeros, no trailing zeros.
        var significant = 0, trailingZeros = 0, leading = true
        for byte in number.literal.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if byte == UInt8(ascii: "0") && leading { continue }
            leading = false
            significant += 1
            trailingZeros = byte == UInt8(ascii: "0") ? trailingZeros + 1 : 0
        }
        let value = Double(number.literal) ?? .nan
        guard value.isFinite, significant - trailingZeros <= 15, value == 0 || value.magnitude >= Double.leastNormalMagnitude else {
            return .string
        }
        return .double
    }

    /// The schema's field types (KML's `SimpleField` types geoconv writes).
    enum SchemaType: String {
        case int, double, bool, string
    }


    /// Notes that the property `key`, at `place` in its feature, has a value of `type`.
    func noteType(_ type: SchemaType, for key: String, at place: Int) throws(GeoConvError) {
        if place < notedTypes.count, notedTypes[place].key == key {
            if notedTypes[place].type == type { return }
            try widen(field: notedTypes[place].field, to: type)
            notedTypes[place].type = type
            return
        }
        let field: Int
        if let index = schema.index(forKey: key) {
            field = index
            try widen(field: index, to: type)
        } else {
            field = schema.count
            schema[key] = type
        }
        if place < notedTypes.count {
            notedTypes[place] = (key, type, field)
        } else if place == notedTypes.count {
            notedTypes.append((key, type, field))
        }
    }

    /// Widens a field's type to hold `type` too: int and double make double; any other mix
    /// makes string, with a warning.
    func widen(field: Int, to type: SchemaType) throws(GeoConvError) {
        let existing = schema.values[field]
        if existing == type || existing == .string { return }
        if (existing == .int && type == .double) || (existing == .double && type == .int) {
            schema.values[field] = .double
        } else {
            schema.values[field] = .string
            try diagnostics.warn("kml.mixed-types", "property \"\(schema.keys[field])\" has values of different types; KML types it as text")
        }
    }
}
