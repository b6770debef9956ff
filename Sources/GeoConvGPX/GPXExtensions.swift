import GeoConvCore
internal import GeoConvXML

/// GPX `extensions` (and `author`, `copyright`) as JSON, and back.
///
/// An element with only text is its text; otherwise an object of its children by local
/// name (a repeated name an array), its attributes as `"@name"`, its text as `"#text"`,
/// and, when its namespace differs from its parent's, `"@xmlns"`. Writing reverses it,
/// each namespace declared as the default on the element that changes it, so the output
/// needs no prefixes and stays valid where GPX allows elements of other namespaces.
enum GPXExtensions {
    /// Reads the element just started, to its end.
    static func read(
        _ parser: XMLPullParser, isEmpty: Bool, attributes: [(name: String, value: String)], namespace: String?
    ) throws
        -> JSONValue
    {
        var object: JSONObject = [:]
        for (name, value) in attributes { object["@" + name] = .string(value) }
        var text = ""
        if !isEmpty {
            loop: while let event = try parser.next() {
                switch event {
                case .start(let child, let childEmpty):
                    let childNamespace = parser.namespaceURI
                    var value = try read(
                        parser, isEmpty: childEmpty, attributes: parser.attributes, namespace: childNamespace)
                    if let childNamespace, childNamespace != namespace {
                        value = adding(namespace: childNamespace, to: value)
                    }
                    add(value, named: child, to: &object)
                case .text: text += parser.text
                case .end: break loop
                }
            }
        }
        if object.isEmpty { return .string(text) }
        if !text.trimmed.isEmpty { object["#text"] = .string(text) }
        return .object(object)
    }

    /// `value` with `"@xmlns"` set.
    static func adding(namespace: String, to value: JSONValue) -> JSONValue {
        var object = value.objectValue ?? [:]
        if let text = value.stringValue, !text.isEmpty { object["#text"] = .string(text) }
        object["@xmlns"] = .string(namespace)
        return .object(object)
    }

    /// Adds a child's value under its name (a second one makes an array).
    static func add(_ value: JSONValue, named name: String, to object: inout JSONObject) {
        switch object[name] {
        case nil: object[name] = value
        case .array(var values)?:
            values.append(value)
            object[name] = .array(values)
        case let existing?: object[name] = .array([existing, value])
        }
    }

    /// Appends `value` as the content of an element named `name` (and its repeats, for an
    /// array). Names that are not XML names are left out and returned.
    static func write(_ value: JSONValue, named name: String, to out: inout [UInt8]) -> [String] {
        guard isXMLName(name) else { return [name] }
        if case .array(let values) = value {
            return values.flatMap { write($0, named: name, to: &out) }
        }
        var dropped: [String] = []
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name.utf8)
        guard case .object(let object) = value else {
            out.append(UInt8(ascii: ">"))
            appendText(value, to: &out)
            closing(name, to: &out)
            return dropped
        }
        for (key, attribute) in object where key.hasPrefix("@") {
            let attributeName = key == "@xmlns" ? "xmlns" : String(key.dropFirst())
            guard attributeName == "xmlns" || isXMLName(attributeName) else {
                dropped.append(key)
                continue
            }
            out.append(0x20)
            out.append(contentsOf: attributeName.utf8)
            out.append(contentsOf: "=\"".utf8)
            XMLEscaping.appendAttribute(attribute.stringValue ?? JSONText.string(attribute), to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: ">"))
        if let text = object["#text"] { appendText(text, to: &out) }
        for (key, child) in object where !key.hasPrefix("@") && key != "#text" {
            dropped += write(child, named: key, to: &out)
        }
        closing(name, to: &out)
        return dropped
    }

    private static func appendText(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .string(let text): XMLEscaping.appendText(text, to: &out)
        case .null: break
        default: XMLEscaping.appendText(JSONText.string(value), to: &out)
        }
    }

    private static func closing(_ name: String, to out: inout [UInt8]) {
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ">"))
    }

    /// Whether `name` is an XML name without a prefix (ASCII letters, digits, `_ - .`, not
    /// starting with a digit, `-`, `.`, or `xml`) — or with non-ASCII letters, which XML allows.
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !name.lowercased().hasPrefix("xml") else { return false }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (0x30...0x39).contains(first) { return false }
        return name.utf8.allSatisfy { byte in
            byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
