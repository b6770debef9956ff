import GeoConvCore
internal import GeoConvXML

/// ExtendedData: properties as `SchemaData` typed by the document's one `<Schema>`, the
/// model's facts KML has no element for as `Data`, and the schema's field types.
extension KMLWriterState {
    func writeExtendedData(_ feature: Feature, id: JSONValue?, element: FeatureElement) throws(GeoConvError) {
        if hasAskedProperties, let names = property(.displayNames, of: feature) {
            for (key, value) in names {
                if let label = value.stringValue, displayNames[key] == nil { displayNames[key] = label }
            }
        }
        // The SimpleData elements are written as they come, after the start of a SchemaData
        // (taken back when none comes). The few Data elements, which come first, are listed
        // apart, in a list reused between features (taken out of the properties first:
        // cleared while they still hold it, it would be copied into new storage).
        var data: [(String, String)] = []
        swap(&data, &scratchData)
        data.removeAll(keepingCapacity: true)
        defer { scratchData = data }
        if let id { data.append((ModelKey.id.name, JSONText.string(id))) }
        let start = buffer.count
        append("<ExtendedData><SchemaData schemaUrl=\"#")
        append(text: KMLWriterState.schemaID)
        append("\">")
        let simpleStart = buffer.count
        // The properties as the model's fields merge into them: the feature's own, untouched,
        // when the model adds nothing (most features).
        let textsDropped =
            if feature.title == nil, feature.snippet == nil, styleOnlyInElements(feature) {
                try writeProperties(feature.properties, of: feature, element: element, data: &data)
            } else {
                try writeProperties(StyleProperties.merged(feature), of: feature, element: element, data: &data)
            }
        switch feature.geometry {
        case .circle(_, let radius)?:
            data.append((ModelKey.radius.name, DecimalFormatter.shortest(radius)))
        case .polygon? where hasAskedProperties:
            // A circle drawn as its polygon: the exact circle, for readers that know it.
            if let radius = property(ModelKey.radius.name, of: feature),
                let center = property(ModelKey.circleCenter.name, of: feature)
            {
                data.append((ModelKey.radius.name, JSONText.string(radius)))
                data.append((ModelKey.circleCenter.name, JSONText.string(center)))
            }
        default: break
        }
        for _ in 0..<textsDropped { try warnTextDropped() }
        if buffer.count == simpleStart {
            buffer.removeSubrange(start...)
            guard !data.isEmpty else { return }
            append("<ExtendedData>")
            appendData(data)
            append("</ExtendedData>")
            return
        }
        append("</SchemaData></ExtendedData>")
        guard !data.isEmpty else { return }
        // The Data elements go before the SchemaData: written last, then moved there.
        let end = buffer.count
        appendData(data)
        let written = Array(buffer[end...])
        buffer.removeSubrange(end...)
        buffer.insert(contentsOf: written, at: start + "<ExtendedData>".utf8.count)
    }

    /// Appends `data` as `<Data>` elements.
    private func appendData(_ data: [(String, String)]) {
        for (key, value) in data {
            append("<Data name=\"")
            XMLEscaping.appendAttribute(key, to: &buffer)
            append("\"><value>")
            XMLEscaping.appendText(value, to: &buffer)
            append("</value></Data>")
        }
    }

    /// Whether the feature's style adds nothing to its ExtendedData: it has no style, or only
    /// fields KML writes as elements, and no property speaks of style (which the model's
    /// fields would replace). Its own properties are then written as they are.
    func styleOnlyInElements(_ feature: Feature) -> Bool {
        // (The style's part asked once per style box: rules and classes give thousands one.)
        guard let identity = feature.style.boxIdentity else { return true }
        if identity != elementsOnlyIdentity {
            let style = feature.style
            elementsOnlyAnswer =
                style.isEmpty
                || (style.markerSymbol == nil && style.markerSize == nil && style.spans.isEmpty
                    && style.infoWindowAnchor == nil && style.opacity == nil && style.zIndex == nil)
            elementsOnlyEmpty = style.isEmpty
            elementsOnlyStyle = style
            elementsOnlyIdentity = identity
        }
        return elementsOnlyAnswer && (elementsOnlyEmpty || !StyleProperties.mentionsStyle(in: feature))
    }

