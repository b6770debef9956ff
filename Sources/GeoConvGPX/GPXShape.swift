import GeoConvCore
internal import GeoConvXML

/// One waypoint, route or track being written: the feature's fields sorted into GPX's
/// elements, and GDAL-style extension fields for the rest.
struct GPXShape {
    let feature: Feature
    let precision: Int?
    var out: [UInt8] = []
    /// Properties (with style and names merged in) not yet placed.
    private var fields: JSONObject
    private var extensions: JSONObject = [:]
    private var perPoint: JSONObject = [:]
    /// Per-point value names met on this feature's points, with the TrackPointExtension
    /// element each is written as (`nil`: none), worked out once per name.
    private var sensorFields: [String: Int?] = [:]

    /// Children of `wpt` (and `rtept`, `trkpt`) after `ele` and `time`, in schema order.
    static let pointOrder = [
        "magvar", "geoidheight", "name", "cmt", "desc", "src", "links", "sym", "type", "fix", "sat", "hdop",
        "vdop", "pdop", "ageofdgpsdata", "dgpsid",
    ]
    /// Children of `rte` and `trk` before their points, in schema order.
    static let lineOrder = ["name", "cmt", "desc", "src", "links", "number", "type"]

    init(feature: Feature, precision: Int?) {
        self.feature = feature
        self.precision = precision
        var fields: JSONObject = [:]
        if let title = feature.title { fields["name"] = .string(title) }
        if let snippet = feature.snippet { fields["desc"] = .string(snippet) }
        if let symbol = feature.style.markerSymbol { fields["sym"] = .string(symbol) }
        for (key, value) in StyleProperties.merged(feature) {
            // (A `title` that gives the title is written as `name` and kept under its own key.)
            switch key {
            case "name"
            where value.stringValue == feature.title && value.stringValue != nil
                && !TitleProperties.mustKeepBesideElement(key, value, of: feature):
                continue
            case "description"
            where value.stringValue == feature.snippet && value.stringValue != nil
                && !TitleProperties.mustKeepBesideElement(key, value, of: feature):
                continue
            case "marker-symbol" where value.stringValue == feature.style.markerSymbol && value.stringValue != nil:
                continue
            case "timestamp" where value.stringValue.map(GPXShape.isDateTime) == true: fields["time"] = value
            case "extensions" where value.objectValue != nil: extensions = value.objectValue ?? [:]
            case "coordinateProperties" where value.objectValue != nil: perPoint = value.objectValue ?? [:]
            default: fields[fields[key] == nil ? key : "property:" + key] = value
            }
        }
        self.fields = fields
    }

    /// A per-point array shaped like `lines`, `nil` when there is none or it does not fit.
    private func column(_ key: String, lines: [[Coordinate]], nested: Bool) -> [[JSONValue]]? {
        guard let value = perPoint[key]?.arrayValue else { return nil }
        let perLine: [[JSONValue]]
        if nested {
            let arrays = value.compactMap(\.arrayValue)
            guard arrays.count == value.count else { return nil }
            perLine = arrays
        } else {
            perLine = [value]
        }
        guard perLine.count == lines.count, zip(perLine, lines).allSatisfy({ $0.count == $1.count }) else { return nil }
        return perLine
    }

    /// A `wpt` (`properties`: the feature's fields on it) or a route or track point (its
    /// per-point values).
    mutating func point(
        _ tag: String, _ c: Coordinate, perPoint values: JSONObject, properties: Bool,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        out.append(contentsOf: "<\(tag) lat=\"".utf8)
        number(c.latitude)
        out.append(contentsOf: "\" lon=\"".utf8)
        var longitude = c.longitude
        if longitude == 180 {
            longitude = -180  // GPX's longitudeType stops short of 180: the same meridian
            try Self.warnLongitude180(diagnostics)
        }
        number(longitude)
        out.append(contentsOf: "\">".utf8)
        if let altitude = c.altitude, altitude.isFinite {
            out.append(contentsOf: "<ele>".utf8)
            number(altitude)
            out.append(contentsOf: "</ele>".utf8)
        }
        var own = properties ? fields : values
        if let value = own["time"], let text = Self.text("time", value) {
            Self.element("time", text, to: &out)
            own.removeValue(forKey: "time")
        }
        place(Self.pointOrder, from: &own)
        var kept = properties ? extensions : [:]
        if !properties, let object = own["extensions"]?.objectValue {
            kept = object
            own.removeValue(forKey: "extensions")
        }
        var sensors: [UInt8] = []
        if !properties, kept["TrackPointExtension"] == nil {
            // Heart rate, cadence, temperature… as Garmin's TrackPointExtension.
            let renamed = GarminTrackPointExtension.write(from: &own, to: &sensors) { name in
                if let known = sensorFields[name] { return known }
                let index = GarminTrackPointExtension.fieldIndex(for: name)
                sensorFields[name] = index
                return index
            }
            for name in renamed {
                let index = GarminTrackPointExtension.fieldIndex(for: name) ?? 0
                let field = GarminTrackPointExtension.fields[index]
                diagnostics.note(
                    GPXCode.sensorRenamed,
                    "per-point \"\(name)\" is written as Garmin's TrackPointExtension <\(field.element)>, read back as \"\(field.property)\""
                )
            }
        }
        try writeExtensions(own, kept, sensors: sensors, diagnostics: diagnostics)
        out.append(contentsOf: "</\(tag)>".utf8)
    }

