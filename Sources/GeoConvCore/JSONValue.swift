public import OrderedCollections

/// A JSON object whose members keep their order: feature properties, KML ExtendedData,
/// foreign members.
public typealias JSONObject = OrderedDictionary<String, JSONValue>

extension OrderedDictionary where Key == String, Value == JSONValue {
    /// An object of these members, the keys known to differ (a reader's column names): the
    /// arrays are taken as they are — one keys array can serve every row — and no key is
    /// looked up.
    package init(distinctKeys keys: ContiguousArray<String>, values: ContiguousArray<JSONValue>) {
        self.init(uncheckedUniqueKeys: keys, values: values)
    }
}

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

    /// The value as the nearest `Double`. (An integer of at most 15 digits, the most common
    /// literal, is read digit by digit: exactly, and without `strtod`, which `--where` and
    /// style rules would call for every feature they compare.)
    public var doubleValue: Double {
        // (The bytes in place, a small string's on the stack: no copy of the string is made.)
        let small: Double?? = literal.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
            let negative = bytes[0] == UInt8(ascii: "-")
            let digits = negative ? bytes.count - 1 : bytes.count
            guard digits >= 1, digits <= 15 else { return nil }
            var value: Int64 = 0
            for byte in bytes[(negative ? 1 : 0)...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return negative ? -Double(value) : Double(value)
        }
        return (small ?? nil) ?? Double(literal) ?? .nan
    }

    /// The value as an `Int`, when it is an integer literal that fits.
    public var intValue: Int? { Int(literal) }

    /// Whether the literal has no fraction or exponent.
    public var isInteger: Bool {
        func integral(_ bytes: some Sequence<UInt8>) -> Bool {
            !bytes.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        }
        // (From the contiguous bytes when the string has them: the UTF-8 view's iterator is slow.)
        return literal.utf8.withContiguousStorageIfAvailable { integral($0) } ?? integral(literal.utf8)
    }

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

/// JSON text for `JSONValue`s: writing (compact, numbers by their literal) here, and parsing
/// short texts (a property value stored as text by a format that only holds strings) with
/// the JSON tokenizer, in `GeoConvIO`.
package enum JSONText {
    /// Compact UTF-8 JSON.
    package static func compact(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// Compact JSON as a string.
    package static func string(_ value: JSONValue) -> String { String(decoding: compact(value), as: UTF8.self) }

    /// Appends a JSON string literal (quotes, escapes for `"` `\\` and control characters).
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // (A native string's bytes in place; `withUTF8` on a copy asks whether it is unique.)
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            var text = text
            text.withUTF8 { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 `bytes` escaped as the inside of a JSON string.
    @inline(__always)
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Runs that need no escape are copied whole (most strings are one run).
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        if bytes.count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }

    /// Appends a value.
    package static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(literal: "null")
        case .bool(let b): b ? out.append(literal: "true") : out.append(literal: "false")
        case .number(let n): out.append(utf8Of: n.literal)
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

    /// Appends merged properties (`MergedProperties`) as a JSON object, members in order.
    package static func appendObject(_ properties: MergedProperties, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        properties.forEachUnencoded { key, value in appendMember(key, value, first: &first, to: &out) }
        if let members = properties.encodedMembers, !members.isEmpty {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: members)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends an object, members in order.
    package static func appendObject(_ object: JSONObject, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in object { appendMember(key, value, first: &first, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `"key":value`, after a comma unless it is the object's first member.
    @inline(__always)
    private static func appendMember(_ key: String, _ value: JSONValue, first: inout Bool, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        appendString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        append(value, to: &out)
    }
}
