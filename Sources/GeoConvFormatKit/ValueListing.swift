public import GeoConvCore
public import GeoConvIO

/// One value a reader took in from a file, for the conservation check (`geoconv conservation`):
/// an XML element's text or an attribute's value, a JSON scalar or member name, one ordinate.
///
/// Every listed value of an input must reach the output of a same-format round trip, or be
/// named by a warning whose place is the value's own or one of its enclosing elements'
/// (objects' for JSON, or a JSON Pointer that is a prefix of the value's).
public struct ListedValue: Hashable, Sendable {
    /// The value as written (entities and escapes resolved).
    public var text: String
    /// Where it is: its own position (attribute and text values: their element's start tag).
    public var line: Int
    /// 1-based column, in bytes.
    public var column: Int
    /// The start positions of the elements (objects, arrays) that hold it, outermost first.
    public var enclosing: [Position]
    /// Its JSON Pointer, for JSON values.
    public var pointer: String?
    /// What the value is, as far as matching it goes.
    public var kind: Kind
    /// What holds it, for messages: `Data/value`, `Placemark@id` (XML); empty for JSON,
    /// whose `pointer` says it.
    public var holder: String = ""
    /// Whether the value is the one the format's schema gives when the element is absent
    /// (KML's `<tessellate>0</tessellate>`, `<visibility>1</visibility>`): a writer may
    /// leave it out, so it is carried when not written.
    public var isDefault: Bool = false

    /// A line and column.
    public struct Position: Hashable, Sendable {
        /// 1-based line.
        public var line: Int
        /// 1-based column, in bytes.
        public var column: Int
        /// Creates a position.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// How a value is compared with the output's.
    public enum Kind: Hashable, Sendable {
        /// Compared as a number when it reads as one, else as text with its white space collapsed.
        case plain
        /// A value written once per use but shared on output (a style's colour, width, icon):
        /// carried when the output holds it at least once.
        case shared
        /// A name that the writer may give anew (a style id and the references to it): carried
        /// when the output holds any value of this kind.
        case renamable
        /// An ordinate (or CRS description) of a document in a CRS the format's output does not
        /// keep: the writer reprojects it, so its value changes by design (the reprojection is
        /// tested on its own); carried. Also a CRS description naming the CRS the output is in
        /// by its format's definition (a GeoJSON `crs` naming WGS84 in RFC 7946 output).
        case reprojected
    }

    /// Creates a listed value.
    public init(
        text: String, line: Int, column: Int, enclosing: [Position] = [], pointer: String? = nil, kind: Kind = .plain,
        holder: String = "", isDefault: Bool = false
    ) {
        self.holder = holder
        self.isDefault = isDefault
        self.text = text
        self.line = line
        self.column = column
        self.enclosing = enclosing
        self.pointer = pointer
        self.kind = kind
    }

    /// The form two values are compared in: numbers by their `Double` value (`1.50`, `1.5`
    /// and `1.5e0` are one), `true`/`false` as themselves, other text with runs of white
    /// space made one space and the ends trimmed. Empty text lists nothing.
    public var matchKey: String {
        ListedValue.matchKey(text)
    }

    /// The comparison form of `text` (see `matchKey`).
    public static func matchKey(_ text: String) -> String {
        let collapsed = collapsingWhiteSpace(text)
        if looksNumeric(collapsed), let number = Double(collapsed), number.isFinite {
            // Integers beyond a Double's 15 exact digits are compared digit by digit.
            let digits = collapsed.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            let isInteger = !collapsed.utf8.contains {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }
            if isInteger, digits > 15 { return "#" + collapsed }
            return "#" + String(number == 0 ? 0 : number)
        }
        return collapsed
    }

    /// Whether `text` is empty or white space only (its `matchKey` is empty: it lists nothing).
    public static func isBlank(_ text: String) -> Bool {
        text.utf8.allSatisfy(isWhiteSpace)
    }