    /// Appends `properties` (the feature's, merged with the model's fields) as SimpleData to
    /// `buffer` and lists the few that are Data in `data`; returns how many values lost
    /// characters XML cannot hold.
    private func writeProperties(
        _ properties: JSONObject, of feature: Feature, element: FeatureElement,
        data: inout [(String, String)]
    ) throws(GeoConvError) -> Int {
        // (The names KML writes in its own elements are asked for: a feature without any skips the test.)
        let ownElements: NameSet? =
            !hasAskedProperties
            ? nil
            : element == .groundOverlay
                ? KMLWriterState.groundOverlayOwn
                : (element == .networkLink
                    ? KMLWriterState.networkLinkOwn
                    : (element == .screenOverlay ? KMLWriterState.screenOverlayOwn : KMLWriterState.noOwnElements))
        var textsDropped = 0
        func addSimple(field: Int, _ value: String) {
            if discards {
                if XMLEscaping.hasForbiddenCharacters(value) { textsDropped += 1 }
                return
            }
            appendSimpleDataStart(field: field)
            if XMLEscaping.appendText(value, to: &buffer) { textsDropped += 1 }
            append("</SimpleData>")
        }
        var place = -1
        for (key, value) in properties {
            place += 1
            if let ownElements, KMLWriterState.structural.contains(key) || ownElements.contains(key),
                !KMLWriterState.isUnusedStructural(key, value, element: element)
            {
                // A geometry's own facts (an empty <gx:Track>'s altitudeMode) stay data when no
                // geometry is written to hold them.
                if feature.geometry != nil || !KMLWriterState.geometryFacts.contains(key) { continue }
            }
            // A "name" or "description" that the model's title or description does not stand
            // for (ExtendedData read from KML under that name) is data like any other; so is a
            // "title" always: KML's <name> reads back as `name`, and the key is the user's.
            let otherName = key == "name" && (feature.title == nil || value.stringValue != feature.title)
            let otherSnippet = key == "description" && (feature.snippet == nil || value.stringValue != feature.snippet)
            let isUnmirroredText =
                otherName || key == "title" || otherSnippet
                || TitleProperties.mustKeepBesideElement(key, value, of: feature)
            if otherName && feature.title != nil || otherSnippet && feature.snippet != nil {
                // (The reader keeps such data as `name_2`: the <name> is `name` everywhere.)
                try warn(
                    KMLCode.nameAsData,
                    "the property \"\(key)\" does not say the placemark's own <\(key)>: it is kept as data, "
                        + "and reads back as \"\(key)_2\"",
                    hint: "rename the property, or give the title (snippet) under another key")
            }
            if StyleProperties.names.contains(key), !isUnmirroredText {
                // Title, description and what the KML style says are written as such; the style
                // facts KML has no element for go to ExtendedData (JSON text for geoconv's own).
                if KMLStyle.extendedDataStyleKeys.contains(key) {
                    data.append(
                        (
                            key,
                            ModelKey.isModelKey(key)
                                ? JSONText.string(value) : (value.stringValue ?? JSONText.string(value))
                        ))
                }
                continue
            }
            if hasAskedProperties, key == "coordinateProperties", usesTrack(feature) || multiTrackTimes(feature) != nil
            {
                // The times are the track's <when>s; other per-point values stay as data.
                var rest = value.objectValue ?? [:]
                rest.removeValue(forKey: "times")
                // So are the arrays that fit the track's positions (its gx:SimpleArrayData).
                let lineCounts: [Int]
                switch feature.geometry {
                case .lineString(let path)?: lineCounts = [path.count]
                case .multiLineString(let lines)?: lineCounts = lines.map(\.count)
                default: lineCounts = []
                }
                let multi: Bool
                if case .multiLineString? = feature.geometry { multi = true } else { multi = false }
                for array in trackArrays(feature, lineCounts: lineCounts, multi: multi) {
                    rest.removeValue(forKey: array.name)
                }
                if !rest.isEmpty { data.append((key, JSONText.string(.object(rest)))) }
                continue
            }
            if KMLNames.jsonValued.contains(key) {
                data.append((key, JSONText.string(value)))
                continue
            }
            switch value {
            case .null:
                try warn(KMLCode.nullDropped, "null property values have no KML form; they are dropped")
            case .string(let s):
                addSimple(field: try noteType(.string, for: key, at: place), s)
            case .bool(let b):
                // 1 and 0 (xsd:boolean's other spelling): GDAL's LIBKML driver reads a bool
                // field as an integer, and took `true` for 0.
                addSimple(field: try noteType(.bool, for: key, at: place), b ? "1" : "0")
            case .number(let n):
                let type = KMLWriterState.schemaType(of: n)
                if type == .string {
                    try warn(
                        KMLCode.numberAsText,
                        "a number that no KML int or double holds exactly (more digits than a 64-bit float "
                            + "keeps, or beyond its range) is written as a string field, digits kept: it reads "
                            + "back as text",
                        hint: "write GeoJSON to keep it a number with every digit")
                }
                addSimple(field: try noteType(type, for: key, at: place), n.literal)
            case .array, .object:
                try warn(
                    KMLCode.jsonAsText,
                    "array and object property values are written as JSON text and read back as strings")
                addSimple(field: try noteType(.string, for: key, at: place), JSONText.string(value))
            }
        }
        return textsDropped
    }

