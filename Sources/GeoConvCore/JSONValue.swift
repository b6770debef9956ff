public import OrderedCollections

/// A JSON object whose members keep their order: feature properties, KML ExtendedData,
/// foreign members.
public typealias JSONObject = OrderedDictionary<String, JSONValue>

/// A JSON number kept as its literal text, so that integers beyond 2^53 and long decimals
/// survive a conversion without being rounded through `Double`.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number as written, in JSON's number grammar (RFC 8259 §6).
    public let literal: String

    /// Creates a number from a literal, or `nil` when the text is not a JSON number.
    public init?(literal: String) {
        var literal = literal
        guard literal.withUTF8({ JSONNumber.isValidLiteral($0) }) else { return nil }
        self.literal = literal
    }

    /// Creates a number from a literal already known to be valid (readers that scanned it).
    public init(uncheckedLiteral literal: String) { self.literal = literal }

    /// Creates an integer number.
    public init<I: BinaryInteger>(_ value: I) { literal = String(value) }

    /// Creates a number from a finite `Double` in its shortest exact form; `nil` for NaN or infinity.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        literal = DecimalFormatter.shortest(value)
    }

    /// The value as the nearest `Double`.
    public var doubleValue: Double { Double(literal) ?? .nan }

    /// The value as an `Int`, when it is an integer literal that fits.
    public var intValue: Int? { Int(literal) }

    /// Whether the literal has no fraction or exponent.
    public var isInteger: Bool { !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } }

    public var description: String { literal }

    /// Whether `bytes` is a number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    public static func isValidLiteral<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        var i = bytes.startIndex
        func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 48 && $0 <= 57 } ?? false }
        if peek() == UInt8(ascii: "-") { i = bytes.index(after: i) }
        guard isDigit(peek()) else { return false }
        if peek() == UInt8(ascii: "0") {
            i = bytes.index(after: i)
        } else {
            while isDigit(peek()) { i = bytes.index(after: i) }
        }
        if peek() == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { i = bytes.index(after: i) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i = bytes.index(after: i) }
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { i = bytes.index(after: i) }
        }
        return i == bytes.endIndex
    }
}

/// Any JSON value, with object members in their original order.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? { if case .number(let n) = self { n.doubleValue } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The members, when this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// The JSON type name, as error messages say it (`"string"`, `"number"`, …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// JSON text for `JSONValue`s: writing (compact, numbers by their literal) and parsing short
/// texts (a property value stored as text by a format that only holds strings).
public enum JSONText {
    /// Compact UTF-8 JSON.
    public static func compact(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// Compact JSON as a string.
    public static func string(_ value: JSONValue) -> String { String(decoding: compact(value), as: UTF8.self) }

    /// Appends a JSON string literal (quotes, escapes for `"` `\\` and control characters).
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a value.
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.literal.utf8)
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object): appendObject(object, to: &out)
        }
    }

    /// Appends an object, members in order.
    public static func appendObject(_ object: JSONObject, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in object {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            append(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Parses a short JSON text (at most 64 levels deep); `nil` when it is not exactly one JSON value.
    public static func parse(_ text: String) -> JSONValue? {
        var parser = MiniParser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    private struct MiniParser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < 64 else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var object = JSONObject()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard case .string(let key)? = value(depth: depth + 1) else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    object[key] = member
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                    return nil
                }
            case UInt8(ascii: "["):
                index += 1
                var array: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
                while true {
                    guard let element = value(depth: depth + 1) else { return nil }
                    array.append(element)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
                    return nil
                }
            case UInt8(ascii: "\""):
                index += 1
                var decoded: [UInt8] = []
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") { return String(validating: decoded, as: UTF8.self).map(JSONValue.string) }
                    if byte < 0x20 { return nil }
                    guard byte == UInt8(ascii: "\\") else { decoded.append(byte); continue }
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): decoded.append(escape)
                    case UInt8(ascii: "u"):
                        guard let high = hex4() else { return nil }
                        var scalar = high
                        if (0xD800..<0xDC00).contains(high) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                            index += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: return nil
                    }
                }
                return nil
            case UInt8(ascii: "t"): return keyword("true", .bool(true))
            case UInt8(ascii: "f"): return keyword("false", .bool(false))
            case UInt8(ascii: "n"): return keyword("null", .null)
            default:
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                let literal = String(decoding: bytes[start..<index], as: UTF8.self)
                guard let number = JSONNumber(literal: literal), number.doubleValue.isFinite else { return nil }
                return .number(number)
            }
        }

        mutating func keyword(_ word: String, _ value: JSONValue) -> JSONValue? {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { return nil }
            index += w.count
            return value
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { return nil }
            index += 4
            return value
        }
    }
}
