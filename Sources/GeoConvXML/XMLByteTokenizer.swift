#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A pull tokenizer for plain, well-formed UTF-8 XML held in memory, several times faster
/// than libxml2's reader: the fast path of `XMLPullParser(document:)`, for the runs of KML
/// Placemarks that `--jobs` reads on other threads.
///
/// It gives the events, names, text, attributes and start-tag positions libxml2's reader
/// gives — and gives up (`gaveUp`, and every call throws) at anything it does not handle
/// exactly as libxml2 does, leaving the caller to read the document with libxml2 again:
/// malformed XML of any kind (libxml2 words the error), comments, processing instructions
/// other than the XML declaration, document type declarations, an encoding other than
/// UTF-8, entity references other than the five predefined ones, names that are not ASCII,
/// namespace declarations below the root, undeclared or `xml:` prefixes, two attributes
/// with one local name, a start tag spanning lines, a lone carriage return, and nesting
/// deeper than the limit.
///
/// Where each piece of markup ends is not decided here: `XMLMarkupLexer`, the one grammar of
/// markup boundaries that the KML splitter and the start-tag positions beside libxml2 lex
/// with, says where the construct at a `<` ends and what it is. The tokenizer reads the
/// construct within those bounds and gives up when its own reading does not end exactly there.
final class XMLByteTokenizer {
    /// What the current node is.
    enum Kind { case none, start, end, text }

    let base: UnsafeMutablePointer<UInt8>
    private let count: Int
    private let maximumDepth: Int
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var lineStart = 0
    /// Set when the document is beyond this tokenizer; every later call throws.
    @exclusivity(unchecked) private(set) var gaveUp = false
    @exclusivity(unchecked) private var sawRoot = false

    /// Open elements: the qualified name's offset and length, where the local name starts,
    /// and the start tag's line and column.
    @exclusivity(unchecked) private var open: [(name: Int, length: Int, local: Int, line: Int, column: Int)] = []
    /// Namespace prefixes the root declares (prefix bytes, URI), and its default namespace.
    @exclusivity(unchecked) private(set) var prefixes: [(prefix: [UInt8], uri: String)] = []
    @exclusivity(unchecked) private(set) var defaultNamespace: String?

    // The current node.
    @exclusivity(unchecked) private(set) var kind = Kind.none
    @exclusivity(unchecked) private(set) var nodeLine = 1
    @exclusivity(unchecked) private(set) var nodeColumn = 1
    /// Element nesting depth of the current node (libxml2's `xmlTextReaderDepth`).
    @exclusivity(unchecked) private(set) var depth = 0
    @exclusivity(unchecked) private var name = ""
    @exclusivity(unchecked) private(set) var namePrefix: Range<Int>?
    /// The current start tag's attributes: qualified name, local name and value (offsets),
    /// whether the value holds references or line breaks to rewrite, whether it declares a namespace.
    @exclusivity(unchecked) private(set) var attributeList:
        [(qualified: Range<Int>, local: Range<Int>, value: Range<Int>, rewrite: Bool, isDeclaration: Bool)] = []
    /// The current text: a range of the document when it needs no rewriting, else `decoded`.
    @exclusivity(unchecked) private var textRange = 0..<0
    @exclusivity(unchecked) private var textIsDecoded = false
    /// Text with references replaced (or line breaks normalised): `decodedCount` bytes.
    @exclusivity(unchecked) private var decoded: UnsafeMutablePointer<UInt8> = .allocate(capacity: 256)
    @exclusivity(unchecked) private var decodedCount = 0, decodedCapacity = 256
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    /// Element names made into strings once.
    private let names = XMLNameCache()

    /// The reason the tokenizer gave up (thrown by every call from then on).
    private static let unsupported = XMLParseError(message: "beyond the fast XML path", line: 0, column: 0)