    /// `text` with its ends trimmed and each run of white space inside made one space; `text`
    /// itself (no copy) when there is nothing to change, as for most values. (White space is
    /// four ASCII bytes, never part of a longer UTF-8 sequence, so bytes are compared.)
    private static func collapsingWhiteSpace(_ text: String) -> String {
        var changes = false
        var previousIsSpace = true  // (white space at the start is trimmed)
        for byte in text.utf8 {
            let isSpace = isWhiteSpace(byte)
            if isSpace, previousIsSpace || byte != UInt8(ascii: " ") {
                changes = true
                break
            }
            previousIsSpace = isSpace
        }
        if !changes && !previousIsSpace || text.isEmpty { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if isWhiteSpace(byte) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(UInt8(ascii: " "))
                pendingSpace = false
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Whether text is a decimal number as JSON, KML and GPX write them (not `inf`, `nan`
    /// or a hexadecimal float, which Swift's `Double` also reads).
    private static func looksNumeric(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                continue
            default:
                return false
            }
        }
        return true
    }
}

/// Lists the values of a JSON document (every scalar and member name, with its place, the
/// places of the objects and arrays around it and its JSON Pointer), for the conservation
/// check of formats written as JSON.
public enum JSONValueListing {
    /// Every value of the JSON text (or text sequence: several top-level values, RS or
    /// white space between them) that `input` holds.
    public static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        let scanner = JSONScanner(input)
        var values: [ListedValue] = []
        // Each top-level value (one document, or each record of a sequence) is its own root.
        while let byte = try scanner.peekToken() {
            if byte == 0x1E {
                scanner.advance()
                continue
            }
            try list(scanner, pointer: "", enclosing: [], into: &values, depth: 0)
        }
        return values
    }

    private static func list(
        _ scanner: JSONScanner, pointer: String, enclosing: [ListedValue.Position],
        into values: inout [ListedValue], depth: Int
    ) throws(GeoConvError) {
        guard let byte = try scanner.peekToken() else { return }
        let location = scanner.location(of: scanner.place)
        let here = ListedValue.Position(line: location.line ?? 0, column: location.column ?? 0)
        switch byte {
        case UInt8(ascii: "{"):
            try scanner.checkDepth(depth + 1, pointer: pointer)
            scanner.advance()
            if try scanner.peekToken() == UInt8(ascii: "}") {
                scanner.advance()
                return
            }
            let inner = enclosing + [here]
            repeat {
                let keyLocation = scanner.location(of: scanner.place)
                let key = try scanner.parseKey(pointer: pointer)
                let memberPointer = pointer + "/" + JSONScanner.escapePointer(key)
                values.append(
                    ListedValue(
                        text: key, line: keyLocation.line ?? 0, column: keyLocation.column ?? 0,
                        enclosing: inner, pointer: memberPointer))
                try list(scanner, pointer: memberPointer, enclosing: inner, into: &values, depth: depth + 1)
            } while try scanner.nextElement(close: UInt8(ascii: "}"), pointer: pointer)
        case UInt8(ascii: "["):
            try scanner.checkDepth(depth + 1, pointer: pointer)
            scanner.advance()
            if try scanner.peekToken() == UInt8(ascii: "]") {
                scanner.advance()
                return
            }
            let inner = enclosing + [here]
            var index = 0
            repeat {
                try list(
                    scanner, pointer: pointer + "/" + String(index), enclosing: inner, into: &values, depth: depth + 1)
                index += 1
            } while try scanner.nextElement(close: UInt8(ascii: "]"), pointer: pointer)
        default:
            let value = try scanner.parseValue(depth: depth, pointer: pointer)
            let text: String
            switch value {
            case .string(let string): text = string
            case .number(let number): text = number.literal
            case .bool(let flag): text = flag ? "true" : "false"
            case .null: return  // null holds no value to carry
            case .array, .object: return
            }
            values.append(
                ListedValue(text: text, line: here.line, column: here.column, enclosing: enclosing, pointer: pointer))
        }
    }
}