    /// The SimpleField type that holds a number exactly: `int` (32-bit), `double` (integers
    /// within ±2^53, and any decimal whose nearest 64-bit float is the same decimal in its
    /// shortest form: every finite double a writer printed), else `string`, so the digits
    /// survive (GDAL writes such numbers as floats, rounded to 15 digits).
    static func schemaType(of number: JSONNumber) -> SchemaType {
        var literal = number.literal
        return literal.withUTF8 { schemaType(ofLiteral: $0) }
    }

    /// `schemaType(of:)` on the literal's bytes: integers are read as bytes, and a decimal
    /// without an exponent is known finite and normal without being parsed.
    static func schemaType(ofLiteral bytes: UnsafeBufferPointer<UInt8>) -> SchemaType {
        let negative = bytes.first == UInt8(ascii: "-")
        var magnitude: UInt64 = 0
        var fitsInt64 = true
        var isInteger = true
        for byte in bytes[(negative ? 1 : 0)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                isInteger = false
                break
            }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if o1 || o2 { fitsInt64 = false }
            magnitude = sum
        }
        if isInteger, fitsInt64, magnitude <= (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)) {
            if magnitude <= (negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)) { return .int }
            return magnitude <= 1 << 53 ? .double : .string
        }
        // A decimal is a double when the double nearest it, written in its shortest form,
        // is the same decimal: then the field holds the value (0.3333333333333333, a
        // polygon's Shape_area) and the text keeps its digits. Else (more digits than a
        // double holds, or beyond its range) a string keeps them.
        let value = Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
        guard value.isFinite, value == 0 || value.magnitude >= Double.leastNormalMagnitude else { return .string }
        var shortest = DecimalFormatter.shortest(value)
        let same = shortest.withUTF8 { decimalDigits(of: $0) } == decimalDigits(of: bytes)
        return same ? .double : .string
    }

    /// A decimal's sign, significant digits (no leading or trailing zeros) and the power of
    /// ten of its first digit: equal for two spellings of one number (`1.50`, `15e-1`).
    private static func decimalDigits(
        of bytes: UnsafeBufferPointer<UInt8>
    ) -> (negative: Bool, digits: [UInt8], exponent: Int) {
        var digits: [UInt8] = []
        var negative = false
        var pointSeen = false
        var integerDigits = 0
        var leadingZerosAfterPoint = 0
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                pointSeen = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponent =
                    Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)...]), as: UTF8.self)) ?? 0
                break
            } else if digits.isEmpty, byte == UInt8(ascii: "0") {
                if pointSeen { leadingZerosAfterPoint += 1 }
            } else {
                digits.append(byte)
                if !pointSeen { integerDigits += 1 }
            }
            index += 1
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { return (false, [], 0) }
        let power = integerDigits > 0 ? integerDigits - 1 + exponent : -(leadingZerosAfterPoint + 1) + exponent
        return (negative, digits, power)
    }

    /// The schema's field types (KML's `SimpleField` types geoconv writes).
    enum SchemaType: String {
        case int, double, bool, string
    }

    /// Appends the `<SimpleData name="…">` start tag of the schema's `field`, escaped once
    /// per field and kept (`simpleDataStarts`).
    func appendSimpleDataStart(field: Int) {
        while simpleDataStarts.ranges.count <= field {
            let start = simpleDataStarts.bytes.count
            KMLWriterState.append("<SimpleData name=\"", to: &simpleDataStarts.bytes)
            XMLEscaping.appendAttribute(schema.keys[simpleDataStarts.ranges.count], to: &simpleDataStarts.bytes)
            KMLWriterState.append("\">", to: &simpleDataStarts.bytes)
            simpleDataStarts.ranges.append(start..<simpleDataStarts.bytes.count)
        }
        let range = simpleDataStarts.ranges[field]
        simpleDataStarts.bytes.withUnsafeBufferPointer {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range]))
        }
    }

    /// Notes that the property `key`, at `place` in its feature, has a value of `type`;
    /// returns its field in `schema`.
    @discardableResult
    func noteType(_ type: SchemaType, for key: String, at place: Int) throws(GeoConvError) -> Int {
        if place < notedTypes.count, let noted = notedTypes[place], noted.key == key {
            if noted.type == type { return noted.field }
            try widen(field: noted.field, to: type)
            notedTypes[place]?.type = type
            return noted.field
        }
        let field: Int
        if let index = schema.index(forKey: key) {
            field = index
            try widen(field: index, to: type)
        } else {
            field = schema.count
            schema[key] = type
            events?.append(.type(LearnedType(record: recordIndex, key: key, type: type)))
        }
        if place >= notedTypes.count {
            // Places before it that hold no noted property (style keys, nulls) stay empty.
            notedTypes.append(contentsOf: repeatElement(nil, count: place + 1 - notedTypes.count))
        }
        notedTypes[place] = (key, type, field)
        return field
    }

    /// Widens a field's type to hold `type` too: int and double make double; any other mix
    /// makes string, with a warning.
    func widen(field: Int, to type: SchemaType) throws(GeoConvError) {
        let existing = schema.values[field]
        if existing == type { return }
        if existing == .string {
            // A number or boolean in a field an earlier value typed text reads back as text: said
            // once per field, as a widening is (a records writer's, by the document writer).
            if events != nil {
                events?.append(.type(LearnedType(record: recordIndex, key: schema.keys[field], type: type)))
            } else {
                try reportMixedTypes(field: field)
            }
            return
        }
        // (A double field holds an int as it is: nothing changes, the start included.)
        if existing == .double && type == .int { return }
        if existing == .int && type == .double {
            schema.values[field] = .double
        } else {
            schema.values[field] = .string
            // (A records writer's widening is the document writer's to report: `learn`.)
            if events == nil { try reportMixedTypes(field: field) }
        }
        events?.append(.type(LearnedType(record: recordIndex, key: schema.keys[field], type: schema.values[field])))
    }

    /// Reports, once per field, that its values are of several types and all read back as text.
    func reportMixedTypes(field: Int) throws(GeoConvError) {
        guard mixedTypeFields.insert(field).inserted else { return }
        try diagnostics.warn(
            KMLCode.mixedTypes,
            "property \"\(schema.keys[field])\" has values of different types; KML types it as text")
    }

    /// What a records writer's placemark made or would report (`events`).
    enum RecordEvent {
        case type(LearnedType)
        case warning(record: Int, code: KMLCode, message: String, hint: String?)
        case note(record: Int, code: KMLCode, message: String)
    }

    /// A field's type as a records writer's placemark made it (`events`).
    struct LearnedType {
        var record: Int
        var key: String
        var type: SchemaType
    }

    /// Learns a field's type from a records writer's placemark: the field added, or widened
    /// as if this writer had written the placemark (widening is an order-free join, so the
    /// schema and its warnings are those of a sequential run).
    func learn(_ fact: LearnedType) throws(GeoConvError) {
        if let field = schema.index(forKey: fact.key) {
            try widen(field: field, to: fact.type)
        } else {
            schema[fact.key] = fact.type
        }
    }
}
