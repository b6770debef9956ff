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
        guard JSONNumber.isValidLiteral(literal.utf8) else { return nil }
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
public indirect enum JSONValue: Hashable, Sendable {
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
