/// One value of an XML document: an element's text or an attribute's value, with the start
/// positions of its element and the elements around it (for the conservation check).
public struct XMLListedValue: Sendable {
    /// The text (entities resolved, CDATA as its content).
    public var text: String
    /// The local name of the element holding it.
    public var element: String
    /// The attribute's qualified name; `nil` for element text.
    public var attribute: String?
    /// The local names of the enclosing elements, outermost first (the holding one last).
    public var path: [String]
    /// The start-tag positions (line, column) of the enclosing elements, outermost first.
    public var enclosing: [(line: Int, column: Int)]
}

/// Lists every element text and attribute value of an XML document, through libxml2 with
/// the same safe settings as the readers. Namespace declarations are not values and are
/// left out; so is `xsi:schemaLocation`, which says where a schema lives, not what the
/// document holds.
public enum XMLValueListing {
    /// Every value of the document that `read` gives (see `XMLPullParser.init(read:)`). The
    /// content of an element named in `markupElements` (KML's `description`, which may hold
    /// unescaped XHTML) is one value, its markup as the format's reader keeps it.
    public static func values(
        maximumDepth: Int = 256, markupElements: Set<String> = [],
        read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    )
        throws(XMLParseError) -> [XMLListedValue]
    {
        let parser = try XMLPullParser(maximumDepth: maximumDepth, read: read)
        var values: [XMLListedValue] = []
        var names: [String] = []
        var places: [(line: Int, column: Int)] = []
        var text = ""
        func flushText() {
            guard !text.isEmpty, let element = names.last else {
                text = ""
                return
            }
            values.append(XMLListedValue(text: text, element: element, attribute: nil, path: names, enclosing: places))
            text = ""
        }
        while let event = try parser.next() {
            switch event {
            case .start(let name, let isEmpty):
                flushText()
                names.append(name)
                places.append((parser.nodeLine ?? parser.line, parser.nodeColumn ?? 0))
                for (attribute, value) in parser.attributes where attribute != "xsi:schemaLocation" {
                    values.append(
                        XMLListedValue(text: value, element: name, attribute: attribute, path: names, enclosing: places)
                    )
                }
                if isEmpty {
                    names.removeLast()
                    places.removeLast()
                } else if markupElements.contains(name) {
                    let markup = try parser.readElementMarkup()
                    if !markup.isEmpty {
                        values.append(
                            XMLListedValue(text: markup, element: name, attribute: nil, path: names, enclosing: places))
                    }
                    names.removeLast()
                    places.removeLast()
                }
            case .end:
                flushText()
                if !names.isEmpty {
                    names.removeLast()
                    places.removeLast()
                }
            case .text:
                // Text split by comments or CDATA sections is one value.
                text += parser.text
            }
        }
        flushText()
        return values
    }
}
