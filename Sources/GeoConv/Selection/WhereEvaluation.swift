import GeoConvCore
import GeoConvFormatKit

/// What a `WhereProgram` evaluates with: values as compared, a property's value, `LIKE`.
extension WhereExpression {
    /// A value as the expression compares it.
    enum Value {
        case null
        case number(Double)
        case string(String)
    }

    /// A property's value: the property of that name, else of that name in another case (as
    /// OGR's field names are); else `name`/`title` for the title, `description`/`snippet`
    /// for the snippet, `id` for the identifier (what the writers write under those names).
    static func value(of field: FieldReference, in feature: Feature) -> Value {
        if let property = feature.properties[field.name]
            ?? FieldNames.caseInsensitiveValue(field.name, in: feature.properties)
        {
            return Value(property)
        }
        switch field.modelField {
        case .title?: return feature.title.map { .string($0) } ?? .null
        case .snippet?: return feature.snippet.map { .string($0) } ?? .null
        case .id?:
            switch feature.id {
            case .string(let s)?: return .string(s)
            case .number(let n)?: return .number(n.doubleValue)
            case nil: return .null
            }
        case nil: return .null
        }
    }

    /// -1, 0 or 1 as `a` is less than, equal to or greater than `b`; `nil` when they do not
    /// compare (a null, or a string that is not a number against a number).
    static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return order(x, y)
        case (.string(let x), .string(let y)): return compareIgnoringCase(x, y)
        case (.number, .string(let y)): return Value.number(from: y).flatMap { compare(a, $0) }
        case (.string(let x), .number): return Value.number(from: x).flatMap { compare($0, b) }
        default: return nil
        }
    }

    /// -1, 0 or 1 as `x` is less than, equal to or greater than `y`; `nil` for a NaN.
    static func order(_ x: Double, _ y: Double) -> Int? { x < y ? -1 : (x > y ? 1 : (x == y ? 0 : nil)) }

    /// SQL `LIKE`: `%` any run of characters, `_` one character (a whole UTF-8 sequence).
    static func like(_ text: ArraySlice<UInt8>, _ pattern: ArraySlice<UInt8>, ignoringCase: Bool) -> Bool {
        var text = text
        var pattern = pattern
        while let p = pattern.first {
            if p == UInt8(ascii: "%") {
                pattern = pattern.dropFirst()
                while pattern.first == UInt8(ascii: "%") { pattern = pattern.dropFirst() }
                if pattern.isEmpty { return true }
                var rest = text
                while true {
                    if like(rest, pattern, ignoringCase: ignoringCase) { return true }
                    guard !rest.isEmpty else { return false }
                    rest = rest.dropFirst(characterLength(rest))
                }
            }
            guard let t = text.first else { return false }
            if p == UInt8(ascii: "_") {
                text = text.dropFirst(characterLength(text))
                pattern = pattern.dropFirst(characterLength(pattern))
                continue
            }
            guard t == p || (ignoringCase && folded(t) == folded(p)) else { return false }
            text = text.dropFirst()
            pattern = pattern.dropFirst()
        }
        return text.isEmpty
    }

    /// The length of the UTF-8 sequence `bytes` starts with (1 for a stray byte).
    private static func characterLength(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let lead = bytes.first else { return 0 }
        let length = lead < 0xC0 ? 1 : (lead < 0xE0 ? 2 : (lead < 0xF0 ? 3 : 4))
        return min(length, bytes.count)
    }
}

extension WhereExpression.Value {
    /// A property's value: booleans as 1 and 0 (OGR's boolean fields are integers); arrays
    /// and objects compare as nothing.
    init(_ value: JSONValue) {
        switch value {
        case .null, .array, .object: self = .null
        case .bool(let b): self = .number(b ? 1 : 0)
        case .number(let n): self = .number(n.doubleValue)
        case .string(let s): self = .string(s)
        }
    }

    /// The value as text, for `LIKE`: numbers in their shortest form.
    var text: String? {
        switch self {
        case .null: nil
        case .string(let s): s
        case .number(let n): DecimalFormatter.shortest(n)
        }
    }

    /// A string read as a number (the whole of it, spaces around allowed), for comparing
    /// with a number.
    static func number(from string: String) -> Self? {
        var bytes = Substring(string)
        while bytes.first == " " { bytes = bytes.dropFirst() }
        while bytes.last == " " { bytes = bytes.dropLast() }
        guard let value = Double(bytes), value.isFinite else { return nil }
        return .number(value)
    }
}

extension WhereExpression.Comparison {
    /// Whether the comparison holds when comparing gave `order` (-1, 0, 1).
    func holds(for order: Int) -> Bool {
        switch self {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }
}
