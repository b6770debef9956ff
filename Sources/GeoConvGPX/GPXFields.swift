import GeoConvCore
import GeoConvIO
internal import GeoConvXML

/// The fields of waypoints, routes and tracks, read into JSON values.
enum GPXFields {
    /// The key under which GDAL's fields (`<ogr:name>` extensions) are gathered while reading.
    static let gdalFields = "ogr:fields"
    /// Fields whose schema type is a number (`sat`, `number` and `dgpsid` integers).
    static let numeric: Set<String> = [
        "magvar", "geoidheight", "hdop", "vdop", "pdop", "ageofdgpsdata", "sat", "dgpsid", "number",
        "course", "speed",
    ]

    /// Reads a child of a point, route or track (its start just read) into `fields`.
    static func read(
        _ element: String, isEmpty: Bool, parser: XMLPullParser, into fields: inout JSONObject,
        diagnostics: DiagnosticLog, at location: SourceLocation
    ) throws {
        switch element {
        case "link": append(link: try readLink(parser, isEmpty: isEmpty), to: &fields)
        case "url" where !isEmpty: append(link: ["href": .string(try parser.readElementText())], to: &fields)
        case "urlname" where !isEmpty: nameLastLink(try parser.readElementText(), in: &fields)
        case "extensions" where !isEmpty:
            try readExtensions(parser, into: &fields, diagnostics: diagnostics, at: location)
        default:
            if let namespace = parser.namespaceURI, namespace != GPXNames.namespace, namespace != GPXNames.namespace10 {
                // Another namespace's element outside <extensions> (GPX 1.0 allows it: Groundspeak's
                // cache details): kept whole, with its attributes and children, as an extension
                // (GPX 1.1 holds such elements in <extensions>).
                var other = fields["extensions"]?.objectValue ?? [:]
                let value = try GPXExtensions.read(
                    parser, isEmpty: isEmpty, attributes: parser.attributes, namespace: namespace)
                GPXExtensions.add(GPXExtensions.adding(namespace: namespace, to: value), named: element, to: &other)
                fields["extensions"] = .object(other)
                return
            }
            let text = isEmpty ? "" : try parser.readElementText()
            if numeric.contains(element), let value = number(text.trimmed) {
                fields[element] = value
            } else {
                fields[element] = .string(text)
            }
        }
    }

    /// An `extensions` element: children in GDAL's namespace become fields (typed as GDAL
    /// types them), the rest is kept under `extensions`.
    static func readExtensions(
        _ parser: XMLPullParser, into fields: inout JSONObject, diagnostics: DiagnosticLog,
        at location: SourceLocation
    ) throws {
        var gdal = fields[gdalFields]?.objectValue ?? [:]
        var other = fields["extensions"]?.objectValue ?? [:]
        while let event = try parser.next() {
            switch event {
            case .start(let child, let isEmpty):
                let namespace = parser.namespaceURI
                let attributes = parser.attributes
                if namespace == GPXNames.ogrNamespace {
                    let text = isEmpty ? "" : try parser.readElementText()
                    let name = attributes.first { $0.name == "name" }?.value ?? child
                    gdal[name] = typed(text, as: attributes.first { $0.name == "type" }?.value)
                } else {
                    var value = try GPXExtensions.read(
                        parser, isEmpty: isEmpty, attributes: attributes, namespace: namespace)
                    if let namespace, namespace != GPXNames.namespace {
                        value = GPXExtensions.adding(namespace: namespace, to: value)
                    }
                    GPXExtensions.add(value, named: child, to: &other)
                }
            case .end:
                if !gdal.isEmpty { fields[gdalFields] = .object(gdal) }
                if !other.isEmpty { fields["extensions"] = .object(other) }
                return
            case .text:
                // Text straight inside <extensions> (beside its elements) has no element to be kept in.
                if !parser.text.trimmed.isEmpty {
                    try diagnostics.warn(
                        GPXCode.extensionTextDropped,
                        "text \"\(parser.text.trimmed)\" straight inside <extensions> is not kept: only elements are",
                        at: location)
                }
            }
        }
    }

    /// A GDAL field's value: as its `type` attribute says when geoconv wrote one, else a
    /// number or boolean when the text is one (as GDAL reads it), else the text.
    static func typed(_ text: String, as type: String?) -> JSONValue {
        switch type {
        case "string": return .string(text)
        case "json": return JSONText.parse(text) ?? .string(text)
        default:
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
            if let literal = JSONNumber(literal: text) { return .number(literal) }
            return .string(text)
        }
    }

    /// A `link`: `{"href", "text", "type"}`.
    static func readLink(_ parser: XMLPullParser, isEmpty: Bool) throws -> JSONObject {
        var link: JSONObject = [:]
        if let href = parser.attribute("href") { link["href"] = .string(href) }
        guard !isEmpty else { return link }
        while let event = try parser.next() {
            switch event {
            case .start(let child, let childEmpty):
                link[child] = .string(childEmpty ? "" : try parser.readElementText())
            case .end: return link
            case .text: continue
            }
        }
        return link
    }

    static func append(link: JSONObject, to fields: inout JSONObject) {
        var links = fields["links"]?.arrayValue ?? []
        links.append(.object(link))
        fields["links"] = .array(links)
    }

    /// GPX 1.0's `urlname`: the text of the link its `url` made.
    static func nameLastLink(_ name: String, in fields: inout JSONObject) {
        var links = fields["links"]?.arrayValue ?? []
        if var last = links.last?.objectValue, last["text"] == nil {
            last["text"] = .string(name)
            links[links.count - 1] = .object(last)
        } else {
            links.append(.object(["text": .string(name)]))
        }
        fields["links"] = .array(links)
    }

    /// A JSON number for a decimal text, `nil` when it is not one.
    static func number(_ text: String) -> JSONValue? {
        if let literal = JSONNumber(literal: text) { return .number(literal) }
        guard let value = decimal(text), let number = JSONNumber(value) else { return nil }
        return .number(number)
    }

    /// A finite decimal (`xsd:decimal`, leading `+` and surrounding spaces allowed).
    static func decimal(_ text: String) -> Double? {
        var text = text.trimmed
        if text.hasPrefix("+") { text.removeFirst() }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A finite number of degrees.
    static func degrees(_ text: String) -> Double? { decimal(text) }
}

extension String {
    /// Without leading and trailing XML whitespace.
    var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
