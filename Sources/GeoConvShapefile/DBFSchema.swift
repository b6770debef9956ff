#if Shapefile
import GeoConvCore

/// The DBF columns a stream of features needs, learnt while they are written (the schema of
/// a DBF comes before its records, the features' properties are known only at the end):
/// each column's widened type across the file and its width, and its name within dBase's 10
/// bytes, made unique.
struct DBFSchema {
    /// What a column holds.
    enum Kind { case logical, integer, real, text }

    struct Column {
        /// The property's name (`name` and `description` for the title and snippet).
        let property: String
        var kind: Kind?  // nil while only nulls were seen
        /// The longest value as written (bytes), and for reals the decimals needed.
        var width = 1
        /// The most characters before the decimal point (sign included) of its numbers.
        var integerWidth = 1
        var decimals = 0
        var sawNested = false
        var sawMixed = false
        /// The name in the DBF.
        var fieldName = ""
        /// The files (by index) whose features hold the property, null or not: each file gets
        /// the columns of its own features, as each of GDAL's layers has its own fields.
        var files: Set<Int> = []
    }

    private(set) var columns: [Column] = []
    private var index: [String: Int] = [:]

    /// The widest text field dBase allows, and the widest number GDAL writes.
    static let maximumTextWidth = 254
    static let maximumNumberWidth = 24

    /// Notes one value of `property`, held by a feature of file `file`.
    mutating func note(_ property: String, _ value: JSONValue, file: Int) {
        let i = index[property] ?? {
            columns.append(Column(property: property))
            index[property] = columns.count - 1
            return columns.count - 1
        }()
        var column = columns[i]
        defer { columns[i] = column }
        column.files.insert(file)
        let kind: Kind
        var width: Int
        switch value {
        case .null: return
        case .bool:
            kind = .logical
            width = 1
        case .number(let n):
            if n.isInteger, let integer = Int(n.literal), n.literal.utf8.count <= 18 {
                kind = .integer
                width = String(integer).utf8.count
                column.integerWidth = max(column.integerWidth, width)
            } else if abs(n.doubleValue) < 1e20 {
                kind = .real
                width = n.literal.utf8.count
                column.integerWidth = max(column.integerWidth, DecimalFormatter.fixed(n.doubleValue, digits: 0).utf8.count)
                column.decimals = max(column.decimals, Self.decimals(of: n.doubleValue))
            } else {
                kind = .text  // beyond a DBF number's width: its literal, as text
                width = n.literal.utf8.count
            }
        case .string(let s):
            kind = .text
            width = s.utf8.count
        case .array, .object:
            kind = .text
            column.sawNested = true
            width = JSONText.compact(value).count
        }
        if let previous = column.kind, previous != kind {
            if (previous == .integer && kind == .real) || (previous == .real && kind == .integer) {
                column.kind = .real
            } else {
                column.sawMixed = true
                column.kind = .text
            }
        } else {
            column.kind = kind
        }
        if column.kind == .text, kind != .text, case .number(let n) = value { width = n.literal.utf8.count }
        column.width = max(column.width, width)
    }

    /// The decimals a real needs written in fixed notation (its shortest form's, at most 15).
    static func decimals(of value: Double) -> Int {
        let text = DecimalFormatter.shortest(value)
        if text.contains("e") || text.contains("E") { return 15 }
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return min(15, text.distance(from: point, to: text.endIndex) - 1)
    }

    static func realText(_ value: Double, decimals: Int) -> String {
        DecimalFormatter.fixed(value, digits: decimals)
    }

    /// The DBF field names: each property's name cut to 10 bytes (at a character's end),
    /// made unique without regard to case by `_1`, `_2`… as GDAL makes them; returns the
    /// renamed ones (property → field).
    mutating func assignFieldNames() -> [(String, String)] {
        var taken: Set<String> = []
        var renamed: [(String, String)] = []
        for i in columns.indices {
            let property = columns[i].property
            var name = Self.cut(property, to: 10)
            if name.isEmpty { name = "field" }
            var n = 1
            let stem = name
            while taken.contains(name.lowercased()) {
                let suffix = "_\(n)"
                name = Self.cut(stem, to: 10 - suffix.utf8.count) + suffix
                n += 1
            }
            taken.insert(name.lowercased())
            columns[i].fieldName = name
            if name != property { renamed.append((property, name)) }
        }
        return renamed
    }

    /// `text` cut to at most `bytes` UTF-8 bytes, at a character's end.
    static func cut(_ text: String, to bytes: Int) -> String {
        var result = ""
        var count = 0
        for character in text {
            let length = character.utf8.count
            guard count + length <= bytes else { break }
            result.append(character)
            count += length
        }
        return result
    }
}
#endif
