// libxml2: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CLibXML2)
internal import CLibXML2
#elseif canImport(libxml2)
internal import libxml2
#endif

/// Facts about the libxml2 library geoconv parses XML with.
public enum LibXML2 {
    /// The runtime library's version, e.g. `2.9.14` (from `xmlParserVersion`, "20914").
    /// With an Apple SDK's libxml2, the version of the SDK's headers, which is the system's.
    public static var version: String {
        #if canImport(CLibXML2)
        guard let raw = geoconv_xmlParserVersion() else { return "unknown" }
        let digits = String(cString: raw)
        guard let number = Int(digits) else { return digits }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
        #else
        return LIBXML_DOTTED_VERSION
        #endif
    }
}

/// An XML error with its place: what libxml2 or the pull parser refused, and where.
public struct XMLParseError: Error, Hashable, Sendable {
    /// What is wrong.
    public var message: String
    /// 1-based line, 0 when unknown.
    public var line: Int
    /// 1-based column, 0 when unknown.
    public var column: Int
    /// Whether a safety limit (depth, entities, size) refused the input.
    public var isLimit: Bool
    /// Whether the XML is well-formed and a value in it is what is wrong (raised by the
    /// format's reader through `XMLPullParser.invalidValue`): a reader may drop the element
    /// and go on, which it cannot after malformed XML.
    public var isInvalidValue: Bool = false
    /// libxml2's error code (`xmlParserErrors`), for errors libxml2 raised.
    public var libxmlCode: Int32?
    /// Whether libxml2's own depth guard raised it (its error 1 with the depth it allows).
    var isLibxmlDepthGuard = false
    /// The start tag an error is about when its message names that tag's line, so that the
    /// line moves with the error's own place (`moving(by:)`) and no message text is parsed.
    public var startTag: StartTagMention? {
        get { startTagBox?.mention }
        set { startTagBox = newValue.map(StartTagBox.init) }
    }
    /// (Boxed: every parser call throws this type, so it stays a few words long.)
    private var startTagBox: StartTagBox?

    private final class StartTagBox: Hashable, Sendable {
        let mention: StartTagMention
        init(_ mention: StartTagMention) { self.mention = mention }
        static func == (lhs: StartTagBox, rhs: StartTagBox) -> Bool { lhs.mention == rhs.mention }
        func hash(into hasher: inout Hasher) { hasher.combine(mention) }
    }

    /// A start tag a message names with its line, in libxml2's words for the error's kind.
    public struct StartTagMention: Hashable, Sendable {
        /// What the message says about the tag.
        public enum Kind: Hashable, Sendable {
            /// An end tag `closedBy` that does not close the element opened here.
            case mismatched(closedBy: String)
            /// The document ends inside the element.
            case unfinished
        }

        /// The element's name.
        public var name: String
        /// The 1-based line its start tag is on.
        public var line: Int
        /// What the message says.
        public var kind: Kind

        /// libxml2's message for the mention (its version 2.9 and later words).
        public var message: String {
            switch kind {
            case .mismatched(let closedBy): "Opening and ending tag mismatch: \(name) line \(line) and \(closedBy)"
            case .unfinished: "Premature end of data in tag \(name) line \(line)"
            }
        }
    }

    /// Creates an error.
    public init(message: String, line: Int, column: Int, isLimit: Bool = false) {
        self.message = message
        self.line = line
        self.column = column
        self.isLimit = isLimit
    }

    /// The error with its line, column and the start tag it names moved by `move` (from a
    /// document made of part of an input to the input itself).
    public func moving(by move: (_ line: Int, _ column: Int) -> (line: Int, column: Int)) -> XMLParseError {
        var moved = self
        if line > 0 { (moved.line, moved.column) = move(line, column) }
        if var tag = startTag {
            tag.line = move(tag.line, 0).line
            moved.startTag = tag
            moved.message = tag.message
        }
        return moved
    }
}

/// What the parser stopped at.
public enum XMLEvent: Equatable, Sendable {
    /// An element starts; `isEmpty` for `<a/>` (no end event follows).
    case start(name: String, isEmpty: Bool)
    /// An element ends.
    case end(name: String)
    /// Character data (text or CDATA), available through `text` / `withText`.
    case text
}
