/// Where in an input something was found: any of file, line and column (1-based), byte
/// offset (0-based), and a path inside the document (a JSON Pointer, a feature index).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The input's name as the user gave it (`in.kml`, `<stdin>`), when known.
    public var file: String?
    /// 1-based line.
    public var line: Int?
    /// 1-based column, counted in bytes.
    public var column: Int?
    /// 0-based byte offset from the start of the input (or of the string being decoded).
    public var byteOffset: Int?
    /// A path inside the document, e.g. the JSON Pointer `/features/3/geometry`.
    public var pointer: String? {
        get { pointerIndex < 0 ? pointerText : (pointerText ?? "") + "/" + String(pointerIndex) }
        set {
            pointerText = newValue
            pointerIndex = -1
        }
    }
    /// The pointer, or its prefix when `pointerIndex` is an element index still to append
    /// (composed when read, so that a reader marks every feature without building a string).
    private var pointerText: String?
    private var pointerIndex = -1

    /// Creates a location; give whichever parts are known.
    public init(
        file: String? = nil, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, pointer: String? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.pointerText = pointer
    }

    /// Creates a location whose pointer is `prefix/index` (`/features/12`), composed only
    /// when `pointer` is read.
    public init(file: String?, line: Int?, column: Int?, byteOffset: Int?, pointerPrefix prefix: String, index: Int) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.pointerText = prefix
        self.pointerIndex = max(0, index)
    }

    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.file == rhs.file && lhs.line == rhs.line && lhs.column == rhs.column && lhs.byteOffset == rhs.byteOffset
            && lhs.pointer == rhs.pointer
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(byteOffset)
        hasher.combine(pointer)
    }

    /// Compiler style: `file:line:column`, or `file: byte N` when only the offset is known.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let line {
            parts.append(String(line))
            if let column { parts.append(String(column)) }
        } else if let byteOffset {
            if parts.isEmpty { return "byte \(byteOffset)" + pointerSuffix }
            return parts.joined(separator: ":") + ": byte \(byteOffset)" + pointerSuffix
        }
        return parts.joined(separator: ":") + pointerSuffix
    }

    private var pointerSuffix: String {
        guard let pointer else { return "" }
        return pointer.isEmpty ? " (at the document root)" : " (at \(pointer))"
    }

    /// The same location with a document path.
    public func with(pointer: String) -> SourceLocation {
        var copy = self
        copy.pointer = pointer
        return copy
    }

    /// The same location in another file.
    /// The same place in a larger input: `lines` more lines and `bytes` more bytes before it
    /// (for pieces of an input parsed separately, as `--jobs` does).
    public func shifted(lines: Int, bytes: Int) -> SourceLocation {
        var copy = self
        copy.line = line.map { $0 + lines }
        copy.byteOffset = byteOffset.map { $0 + bytes }
        return copy
    }

    public func inFile(_ name: String?) -> SourceLocation {
        var copy = self
        copy.file = name
        return copy
    }
}

/// Every error geoconv reports: what went wrong, where, and how to fix it.
///
/// `description` renders it like a compiler diagnostic:
/// `in.polyline:3:17: error: character '!' (33) is not part of an encoded polyline`
/// followed by an indented `hint:` line.
public struct GeoConvError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem; the CLI maps `usage` to exit status 64 and every other code to 1.
    /// An open set: a format or a caller may add its own (`Code(rawValue: "my-code")`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it is written in reports, e.g. `invalid-input`.
        public let rawValue: String

        /// A code with this name.
        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The input does not follow its format.
        public static let invalidInput = Code(rawValue: "invalid-input")
        /// The input is valid but uses something geoconv does not handle.
        public static let unsupported = Code(rawValue: "unsupported")
        /// A size, depth or count limit was exceeded (a safety limit, see docs/security.md).
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
        /// A conversion would lose data and `--strict` is on.
        public static let dataLoss = Code(rawValue: "data-loss")
        /// Reading or writing a file failed.
        public static let io = Code(rawValue: "io")
        /// The request itself is inconsistent (unknown format, input equals output…).
        public static let usage = Code(rawValue: "usage")
        /// The caller's task was cancelled before the work was done (`FeatureSequence`).
        public static let cancelled = Code(rawValue: "cancelled")
    }

    /// The class of problem.
    public var code: Code
    /// What went wrong, in one sentence.
    public var message: String
    /// Where, when it is about a place in an input.
    public var location: SourceLocation?
    /// How to fix it, when there is something to say.
    public var hint: String?
    /// The error this one reports, when it came from below (libxml2, PROJ, the zip reader,
    /// the system); not part of equality.
    public var underlyingError: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, at location: SourceLocation? = nil, hint: String? = nil,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.hint = hint
        self.underlyingError = underlyingError
    }

    public static func == (a: GeoConvError, b: GeoConvError) -> Bool {
        a.code == b.code && a.message == b.message && a.location == b.location && a.hint == b.hint
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
        hasher.combine(hint)
    }

    /// The error with its location placed in a named file (readers of strings know only offsets).
    /// The error with its location mapped by `transform`.
    public func relocated(_ transform: (SourceLocation) -> SourceLocation) -> GeoConvError {
        var copy = self
        copy.location = location.map(transform)
        return copy
    }

    public func inFile(_ name: String?) -> GeoConvError {
        var copy = self
        copy.location = (location ?? SourceLocation()).inFile(name)
        return copy
    }

    public var description: String {
        var text = ""
        if let location { text += location.description + ": " }
        text += "error: " + message
        if let hint { text += "\n  hint: " + hint }
        return text.escapingControlCharacters
    }
}

extension GeoConvError {
    /// A refusal of the XML layer (a document that is not well-formed XML, or that goes past
    /// a limit) as the error of a format read as XML (`format`: "KML", "GPX"), at its line and
    /// column in `file` (a zero line or column is unknown). One place for the readers and the
    /// conservation check's listings of every XML format.
    package static func xmlRefusal(
        _ message: String, isLimit: Bool, line: Int, column: Int, file: String, format: String,
        underlyingError: (any Error & Sendable)? = nil
    ) -> GeoConvError {
        GeoConvError(
            isLimit ? .limitExceeded : .invalidInput, message,
            at: SourceLocation(file: file, line: line > 0 ? line : nil, column: column > 0 ? column : nil),
            hint: isLimit ? "see docs/security.md for what geoconv refuses" : "the \(format) is not well-formed XML",
            underlyingError: underlyingError)
    }
}