    /// A tokenizer of the document made of `parts`, one after the other.
    init(document parts: [[UInt8]], maximumDepth: Int) {
        count = parts.reduce(0) { $0 + $1.count }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, count))
        var filled = 0
        for part in parts {
            part.withUnsafeBufferPointer { source in
                if let start = source.baseAddress { (copy + filled).update(from: start, count: part.count) }
            }
            filled += part.count
        }
        base = copy
        self.maximumDepth = maximumDepth
        readDeclaration()
    }

    deinit {
        base.deallocate()
        decoded.deallocate()
        names.deallocate()
    }

    /// Makes `bytes` the current (decoded) text.
    private func setDecoded(_ bytes: [UInt8]) {
        if bytes.count > decodedCapacity {
            decoded.deallocate()
            decodedCapacity = max(bytes.count, decodedCapacity * 2)
            decoded = .allocate(capacity: decodedCapacity)
        }
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { decoded.update(from: start, count: bytes.count) }
        }
        decodedCount = bytes.count
        textIsDecoded = true
    }

    private func giveUp() -> XMLParseError {
        gaveUp = true
        return Self.unsupported
    }

    // MARK: Events

    /// The next start tag, end tag or text (whitespace-only text only when `reportsWhitespace`);
    /// `nil` at the end of the document.
    func next(reportsWhitespace: Bool) throws(XMLParseError) -> XMLEvent? {
        if gaveUp { throw Self.unsupported }
        while true {
            guard position < count else {
                if !open.isEmpty || !sawRoot { throw giveUp() }
                kind = .none
                return nil
            }
            if base[position] != UInt8(ascii: "<") {
                let start = position
                let reported = try readText()
                if open.isEmpty {
                    // Outside the root only blanks are allowed, as written (no references).
                    if !isBlank(UnsafeBufferPointer(start: base + start, count: position - start)) { throw giveUp() }
                    continue
                }
                if !reported && !reportsWhitespace { continue }
                return .text
            }
            guard let markup = markup(at: position) else { throw giveUp() }
            let end = position + markup.end
            switch markup.kind {
            case .startTag:
                return try readStartTag(end: end, isEmpty: false)
            case .emptyElementTag:
                return try readStartTag(end: end, isEmpty: true)
            case .endTag:
                return try readEndTag(end: end)
            case .cdata:
                guard !open.isEmpty else { throw giveUp() }
                try readCDATA(end: end)
                return .text
            case .comment, .processingInstruction, .documentType:
                throw giveUp()
            }
        }
    }

    /// The markup construct whose `<` is at `start`, as the one grammar of markup boundaries
    /// lexes it: its kind, and its end as an offset from `start`. `nil` when the document ends first.
    @inline(__always)
    private func markup(at start: Int) -> XMLMarkupLexer.Construct? {
        var lexer = XMLMarkupLexer(countsLines: false)
        return lexer.next(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// The text of the current element (after a start tag that is not empty) up to its end
    /// tag, which is read too: `XMLPullParser.readElementText()` without an event handed
    /// out for each node.
    func readElementText() throws(XMLParseError) -> String {
        var text = ""
        var level = 1
        while level > 0, let event = try next(reportsWhitespace: true) {
            switch event {
            case .start(_, let isEmpty): if !isEmpty { level += 1 }
            case .end: level -= 1
            case .text: text += String(decoding: currentText, as: UTF8.self)
            }
        }
        return text
    }

    /// The current text's bytes, decoded.
    /// (Valid until the next event.)
    var currentText: UnsafeBufferPointer<UInt8> {
        if textIsDecoded { return UnsafeBufferPointer(start: decoded, count: decodedCount) }
        return UnsafeBufferPointer(start: base + textRange.lowerBound, count: textRange.count)
    }

    /// The current element's name (local name).
    var elementName: String { name }

    /// The namespace URI a prefix (its bytes in the document) is bound to, if any.
    func namespace(of prefix: Range<Int>) -> String? {
        let bytes = UnsafeBufferPointer(start: base + prefix.lowerBound, count: prefix.count)
        return prefixes.first { $0.prefix.elementsEqual(bytes) }?.uri
    }

    // MARK: Reading constructs

    /// `<?xml version="1.0" [encoding="UTF-8"]?>` at the very start, on one line, read
    /// strictly: any other version, encoding or pseudo-attribute (`standalone`) gives up.
    private func readDeclaration() {
        guard matches("<?xml", at: 0), count > 5, base[5] == 0x20 || base[5] == 0x09 else { return }
        var i = 5
        var names: [[UInt8]] = []
        while true {
            let blanks = i
            while i < count, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
            guard i + 1 < count else {
                gaveUp = true
                return
            }
            if base[i] == UInt8(ascii: "?") && base[i + 1] == UInt8(ascii: ">") {
                guard names.first == Array("version".utf8), let markup = markup(at: 0),
                    markup.kind == .processingInstruction, markup.end == i + 2
                else {
                    gaveUp = true
                    return
                }
                position = i + 2
                return
            }
            // ` name="value"`: a blank before each.
            guard i > blanks else {
                gaveUp = true
                return
            }
            let nameStart = i
            while i < count, (base[i] | 0x20) >= UInt8(ascii: "a") && (base[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
            let name = Array(UnsafeBufferPointer(start: base + nameStart, count: i - nameStart))
            while i < count, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
            guard i < count, base[i] == UInt8(ascii: "=") else {
                gaveUp = true
                return
            }
            i += 1
            while i < count, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
            guard i < count, base[i] == UInt8(ascii: "\"") || base[i] == UInt8(ascii: "'") else {
                gaveUp = true
                return
            }
            let quote = base[i]
            let valueStart = i + 1
            i = valueStart
            while i < count, base[i] != quote, base[i] >= 0x20, base[i] < 0x80 { i += 1 }
            guard i < count, base[i] == quote else {
                gaveUp = true
                return
            }
            let value = UnsafeBufferPointer(start: base + valueStart, count: i - valueStart)
            i += 1
            let expected: [[UInt8]]
            switch names.count {
            case 0: expected = [Array("version".utf8)]
            case 1: expected = [Array("encoding".utf8)]
            default: expected = []
            }
            guard expected.contains(name) else {
                gaveUp = true
                return
            }
            if names.isEmpty {
                guard value.elementsEqual("1.0".utf8) else {
                    gaveUp = true
                    return
                }
            } else {
                let lower = value.map { $0 | 0x20 }
                guard lower.elementsEqual("utf-8".utf8) || lower.elementsEqual("utf8".utf8) else {
                    gaveUp = true
                    return
                }
            }
            names.append(name)
        }
    }

    /// Text up to the next `<`; returns whether it is more than blanks.
    private func readText() throws(XMLParseError) -> Bool {
        let start = position
        var rewrite = false
        var nonASCII = false
        var i = position
        let special = XMLByteTokenizer.textSpecials
        while i < count {
            // Plain bytes, by table, up to the next one that needs a look.
            while i < count && special[Int(base[i])] == 0 { i += 1 }
            guard i < count else { break }
            let byte = base[i]
            if byte == UInt8(ascii: "<") { break }
            if byte < 0x20 {
                if byte == 0x0A {
                    line += 1
                    lineStart = i + 1
                } else if byte == 0x0D {
                    guard i + 1 < count, base[i + 1] == 0x0A else { throw giveUp() }
                    rewrite = true
                } else if byte != 0x09 {
                    throw giveUp()
                }
            } else if byte == UInt8(ascii: "&") {
                rewrite = true
            } else if byte == UInt8(ascii: ">") {
                if i >= start + 2 && base[i - 1] == UInt8(ascii: "]") && base[i - 2] == UInt8(ascii: "]") {
                    throw giveUp()
                }
            } else if byte >= 0x80 {
                nonASCII = true
            }
            i += 1
        }
        position = i
        nodeLine = line  // (only errors, which make the caller give up, ask a text's place)
        let raw = UnsafeBufferPointer(start: base + start, count: i - start)
        if nonASCII, !XMLCharacterData.isXMLUTF8(raw) { throw giveUp() }
        if let element = open.last { nodeColumn = element.column }
        depth = open.count
        kind = .text
        if rewrite {
            scratch.removeAll(keepingCapacity: true)
            guard XMLCharacterData.decode(raw, into: &scratch, normalizesBlanks: false) else { throw giveUp() }
            setDecoded(scratch)
        } else {
            textIsDecoded = false
            textRange = start..<i
        }
        return !isBlank(currentText)
    }

    /// `<![CDATA[…]]>`, ending just before `end`: its bytes as they are.
    private func readCDATA(end: Int) throws(XMLParseError) {
        let start = position + 9
        let contentEnd = end - 3  // "]]>"
        guard contentEnd >= start else { throw giveUp() }
        var i = start
        var nonASCII = false
        while i < contentEnd {
            let byte = base[i]
            if byte < 0x20 {
                if byte == 0x0A {
                    line += 1
                    lineStart = i + 1
                } else {
                    // (libxml2 keeps a CDATA section's carriage returns: not followed here.)
                    guard byte == 0x09 else { throw giveUp() }
                }
            } else if byte >= 0x80 {
                nonASCII = true
            }
            i += 1
        }
        // (libxml2 gives an empty section as a node or not depending on what is around it,
        // and merges a section with the next one right after it.)
        guard i > start, !matches("<![CDATA[", at: end) else { throw giveUp() }
        let raw = UnsafeBufferPointer(start: base + start, count: i - start)
        if nonASCII, !XMLCharacterData.isXMLUTF8(raw) { throw giveUp() }
        position = end
        depth = open.count
        kind = .text
        textIsDecoded = false
        textRange = start..<i
    }

    /// The end tag that ends just before `end`.
    private func readEndTag(end: Int) throws(XMLParseError) -> XMLEvent {
        guard let element = open.popLast() else { throw giveUp() }
        let nameStart = position + 2
        guard nameStart + element.length < end, memcmp(base + nameStart, base + element.name, element.length) == 0
        else { throw giveUp() }
        var i = nameStart + element.length
        while i < end, isBlankByte(base[i]) {
            if base[i] == 0x0A {
                line += 1
                lineStart = i + 1
            } else if base[i] == 0x0D {
                throw giveUp()
            }
            i += 1
        }
        guard i == end - 1 else { throw giveUp() }  // (the lexer ended it at its first `>`)
        position = end
        (nodeLine, nodeColumn) = (element.line, element.column)
        depth = open.count
        kind = .end
        namePrefix = element.local > element.name ? element.name..<(element.local - 1) : nil
        setName(start: element.local, length: element.name + element.length - element.local)
        return .end(name: name)
    }

    /// The start tag (or empty-element tag, `isEmpty`) that ends just before `end`.
    private func readStartTag(end: Int, isEmpty: Bool) throws(XMLParseError) -> XMLEvent {
        let tagStart = position
        let (nameEnd, colon) = try scanName(from: position + 1, to: end)
        let elementLine = line
        let elementColumn = tagStart - lineStart + 1
        if !attributeList.isEmpty { attributeList.removeAll(keepingCapacity: true) }
        // The attributes end where the lexer ended the tag: at "/>" or ">".
        let attributesEnd = end - (isEmpty ? 2 : 1)
        var i = nameEnd
        while i < attributesEnd {
            // Blanks, then an attribute (a tag on one line: a line break gives up).
            guard base[i] == 0x20 || base[i] == 0x09 else { throw giveUp() }
            while i < attributesEnd, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
            if i < attributesEnd { i = try readAttribute(from: i, to: attributesEnd) }
        }
        guard i == attributesEnd else { throw giveUp() }
        if !sawRoot {
            sawRoot = true
            try declareNamespaces()
        } else if open.isEmpty {
            throw giveUp()  // a second root
        }
        if attributeList.contains(where: { $0.isDeclaration }) && open.count > 0 { throw giveUp() }
        if let colon {
            let prefix = (tagStart + 1)..<colon
            guard namespace(of: prefix) != nil else { throw giveUp() }
            namePrefix = prefix
        } else {
            namePrefix = nil
        }
        for attribute in attributeList
        where !attribute.isDeclaration && attribute.local.lowerBound != attribute.qualified.lowerBound {
            guard namespace(of: attribute.qualified.lowerBound..<(attribute.local.lowerBound - 1)) != nil else {
                throw giveUp()
            }
        }
        guard open.count < maximumDepth else { throw giveUp() }
        position = end
        (nodeLine, nodeColumn) = (elementLine, elementColumn)
        depth = open.count
        kind = .start
        let localStart = colon.map { $0 + 1 } ?? (tagStart + 1)
        setName(start: localStart, length: nameEnd - localStart)
        if !isEmpty { open.append((tagStart + 1, nameEnd - tagStart - 1, localStart, elementLine, elementColumn)) }
        return .start(name: name, isEmpty: isEmpty)
    }

    /// `name="value"` from `start`, within a tag whose attributes end before `end`; returns
    /// the index after the closing quote.
    private func readAttribute(from start: Int, to end: Int) throws(XMLParseError) -> Int {
        let (nameEnd, colon) = try scanName(from: start, to: end)
        var i = nameEnd
        while i < end, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
        guard i < end, base[i] == UInt8(ascii: "=") else { throw giveUp() }
        i += 1
        while i < end, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
        guard i < end, base[i] == UInt8(ascii: "\"") || base[i] == UInt8(ascii: "'") else { throw giveUp() }
        let quote = base[i]
        let valueStart = i + 1
        i = valueStart
        var rewrite = false
        var nonASCII = false
        let special = XMLByteTokenizer.valueSpecials
        while true {
            // Plain bytes, by table, up to the next one that needs a look.
            while i < end && special[Int(base[i])] == 0 { i += 1 }
            guard i < end else { throw giveUp() }
            let byte = base[i]
            if byte == quote { break }
            if byte == UInt8(ascii: "<") { throw giveUp() }
            if byte == UInt8(ascii: "&") || byte == 0x09 {
                rewrite = true
            } else if byte < 0x20 {
                throw giveUp()  // a line break (or a control character) inside a tag
            } else if byte >= 0x80 {
                nonASCII = true
            }
            i += 1
        }
        let value = valueStart..<i
        if nonASCII, !XMLCharacterData.isXMLUTF8(UnsafeBufferPointer(start: base + valueStart, count: i - valueStart)) {
            throw giveUp()
        }
        if rewrite {
            scratch.removeAll(keepingCapacity: true)
            guard
                XMLCharacterData.decode(
                    UnsafeBufferPointer(start: base + valueStart, count: i - valueStart), into: &scratch,
                    normalizesBlanks: true)
            else { throw giveUp() }
        }
        let qualified = start..<nameEnd
        var isDeclaration = false
        var local = (colon.map { $0 + 1 } ?? start)..<nameEnd
        if let colon {
            let prefix = UnsafeBufferPointer(start: base + start, count: colon - start)
            if prefix.elementsEqual("xml".utf8) { throw giveUp() }
            isDeclaration = prefix.elementsEqual("xmlns".utf8)
        } else if qualified.count == 5 && memcmp(base + start, "xmlns", 5) == 0 {
            isDeclaration = true
            local = qualified
        }
        // (libxml2 keeps references in a namespace name as written: not followed here.)
        if isDeclaration && rewrite { throw giveUp() }
        for other in attributeList {
            if other.local.count == local.count
                && memcmp(base + other.local.lowerBound, base + local.lowerBound, local.count) == 0
            {
                throw giveUp()
            }
        }
        attributeList.append((qualified, local, value, rewrite, isDeclaration))
        return i + 1
    }

    /// The root's namespace declarations.
    private func declareNamespaces() throws(XMLParseError) {
        for attribute in attributeList where attribute.isDeclaration {
            let uri = value(of: attribute)
            if attribute.local == attribute.qualified {
                defaultNamespace = uri.isEmpty ? nil : uri
            } else {
                guard !uri.isEmpty else { throw giveUp() }
                prefixes.append(
                    (
                        Array(
                            UnsafeBufferPointer(start: base + attribute.local.lowerBound, count: attribute.local.count)),
                        uri
                    ))
            }
        }
    }

    /// An ASCII XML name from `start`, before `end`: its end, and the offset of its one colon, if any.
    private func scanName(from start: Int, to end: Int) throws(XMLParseError) -> (end: Int, colon: Int?) {
        let table = XMLByteTokenizer.nameBytes
        guard start < end, table[Int(base[start])] == 1 else { throw giveUp() }
        var i = start + 1
        var colon: Int?
        while i < end {
            let kind = table[Int(base[i])]
            if kind == 0 { break }
            if kind == 3 {
                guard colon == nil, i + 1 < end, table[Int(base[i + 1])] == 1 else { throw giveUp() }
                colon = i
            }
            i += 1
        }
        return (i, colon)
    }

    // MARK: Bytes

    private func setName(start: Int, length: Int) {
        name = names.name(of: UnsafeBufferPointer(start: base + start, count: length))
    }

    private func matches(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        return offset + length <= count && memcmp(base + offset, text.utf8Start, length) == 0
    }

    private func isBlankByte(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private func isBlank(_ text: UnsafeBufferPointer<UInt8>) -> Bool { text.allSatisfy(isBlankByte) }
}
