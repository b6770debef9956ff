// libxml2: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CLibXML2)
internal import CLibXML2
#elseif canImport(libxml2)
internal import libxml2
#endif
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A small streaming XML pull parser over libxml2's `xmlTextReader`, safe by construction:
/// no network (`XML_PARSE_NONET`), no entity substitution, no DTD loading, no huge-node
/// override — and any document whose DTD declares entities is refused, so neither external
/// entities (XXE) nor entity expansion ("billion laughs") can happen. Element names are
/// local names (namespace prefixes dropped: `kml:Placemark` is `Placemark`).
///
/// Bytes come from a `read` closure, so the caller decides where they come from (file,
/// standard input, an archive entry); memory stays bounded by libxml2's read buffer and the
/// current node.
public final class XMLPullParser {
    private let reader: OpaquePointer
    private let source: Source
    /// The deepest element nesting accepted.
    public let maximumDepth: Int
    /// The fast path (`init(document:)`), when it reads this document instead of libxml2.
    private let fast: XMLByteTokenizer?
    /// `fast`, used on every call without being retained (it lives as long as the parser).
    private let fastPath: Unmanaged<XMLByteTokenizer>?

    /// Creates a parser reading bytes from `read`, which fills the buffer and returns the
    /// count (0 at the end) or throws.
    public convenience init(
        maximumDepth: Int = 256, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws(XMLParseError) {
        try self.init(maximumDepth: maximumDepth, read: read, fast: nil)
    }

    /// A parser reading bytes from `read`, or, with `fast`, the fast path's document.
    private init(
        maximumDepth: Int, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int,
        fast: XMLByteTokenizer?
    ) throws(XMLParseError) {
        self.maximumDepth = maximumDepth
        self.fast = fast
        fastPath = fast.map { Unmanaged.passUnretained($0) }
        source = Source(read: read)
        source.startTags.maximumDepth = maximumDepth
        let context = Unmanaged.passUnretained(source).toOpaque()
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_COMPACT.rawValue | XML_PARSE_BIG_LINES.rawValue)
        guard
            let reader = xmlReaderForIO(
                { context, buffer, length in
                    guard let context, let buffer, length > 0 else { return 0 }
                    let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
                    do {
                        let n = try source.next(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
                        if n == 0 { source.reachedEnd = true }
                        try source.screen(UnsafeRawBufferPointer(start: buffer, count: n))
                        source.startTags.scan(UnsafeRawBufferPointer(start: buffer, count: n))
                        return Int32(n)
                    } catch {
                        source.failure = error
                        return -1
                    }
                },
                nil, context, nil, nil, options)
        else {
            throw XMLParseError(message: "libxml2 could not create a reader", line: 0, column: 0)
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
                guard source.libxmlError == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                var message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
                while message.last == "\n" || message.last == " " { message.removeLast() }
                var parseError = XMLParseError(
                    message: message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
                parseError.libxmlCode = error.pointee.code
                parseError.isLibxmlDepthGuard =
                    error.pointee.code == XML_ERR_INTERNAL_ERROR.rawValue && error.pointee.int1 > 0
                parseError.startTag = XMLPullParser.startTagMention(in: error.pointee)
                if let mention = parseError.startTag { parseError.message = mention.message }
                source.libxmlError = parseError
            }, context)
    }

    /// Creates a libxml2 parser of a document held in memory.
    public convenience init(libxml2Reading document: [UInt8], maximumDepth: Int = 256) throws(XMLParseError) {
        var offset = 0
        try self.init(maximumDepth: maximumDepth) { buffer in
            let n = min(buffer.count, document.count - offset)
            if n > 0, let target = buffer.baseAddress {
                document.withUnsafeBytes { source in
                    if let start = source.baseAddress { target.copyMemory(from: start + offset, byteCount: n) }
                }
            }
            offset += n
            return n
        }
    }

    /// Creates a parser of a document held in memory that reads it without libxml2, several
    /// times faster, for as long as the document stays within what `XMLByteTokenizer`
    /// handles exactly as libxml2 does; past that, `gaveUp` is set and every call throws, and
    /// the caller reads the document again with a libxml2 parser. For well-formed documents
    /// that are many small elements (runs of KML Placemarks).
    public convenience init(document: [UInt8], maximumDepth: Int = 256) throws(XMLParseError) {
        try self.init(documentParts: [document], maximumDepth: maximumDepth)
    }

    /// The fast parser of the document made of `parts`, one after the other (one copy of
    /// them is made, not two).
    public convenience init(documentParts parts: [[UInt8]], maximumDepth: Int = 256) throws(XMLParseError) {
        try self.init(
            maximumDepth: maximumDepth, read: { _ in 0 },
            fast: XMLByteTokenizer(document: parts, maximumDepth: maximumDepth))
    }

    /// Whether the fast path met something it does not handle: nothing it gave is to be
    /// used, and the document is to be read again with libxml2.
    public var gaveUp: Bool { fast?.gaveUp ?? false }

    deinit { xmlFreeTextReader(reader) }

    /// The start tag a libxml2 error names with its line (its `str1` and `int1`), for the
    /// kinds of error whose message does.
    fileprivate static func startTagMention(in error: xmlError) -> XMLParseError.StartTagMention? {
        guard error.int1 > 0, let name = error.str1.map({ String(cString: $0) }) else { return nil }
        let kind: XMLParseError.StartTagMention.Kind
        switch xmlParserErrors(rawValue: UInt32(bitPattern: error.code)) {
        case XML_ERR_TAG_NAME_MISMATCH:
            guard let closedBy = error.str2.map({ String(cString: $0) }) else { return nil }
            kind = .mismatched(closedBy: closedBy)
        case XML_ERR_TAG_NOT_FINISHED: kind = .unfinished
        default: return nil
        }
        return XMLParseError.StartTagMention(name: name, line: Int(error.int1), kind: kind)
    }

    /// The 1-based line of the node being read.
    public var line: Int {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.nodeLine } }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }
    /// The 1-based line the current node starts on, as the document says it (the parser's
    /// `line` is where its read-ahead has got to, often further on); `nil` when unknown.
    public var nodeLine: Int? {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.nodeLine } }
        if let position = elementPosition, position.line == libxmlNodeLine { return position.line }
        return libxmlNodeLine
    }

    /// The 1-based column (in bytes) where the current element's start tag begins — for an
    /// end tag or text, the enclosing element's — when the scan of start tags agrees with
    /// libxml2 about its line; `nil` otherwise.
    public var nodeColumn: Int? {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.nodeColumn } }
        guard let position = elementPosition, position.line == libxmlNodeLine else { return nil }
        return position.column
    }

    private var libxmlNodeLine: Int? {
        guard let node = xmlTextReaderCurrentNode(reader) else { return nil }
        let line = xmlGetLineNo(node)
        return line > 0 ? Int(line) : nil
    }

    /// The start-tag positions of the elements open (the innermost last), and of the current one.
    @exclusivity(unchecked) private var openPositions: [(line: Int, column: Int)?] = []
    @exclusivity(unchecked) private var elementPosition: (line: Int, column: Int)?

    /// The 1-based column of the node being read.
    public var column: Int {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.nodeColumn } }
        return Int(xmlTextReaderGetParserColumnNumber(reader))
    }
    /// The current element nesting depth.
    public var depth: Int {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.depth } }
        return Int(xmlTextReaderDepth(reader))
    }

    /// Elements opened and not yet closed, as of the last start or end tag.
    @exclusivity(unchecked) private var openElements = 0

    /// libxml2's wording, made plain where it misleads: its reader calls a file that ends
    /// with elements still open "extra content", and its depth guard is a safety limit.
    private func explain(_ error: XMLParseError) -> XMLParseError {
        let code = error.libxmlCode.map { xmlParserErrors(rawValue: UInt32(bitPattern: $0)) }
        if source.reachedEnd, source.inProlog, source.onlyWhitespace {
            var plain = error
            plain.message =
                source.prologBytes == 0
                ? "empty file: it holds no XML element"
                : "the file holds only whitespace, no XML element"
            plain.line = source.prologBytes == 0 ? 1 : error.line
            return plain
        }
        if code == XML_ERR_RESERVED_XML_NAME, source.bytesBeforeDeclaration > 0 {
            var plain = error
            plain.message =
                "\(source.bytesBeforeDeclaration) byte(s) before the XML declaration \"<?xml\": "
                + "the declaration must open the file (remove what comes before it)"
            plain.line = 1
            plain.column = 1
            return plain
        }
        if source.reachedEnd, openElements > 0, code == XML_ERR_DOCUMENT_END || code == XML_ERR_TAG_NOT_FINISHED {
            var plain = error  // libxml2's code kept
            plain.message = "the document ends before its elements are closed: the file is truncated"
            plain.startTag = nil  // (the message no longer names it)
            return plain
        }
        if error.isLibxmlDepthGuard {
            // "Excessive depth in document: 256 use XML_PARSE_HUGE option": libxml2's own depth guard.
            var limit = error
            limit.message = "XML nested deeper than \(maximumDepth) elements"
            limit.isLimit = true
            // At the start tag that goes too deep, wherever libxml2's read-ahead stopped.
            if let place = source.startTags.firstTooDeep {
                limit.line = place.line
                limit.column = place.column
            }
            return limit
        }
        return error
    }

    /// An error at the current position.
    /// At the current node's own line and, when the start-tag scan knows it, column (the
    /// parser's position is where its read-ahead has got to); else the parser's.
    public func error(_ message: String, isLimit: Bool = false) -> XMLParseError {
        if let nodeLine {
            return XMLParseError(message: message, line: nodeLine, column: nodeColumn ?? 0, isLimit: isLimit)
        }
        return XMLParseError(message: message, line: line, column: column, isLimit: isLimit)
    }

    /// An error about a value in well-formed XML (bad coordinates, for example), at the
    /// current position: the caller may drop the element and go on.
    public func invalidValue(_ message: String) -> XMLParseError {
        var error = error(message)
        error.isInvalidValue = true
        return error
    }

    /// The error the byte source threw, if reading failed because of it.
    public var sourceFailure: (any Error)? { source.failure }

    /// Whether whitespace-only text is reported (inside `readElementText`, so that text keeps
    /// its exact spacing).
    @exclusivity(unchecked) private var reportsWhitespace = false

    /// Reports the attributes of start tags that the reader does not read (`XMLAttributeWatch`);
    /// `nil`: none is looked at.
    @exclusivity(unchecked) public var attributeWatch: XMLAttributeWatch?

    /// Hands the current start tag's attributes that `watch` does not read to its report.
    private func checkAttributes(of element: String, with watch: XMLAttributeWatch) {
        let read = watch.attributesRead(by: element)
        if let fastPath {
            for (name, value) in fastPath._withUnsafeGuaranteedRef({ $0.unread(read, ignored: watch.ignored) }) {
                watch.report(element, name, value)
            }
            return
        }
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return }
        var found: [(name: String, value: String)] = []
        repeat {
            guard xmlTextReaderIsNamespaceDecl(reader) != 1, let local = xmlTextReaderConstLocalName(reader) else {
                continue
            }
            let length = strlen(local)
            let isRead = read.contains { name in
                name.count == length
                    && name.withUnsafeBufferPointer { bytes in
                        bytes.baseAddress.map { memcmp($0, local, length) == 0 } ?? (length == 0)
                    }
            }
            guard !isRead, let qualified = xmlTextReaderConstName(reader), let value = xmlTextReaderConstValue(reader)
            else { continue }
            let name = String(cString: qualified)
            if !watch.ignored.contains(name) { found.append((name, String(cString: value))) }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
        for (name, value) in found { watch.report(element, name, value) }
    }

    /// Advances to the next start tag, end tag or non-blank text; `nil` at the end of the document.
    public func next() throws(XMLParseError) -> XMLEvent? {
        if let fastPath {
            let reportsWhitespace = reportsWhitespace
            let event = fastPath._withUnsafeGuaranteedRef { fast -> Result<XMLEvent?, XMLParseError> in
                do throws(XMLParseError) { return .success(try fast.next(reportsWhitespace: reportsWhitespace)) } catch
                { return .failure(error) }
            }
            let result = try event.get()
            if case .start(let name, _)? = result, attributeWatch != nil,
                fastPath._withUnsafeGuaranteedRef({ $0.hasAttributes }),
                let watch = attributeWatch
            {
                checkAttributes(of: name, with: watch)
            }
            return result
        }
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { return nil }
            if status < 0 {
                if let failure = source.failure as? XMLParseError { throw failure }
                if let failure = source.failure {
                    throw XMLParseError(message: "reading the input failed: \(failure)", line: line, column: column)
                }
                throw explain(source.libxmlError ?? error("the XML is not well-formed"))
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                guard depth < maximumDepth else {
                    // At the start tag that goes too deep (not where libxml2's read-ahead got to,
                    // which depends on how the input arrived).
                    elementPosition = source.startTags.claim()
                    throw error("XML nested deeper than \(maximumDepth) elements", isLimit: true)
                }
                openElements = depth + (xmlTextReaderIsEmptyElement(reader) == 1 ? 0 : 1)
                elementPosition = source.startTags.claim()
                if xmlTextReaderIsEmptyElement(reader) != 1 { openPositions.append(elementPosition) }
                let name = localName
                if attributeWatch != nil, xmlTextReaderHasAttributes(reader) == 1, let watch = attributeWatch {
                    checkAttributes(of: name, with: watch)
                }
                return XMLEvent.start(name: name, isEmpty: xmlTextReaderIsEmptyElement(reader) == 1)
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                openElements = depth
                elementPosition = openPositions.popLast() ?? nil
                return XMLEvent.end(name: localName)
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
                elementPosition = openPositions.last ?? nil
                return .text
            case Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                guard reportsWhitespace else { continue }
                elementPosition = openPositions.last ?? nil
                return .text
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                try refuseEntityDeclarations()
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                throw error("entity references are not allowed", isLimit: true)
            default:
                continue
            }
        }
    }

    /// Element names made into strings once: libxml2 keeps each name once in its dictionary,
    /// so a name's address finds its string (checked byte by byte, never trusted alone).
    @exclusivity(unchecked) private var names = [(address: UnsafePointer<xmlChar>?, bytes: [UInt8], name: String)](
        repeating: (nil, [], ""), count: 64)

    private var localName: String {
        guard let name = xmlTextReaderConstLocalName(reader) else { return "" }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: name) >> 3) & 63
        if names[slot].address == name {
            let same = names[slot].bytes.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return name[0] == 0 }
                return memcmp(name, base, bytes.count) == 0 && name[bytes.count] == 0
            }
            if same { return names[slot].name }
        }
        let length = strlen(name)
        let bytes = Array(UnsafeBufferPointer(start: name, count: length))
        let string = String(decoding: bytes, as: UTF8.self)
        names[slot] = (name, bytes, string)
        return string
    }

    /// Refuses a DTD that declares entities (general or parameter): that is how XXE and
    /// entity-expansion attacks begin, and KML never needs them.
    private func refuseEntityDeclarations() throws(XMLParseError) {
        guard let document = xmlTextReaderCurrentDoc(reader) else { return }
        for dtd in [document.pointee.intSubset, document.pointee.extSubset] {
            guard let dtd else { continue }
            if dtd.pointee.entities != nil || dtd.pointee.pentities != nil {
                throw error(
                    "the document declares XML entities, which geoconv refuses (they enable XXE and entity-expansion attacks)",
                    isLimit: true)
            }
        }
    }

    /// The current text node's bytes (valid only inside `body`).
    public func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let fastPath { return try body(fastPath._withUnsafeGuaranteedRef { $0.currentText }) }
        guard let value = xmlTextReaderConstValue(reader) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: value, count: strlen(value)))
    }

    /// The current text node as a string.
    public var text: String {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { String(decoding: $0.currentText, as: UTF8.self) } }
        guard let value = xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }

    /// The value of the current element's attribute with this local name.
    public func attribute(_ name: String) -> String? {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.attribute(name) } }
        var result: String?
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return nil }
        repeat {
            if let local = xmlTextReaderConstLocalName(reader), name.withCString({ strcmp(local, $0) == 0 }),
                let value = xmlTextReaderConstValue(reader)
            {
                result = String(cString: value)
                break
            }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// The namespace URI of the current element (after `.start` or `.end`), `nil` when it has none.
    public var namespaceURI: String? {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.namespaceURI } }
        guard let uri = xmlTextReaderConstNamespaceUri(reader) else { return nil }
        return String(cString: uri)
    }

    /// The current element's attributes as written (qualified names), namespace
    /// declarations left out, in document order.
    public var attributes: [(name: String, value: String)] {
        if let fastPath { return fastPath._withUnsafeGuaranteedRef { $0.attributes } }
        var result: [(name: String, value: String)] = []
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return result }
        repeat {
            if xmlTextReaderIsNamespaceDecl(reader) != 1, let name = xmlTextReaderConstName(reader),
                let value = xmlTextReaderConstValue(reader)
            {
                result.append((String(cString: name), String(cString: value)))
            }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// Consumes the rest of the current element (after a non-empty `.start`), returning its
    /// text content concatenated (child elements' text included).
    public func readElementText() throws(XMLParseError) -> String {
        if let fastPath {
            let read = fastPath._withUnsafeGuaranteedRef { fast -> Result<String, XMLParseError> in
                do throws(XMLParseError) { return .success(try fast.readElementText()) } catch {
                    return .failure(error)
                }
            }
            return try read.get()
        }
        reportsWhitespace = true
        defer { reportsWhitespace = false }
        var text = ""
        var level = 1
        while level > 0, let event = try next() {
            switch event {
            case .start(_, let isEmpty): if !isEmpty { level += 1 }
            case .end: level -= 1
            case .text: text += self.text
            }
        }
        return text
    }

    /// Consumes the rest of the current element (after a non-empty `.start`), returning its
    /// content as XML markup (for KML descriptions written as unescaped XHTML): child
    /// elements with their attributes, text as it reads.
    public func readElementMarkup() throws(XMLParseError) -> String {
        reportsWhitespace = true
        // (The markup keeps its elements' attributes: none is dropped, none to watch.)
        let watch = attributeWatch
        attributeWatch = nil
        defer {
            reportsWhitespace = false
            attributeWatch = watch
        }
        var markup = ""
        var level = 1
        while level > 0, let event = try next() {
            switch event {
            case .start(let name, let isEmpty):
                markup += "<" + name
                for (attribute, value) in attributes {
                    markup += " " + attribute + "=\"" + XMLEscaping.attribute(value) + "\""
                }
                markup += isEmpty ? "/>" : ">"
                if !isEmpty { level += 1 }
            case .end(let name):
                level -= 1
                if level > 0 { markup += "</" + name + ">" }
            case .text: markup += self.text
            }
        }
        return markup
    }

    /// Reads the rest of the element just started (after a non-empty `.start`), calling
    /// `body` with each child element's name and emptiness; `body` consumes the child it is
    /// given (reads its text or its own children, or skips it), so that the next event is
    /// the following sibling or this element's end. Text directly inside goes to `text`.
    /// The one event loop of the XML formats' readers.
    public func forEachChild(
        _ body: (_ name: String, _ isEmpty: Bool) throws(XMLParseError) -> Void,
        text: () throws(XMLParseError) -> Void = {}
    ) throws(XMLParseError) {
        while let event = try next() {
            switch event {
            case .start(let name, let isEmpty): try body(name, isEmpty)
            case .end: return
            case .text: try text()
            }
        }
    }

    /// Skips the rest of the current element (after a non-empty `.start`).
    public func skipElement() throws(XMLParseError) {
        var level = 1
        while level > 0, let event = try next() {
            switch event {
            case .start(_, let isEmpty): if !isEmpty { level += 1 }
            case .end: level -= 1
            case .text: break
            }
        }
    }
}
