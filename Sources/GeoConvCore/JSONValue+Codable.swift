/// A JSON value through Swift's `Codable`: objects as keyed containers, arrays as unkeyed
/// ones, and `null`, booleans, numbers and strings as single values.
///
/// What survives Foundation's `JSONEncoder` and `JSONDecoder`, and what does not:
/// - Values and their JSON types survive.
/// - Member order does not: `JSONEncoder` writes members in hash order, and `JSONDecoder`
///   does not report the order it read. Decoding therefore puts an object's members in
///   ascending order of their keys (by code unit), the same on every run.
/// - A number goes through `Int64` when its literal is an integer in range, else through
///   `Double`. A literal `1.0` comes back as `1`, and digits beyond a `Double`'s are lost, as
///   with any `Codable` number.
///
/// - Member names go through the coder's key strategy: with `convertToSnakeCase` or
///   `convertFromSnakeCase` they change. Use the default key strategies (`useDefaultKeys`).
/// - `-0` keeps its sign (through `Double`).
///
/// For the bytes as written, and member order as read, use the GeoJSON codec itself
/// (`OverlayDocument.load` and `save`).
extension JSONValue: Codable {
    /// An object member's name as a coding key.
    struct MemberKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members = JSONObject()
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? single.decode(String.self) {
            // (Before the numbers: a decoder that reads "NaN" strings as numbers leaves them strings.)
            self = .string(string)
        } else if let integer = try? single.decode(Int64.self), integer != 0 {
            self = .number(JSONNumber(integer))
        } else if let double = try? single.decode(Double.self), let number = JSONNumber(double) {
            self = .number(number)  // (0 too, through Double: -0 keeps its sign)
        } else {
            throw DecodingError.dataCorruptedError(
                in: single,
                debugDescription:
                    "not a JSON value that Codable can hold: a number beyond the range of Double, or not JSON; read this input with the GeoJSON codec (OverlayDocument.load), which keeps every literal"
            )
        }
    }

    /// Encodes the value; an object's members in their order (which the encoder may not keep).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .number(let number):
            var single = encoder.singleValueContainer()
            // An integer literal as an integer; anything else (and -0, whose sign Int64 drops) as a Double.
            if let integer = Int64(number.literal), integer != 0 || !number.literal.hasPrefix("-") {
                try single.encode(integer)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for (name, value) in members { try object.encode(value, forKey: MemberKey(name)) }
        }
    }
}