    /// A `rte` of `lines[0]` or a `trk` of `lines`, with per-point times and fields.
    mutating func line(
        _ tag: String, lines: [[Coordinate]], nested: Bool, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        var own = fields
        out.append(contentsOf: "<\(tag)>".utf8)
        place(Self.lineOrder, from: &own)
        // Per-point columns that fit the lines go on the points; any other stays as data.
        var columns: [(String, [[JSONValue]])] = []
        var unfit: JSONObject = [:]
        for (key, value) in perPoint {
            if let column = column(key, lines: lines, nested: nested) {
                columns.append((key, column))
            } else {
                unfit[key] = value
            }
        }
        if !unfit.isEmpty {
            own["coordinateProperties"] = .object(unfit)
            diagnostics.note(
                GPXCode.coordinatePropertiesAsData,
                "coordinateProperties that do not match the points (\(unfit.keys.joined(separator: ", "))) are kept as a field"
            )
        }
        try writeExtensions(own, extensions, sensors: [], diagnostics: diagnostics)
        let pointTag = tag == "rte" ? "rtept" : "trkpt"
        for (index, line) in lines.enumerated() {
            if tag == "trk" { out.append(contentsOf: "<trkseg>".utf8) }
            for (i, c) in line.enumerated() {
                var values: JSONObject = [:]
                for (key, column) in columns where column[index][i] != .null {
                    values[key == "times" ? "time" : key] = column[index][i]
                }
                try point(pointTag, c, perPoint: values, properties: false, diagnostics: diagnostics)
            }
            if tag == "trk" { out.append(contentsOf: "</trkseg>".utf8) }
            if tag == "rte" { break }
        }
        out.append(contentsOf: "</\(tag)>".utf8)
    }

    /// Writes the fields of `order` that `own` holds with values GPX accepts, removing them.
    private mutating func place(_ order: [String], from own: inout JSONObject) {
        for key in order {
            guard let value = own[key] else { continue }
            if key == "links" {
                guard Self.isLinkList(value) else { continue }
                Self.links(value, to: &out)
            } else {
                guard let text = Self.text(key, value) else { continue }
                Self.element(key, text, to: &out)
            }
            own.removeValue(forKey: key)
        }
    }

    /// `<extensions>`: a point's `sensors` (its TrackPointExtension), what GPX has no element
    /// for as GDAL fields, then kept extensions.
    private mutating func writeExtensions(
        _ rest: JSONObject, _ kept: JSONObject, sensors: [UInt8], diagnostics: DiagnosticLog
    )
        throws(GeoConvError)
    {
        guard !rest.isEmpty || !kept.isEmpty || !sensors.isEmpty else { return }
        out.append(contentsOf: "<extensions>".utf8)
        out.append(contentsOf: sensors)
        for (key, value) in rest {
            Self.field(key.hasPrefix("property:") ? String(key.dropFirst(9)) : key, value, to: &out)
        }
        var dropped: [String] = []
        for (key, value) in kept { dropped += GPXExtensions.write(value, named: key, to: &out) }
        out.append(contentsOf: "</extensions>".utf8)
        for name in dropped {
            try diagnostics.warn(
                GPXCode.extensionNameDropped, "\"\(name)\" in extensions is not an XML name and is not written")
        }
    }

