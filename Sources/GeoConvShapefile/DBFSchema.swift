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
        /// Whether a number too wide for a DBF number field made the column text.
        var sawNumberAsText = false
        /// The first feature whose text is longer than a DBF text field (cut when written).
        var firstTruncated: Int?
        /// The first feature (0-based, in writing order) with a real that 15 decimals cannot
        /// hold exactly: rounded when the column is written as real.
        var firstRounded: Int?
        /// The first feature with an integer: written with the column's decimals when the
        /// column is real (12 as 12.0).
        var firstInteger: Int?
        /// The first feature with text a DBF does not give back as written: empty (read back
        /// as null), with spaces at an end (a DBF pads with spaces; readers, GDAL's too, trim
        /// them) or holding a NUL (where readers end the text).
        var firstUnkeptText: Int?
        /// The name in the DBF.
        var fieldName = ""

        /// What values teach the column, but the files: compared before and after one.
        var learnt: Learnt {
            Learnt(
                kind: kind, width: width, integerWidth: integerWidth, decimals: decimals,
                flags: (sawNested ? 1 : 0) | (sawMixed ? 2 : 0) | (sawNumberAsText ? 4 : 0)
                    | (firstTruncated == nil ? 0 : 8) | (firstRounded == nil ? 0 : 16) | (firstInteger == nil ? 0 : 32)
                    | (firstUnkeptText == nil ? 0 : 64), files: files.count)
        }

        struct Learnt: Equatable {
            let kind: Kind?
            let width: Int, integerWidth: Int, decimals: Int
            let flags: Int
            let files: Int
        }
        /// The files (by index) whose features hold the property, null or not: each file gets
        /// the columns of its own features, as each of GDAL's layers has its own fields.
        var files: Set<Int> = []
    }

    private(set) var columns: [Column] = []
    private var index: [String: Int] = [:]
    /// How often a column was made or changed by a value, counted when `countsChanges`: what
    /// a writer into nowhere keys its losses on (`ShapefileWriting.lossKey(of:shape:)`).
    private(set) var changes = 0
    var countsChanges = false
    /// The columns of the last feature's keys, by position: the next feature's keys are most
    /// often the same, in the same order, and a string comparison is cheaper than a hash.
    private var lastKeys: [(key: String, column: Int)] = []

    /// The widest text field dBase allows, and the widest number GDAL writes.
    static let maximumTextWidth = 254
    static let maximumNumberWidth = 24

    /// Notes one value of `property`, held by feature `feature` (0-based, in writing order) of
    /// file `file`; returns the column's index.
    @discardableResult
    mutating func note(_ property: String, _ value: JSONValue, file: Int, feature: Int = 0, position: Int = 0) -> Int {
        let i: Int
        if position < lastKeys.count, lastKeys[position].key == property {
            i = lastKeys[position].column
        } else {
            i =
                index[property]
                ?? {
                    columns.append(Column(property: property))
                    index[property] = columns.count - 1
                    changes += 1
                    return columns.count - 1
                }()
            if position < lastKeys.count {
                lastKeys[position] = (property, i)
            } else if position == lastKeys.count {
                lastKeys.append((property, i))
            }
        }
        // (In place: a copy of the column would copy its set of files on every value.)
        guard countsChanges else {
            Self.note(value, file: file, feature: feature, in: &columns[i])
            return i
        }
        let before = columns[i].learnt
        Self.note(value, file: file, feature: feature, in: &columns[i])
        if columns[i].learnt != before { changes += 1 }
        return i
    }

    /// The real columns that hold integers too (written with decimals), with their first.
    var integersAsReal: [(property: String, feature: Int)] {
        columns.compactMap { column in
            guard column.kind == .real, column.decimals > 0, let first = column.firstInteger else { return nil }
            return (column.property, first)
        }
    }

    /// The columns with text a DBF does not give back as written, with their first feature.
    var unkeptText: [(property: String, feature: Int)] {
        columns.compactMap { column in column.firstUnkeptText.map { (column.property, $0) } }
    }

    /// The text columns with a value longer than a DBF text field (cut when written), with
    /// their first.
    var truncatedText: [(property: String, feature: Int)] {
        columns.compactMap { column in
            guard column.kind == .text, column.width > Self.maximumTextWidth else { return nil }
            return (column.property, column.firstTruncated ?? 0)
        }
    }

    /// The columns whose reals are rounded when written, each with its first feature.
    var rounded: [(property: String, feature: Int)] {
        columns.compactMap { column in
            guard column.kind == .real, let first = column.firstRounded else { return nil }
            return (column.property, first)
        }
    }

    private static func note(_ value: JSONValue, file: Int, feature: Int, in column: inout Column) {
        if !column.files.contains(file) { column.files.insert(file) }
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
                if column.firstInteger == nil { column.firstInteger = feature }
                // (Its digits counted, not printed: once per value.)
                var digits = 1
                var rest = integer.magnitude
                while rest >= 10 {
                    rest /= 10
                    digits += 1
                }
                width = digits + (integer < 0 ? 1 : 0)
                column.integerWidth = max(column.integerWidth, width)
            } else if abs(n.doubleValue) < 1e20 {
                kind = .real
                width = n.literal.utf8.count
                column.integerWidth = max(
                    column.integerWidth, DecimalFormatter.fixed(n.doubleValue, digits: 0).utf8.count)
                let own = decimals(of: n.doubleValue)
                column.decimals = max(column.decimals, own)
                // A column's decimals are the most its reals need, at most 15: a real needing
                // fewer is written exactly; one needing 15 or more may not be.
                if own == 15, column.firstRounded == nil,
                    Double(realText(n.doubleValue, decimals: 15)) != n.doubleValue
                {
                    column.firstRounded = feature
                }
            } else {
                kind = .text  // beyond a DBF number's width: its literal, as text
                column.sawNumberAsText = true
                width = n.literal.utf8.count
            }
        case .string(let s):
            kind = .text
            width = s.utf8.count
            if column.firstUnkeptText == nil,
                width == 0 || s.utf8.first == 0x20 || s.utf8.last == 0x20
                    || s.utf8.withContiguousStorageIfAvailable({ $0.contains(0) }) ?? s.utf8.contains(0)
            {
                column.firstUnkeptText = feature
            }
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
        if width > maximumTextWidth, column.firstTruncated == nil { column.firstTruncated = feature }
        column.width = max(column.width, width)
    }

    /// The decimals a real needs written in fixed notation (its shortest form's, at most 15).
    static func decimals(of value: Double) -> Int {
        // (Per value written: the shortest form's bytes, no Foundation search.)
        var point: Int?
        var count = 0
        for byte in DecimalFormatter.shortest(value).utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return 15 }
            if byte == UInt8(ascii: ".") { point = count }
            count += 1
        }
        guard let point else { return 0 }
        return min(15, count - point - 1)
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
