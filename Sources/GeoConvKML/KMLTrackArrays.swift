import GeoConvCore
internal import GeoConvXML

/// Per-point values of a `gx:Track` (heart rate, cadence, temperature from Garmin, Strava or
/// glider exports): `<ExtendedData><SchemaData><gx:SimpleArrayData name><gx:value>…` inside
/// the track, typed by the schema's `gx:SimpleArrayField`. Read into `coordinateProperties`
/// beside the times (one array per point of a track; for a `gx:MultiTrack`, one array per
/// track), written back the same way.
extension KMLReaderState {
    /// A track's ExtendedData (its start just read): each `gx:SimpleArrayData` as its name and
    /// values in order. Anything else in it is reported.
    func parseTrackArrays(into feature: inout Feature) throws(XMLParseError) -> [(name: String, values: [JSONValue])] {
        var arrays: [(name: String, values: [JSONValue])] = []
        try parser.forEachChild { (element, isEmpty) throws(XMLParseError) in
            guard element == "SchemaData" else {
                warn(
                    KMLCode.elementDropped,
                    "<\(element)> in a gx:Track's ExtendedData is not carried over: only SchemaData's gx:SimpleArrayData is",
                    at: location())
                if !isEmpty { try parser.skipElement() }
                return
            }
            guard !isEmpty else { return }
            let url = (parser.attribute("schemaUrl") ?? "").trimmed
            let schema = tables.schemas[url.hasPrefix("#") ? String(url.dropFirst()) : url] ?? [:]
            try parser.forEachChild { (child, childEmpty) throws(XMLParseError) in
                guard child == "SimpleArrayData" else {
                    warn(
                        KMLCode.elementDropped,
                        "<\(child)> in a gx:Track's SchemaData is not carried over: only gx:SimpleArrayData is",
                        at: location())
                    if !childEmpty { try parser.skipElement() }
                    return
                }
                let name = parser.attribute("name") ?? ""
                reports.usedFields.insert(name)
                let field = schema[name]
                var values: [JSONValue] = []
                if !childEmpty {
                    try parser.forEachChild { (valueElement, valueEmpty) throws(XMLParseError) in
                        guard valueElement == "value" else {
                            warn(
                                KMLCode.elementDropped, "<\(valueElement)> in a gx:SimpleArrayData is not carried over",
                                at: location())
                            if !valueEmpty { try parser.skipElement() }
                            return
                        }
                        let text = valueEmpty ? "" : try parser.readElementText()
                        values.append(text.isEmpty ? .null : Self.typed(text, as: field?.type ?? "string", key: name))
                    }
                }
                if let label = field?.displayName { Self.setDisplayName(label, for: name, in: &feature) }
                arrays.append((name, values))
            }
        }
        return arrays
    }

    /// Sets a track's arrays in `coordinateProperties` (beside `times`): `perTrack` holds
    /// each track's arrays and point count, one entry for a `gx:Track`, one per track of a
    /// `gx:MultiTrack` (whose values are then one array per track, `null`s for a track
    /// without the array).
    static func setTrackArrays(
        _ perTrack: [(arrays: [(name: String, values: [JSONValue])], points: Int)], multi: Bool,
        in feature: inout Feature
    ) {
        var names: [String] = []
        for track in perTrack {
            for array in track.arrays where !names.contains(array.name) { names.append(array.name) }
        }
        guard !names.isEmpty else { return }
        var perPoint = feature.properties["coordinateProperties"]?.objectValue ?? [:]
        for name in names {
            let columns = perTrack.map { track in
                track.arrays.first { $0.name == name }?.values ?? Array(repeating: .null, count: track.points)
            }
            perPoint[name] = multi ? .array(columns.map(JSONValue.array)) : .array(columns.first ?? [])
        }
        feature.properties["coordinateProperties"] = .object(perPoint)
    }
}

extension KMLWriterState {
    /// The per-point values besides times that fit the lines of a track (`lineCounts`, one
    /// count for a `gx:Track`, one per track of a `gx:MultiTrack`), per line.
    func trackArrays(_ feature: Feature, lineCounts: [Int], multi: Bool) -> [(name: String, lines: [[JSONValue]])] {
        guard let perPoint = property("coordinateProperties", of: feature)?.objectValue else { return [] }
        var result: [(name: String, lines: [[JSONValue]])] = []
        for (key, value) in perPoint where key != "times" {
            guard let array = value.arrayValue else { continue }
            let lines = multi ? array.compactMap(\.arrayValue) : [array]
            guard lines.count == lineCounts.count, zip(lines, lineCounts).allSatisfy({ $0.count == $1 }),
                lines.allSatisfy({ $0.allSatisfy(Self.isArrayScalar) })
            else { continue }
            result.append((key, lines))
        }
        return result
    }

    private static func isArrayScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number, .bool, .null: true
        case .array, .object: false
        }
    }

    /// Writes one track's arrays (`index`: the track's line) as its ExtendedData, noting each
    /// array's field type for the schema.
    func writeTrackArrays(_ arrays: [(name: String, lines: [[JSONValue]])], line index: Int) {
        guard !arrays.isEmpty else { return }
        append(text: "<ExtendedData><SchemaData schemaUrl=\"#\(KMLWriterState.schemaID)\">")
        for array in arrays {
            append(text: "<gx:SimpleArrayData name=\"\(XMLEscaping.attribute(array.name))\">")
            for value in array.lines[index] {
                append("<gx:value>")
                switch value {
                case .string(let text): if !discards { XMLEscaping.appendText(text, to: &buffer) }
                case .number(let number): append(text: number.literal)
                case .bool(let flag): append(text: flag ? "1" : "0")
                default: break
                }
                append("</gx:value>")
            }
            append("</gx:SimpleArrayData>")
        }
        append("</SchemaData></ExtendedData>")
        declareArrayFields(arrays, lines: index...index)
    }

    /// Notes each array's field type for the schema's `gx:SimpleArrayField`s, from the values
    /// of `lines` (all of them when `nil`).
    func declareArrayFields(_ arrays: [(name: String, lines: [[JSONValue]])], lines: ClosedRange<Int>? = nil) {
        for array in arrays {
            var type = arrayFields[array.name]
            for line in lines.map({ Array(array.lines[$0]) }) ?? array.lines {
                for value in line { type = Self.widened(type, by: value) }
            }
            if arrayFields[array.name] != type { arrayFields[array.name] = type ?? .string }
        }
    }

    /// The field type that holds what `type` held and `value`.
    private static func widened(_ type: SchemaType?, by value: JSONValue) -> SchemaType? {
        let own: SchemaType
        switch value {
        case .null: return type
        case .number(let number):
            own =
                number.literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) })
                ? .int : .double
        case .bool: own = .bool
        default: own = .string
        }
        guard let type, type != own else { return own }
        if (type == .int && own == .double) || (type == .double && own == .int) { return .double }
        return .string
    }
}