    /// Notes that a longitude of 180 is written as -180.
    /// A warning, not a note: the same meridian, but a line that reaches it from the east
    /// now ends at -180, and viewers that do not wrap draw it across the map.
    static func warnLongitude180(_ diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            GPXCode.longitude180,
            "longitude 180 is written as -180 (GPX longitudes are in [-180, 180)): the same meridian, "
                + "but a line that reaches it from the east is drawn across the map by viewers "
                + "that do not wrap",
            hint: "GeoJSON and KML keep 180")
    }

    private mutating func number(_ value: Double) { DecimalFormatter.append(value, digits: precision, to: &out) }

    // MARK: Values

    /// The element text for a GPX field, `nil` when the value is not valid for it there.
    static func text(_ key: String, _ value: JSONValue) -> String? {
        switch key {
        case "time": return value.stringValue.flatMap { isDateTime($0) ? $0 : nil }
        case "fix": return value.stringValue.flatMap { ["none", "2d", "3d", "dgps", "pps"].contains($0) ? $0 : nil }
        case "sat", "number", "dgpsid":
            guard let n = integer(value), n >= 0, key != "dgpsid" || n <= 1023 else { return nil }
            return String(n)
        case "magvar":
            guard let d = decimal(value), d >= 0, d < 360 else { return nil }
            return decimalText(d)
        case "geoidheight", "hdop", "vdop", "pdop", "ageofdgpsdata": return decimal(value).map(decimalText)
        default: return value.stringValue  // name, cmt, desc, src, sym, type
        }
    }

    private static func integer(_ value: JSONValue) -> Int? {
        if case .number(let n) = value { return n.intValue }
        return value.stringValue.flatMap { Int($0) }
    }

    private static func decimal(_ value: JSONValue) -> Double? {
        guard case .number(let n) = value, n.doubleValue.isFinite else { return nil }
        return n.doubleValue
    }

    private static func decimalText(_ value: Double) -> String {
        var out: [UInt8] = []
        DecimalFormatter.appendShortest(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` is an `xsd:dateTime`: `YYYY-MM-DDThh:mm:ss`, optional fraction, optional `Z` or offset.
    static func isDateTime(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= b.count && b[range].allSatisfy { (0x30...0x39).contains($0) }
        }
        var start = 0
        if b.first == UInt8(ascii: "-") { start = 1 }
        guard b.count >= start + 19, digits(start..<start + 4), b[start + 4] == UInt8(ascii: "-"),
            digits(start + 5..<start + 7),
            b[start + 7] == UInt8(ascii: "-"), digits(start + 8..<start + 10), b[start + 10] == UInt8(ascii: "T"),
            digits(start + 11..<start + 13), b[start + 13] == UInt8(ascii: ":"), digits(start + 14..<start + 16),
            b[start + 16] == UInt8(ascii: ":"), digits(start + 17..<start + 19)
        else { return false }
        var i = start + 19
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let fraction = i
            while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
            if i == fraction { return false }
        }
        if i == b.count { return true }
        if b[i] == UInt8(ascii: "Z") { return i + 1 == b.count }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count == i + 6, digits(i + 1..<i + 3),
            b[i + 3] == UInt8(ascii: ":"), digits(i + 4..<i + 6)
        else { return false }
        return true
    }

    static func isLinkList(_ value: JSONValue) -> Bool {
        guard let links = value.arrayValue else { return false }
        return links.allSatisfy { link in
            guard let object = link.objectValue, object["href"]?.stringValue != nil else { return false }
            return object.allSatisfy { key, value in ["href", "text", "type"].contains(key) && value.stringValue != nil
            }
        }
    }

    /// `link` elements (a list that `isLinkList`).
    static func links(_ value: JSONValue, to out: inout [UInt8]) {
        for link in value.arrayValue ?? [] {
            guard let object = link.objectValue, let href = object["href"]?.stringValue else { continue }
            out.append(contentsOf: "<link href=\"".utf8)
            XMLEscaping.appendAttribute(href, to: &out)
            out.append(contentsOf: "\">".utf8)
            if let text = object["text"]?.stringValue { element("text", text, to: &out) }
            if let type = object["type"]?.stringValue { element("type", type, to: &out) }
            out.append(contentsOf: "</link>".utf8)
        }
    }

    static func element(_ name: String, _ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: "<\(name)>".utf8)
        XMLEscaping.appendText(text, to: &out)
        out.append(contentsOf: "</\(name)>".utf8)
    }

    /// A GDAL field, `<ogr:key>`, typed when the text alone would read back as another value.
    static func field(_ key: String, _ value: JSONValue, to out: inout [UInt8]) {
        let name = GPXExtensions.isXMLName(key) ? key : "field"
        out.append(contentsOf: "<ogr:\(name)".utf8)
        if name != key {
            out.append(contentsOf: " name=\"".utf8)
            XMLEscaping.appendAttribute(key, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        let text: String
        switch value {
        case .string(let s) where XMLEscaping.hasForbiddenCharacters(s):
            text = JSONText.string(value)  // control characters XML cannot hold, escaped as JSON
            out.append(contentsOf: " type=\"json\"".utf8)
        case .string(let s):
            text = s
            if GPXFields.typed(s, as: nil) != value { out.append(contentsOf: " type=\"string\"".utf8) }
        case .number(let n): text = n.literal
        case .bool(let b): text = b ? "true" : "false"
        case .null, .array, .object:
            text = JSONText.string(value)
            out.append(contentsOf: " type=\"json\"".utf8)
        }
        out.append(UInt8(ascii: ">"))
        XMLEscaping.appendText(text, to: &out)
        out.append(contentsOf: "</ogr:\(name)>".utf8)
    }
}
