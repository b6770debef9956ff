package import GeoConvCore
import GeoConvBytes
package import GeoConvFormatKit

/// The kinds of value a property column has held, and the Parquet column it becomes: the
/// widest type that holds them all.
package struct ColumnKinds: OptionSet, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let bool = ColumnKinds(rawValue: 1)
    package static let integer = ColumnKinds(rawValue: 2)
    package static let real = ColumnKinds(rawValue: 4)
    package static let string = ColumnKinds(rawValue: 8)
    package static let nested = ColumnKinds(rawValue: 16)
    /// Integers beyond Int64 that fit UInt64.
    package static let bigUnsigned = ColumnKinds(rawValue: 32)
    /// Negative integers (a column with big unsigned ones is then DOUBLE).
    package static let negative = ColumnKinds(rawValue: 64)

    /// The column type: integers alone INT64, numbers DOUBLE, booleans BOOLEAN, anything
    /// else (text, arrays and objects, mixes) UTF-8 text; a column that held only nulls is text.
    package var columnType: ColumnType {
        if self == .bool { return .boolean }
        if isSubset(of: [.integer, .negative]), contains(.integer) { return .int64 }
        if isSubset(of: [.integer, .bigUnsigned]), contains(.bigUnsigned) { return .uint64 }
        if !isEmpty, isSubset(of: [.integer, .real, .bigUnsigned, .negative]) { return .double }
        return .text
    }

    /// Whether values of different kinds are written as text (reported).
    package var mixesIntoText: Bool { columnType == .text && !isSubset(of: .string) && !isSubset(of: .nested) }

    /// The kinds of an integer.
    package static func of(_ n: Int64) -> ColumnKinds { n < 0 ? [.integer, .negative] : .integer }

    /// The kinds in words, for a message (`numbers, text`).
    package var summary: String {
        var parts: [String] = []
        if contains(.bool) { parts.append("booleans") }
        if !isDisjoint(with: [.integer, .real, .bigUnsigned]) { parts.append("numbers") }
        if contains(.string) { parts.append("text") }
        if contains(.nested) { parts.append("arrays or objects") }
        return parts.joined(separator: ", ")
    }
}

package enum ColumnType: Equatable {
    /// `uint64`: INT64 annotated unsigned, for integers up to 2^64 − 1.
    case boolean, int64, uint64, double, text
}

/// One property column: its name and the kinds it held.
package struct PropertyColumn {
    package var name: String
    package var kinds: ColumnKinds = []
    /// Integers beyond ±2^53 in a column written as doubles (they lose digits; reported).
    package var wideIntegers = 0
    /// Whether a row has had a value in it (not null).
    package var hasValue = false
    /// Where the column had its first value and its first wide integer, for what is
    /// reported about it (placed by the document's writer).
    package var firstLocation: SourceLocation?
    package var firstWideInteger: SourceLocation?
    /// What every text value of the column was: ISO 8601 dates, UTC date-times, or other text
    /// (`nil` before the first), for the formats with date columns (GeoPackage's `DATE`,
    /// `DATETIME`).
    package var textForm: TextForm?

    package init(name: String) { self.name = name }

    /// Notes a text value's form.
    @inlinable package mutating func noteForm(of text: String) {
        guard textForm != .other else { return }
        var copy = text
        let form = copy.withUTF8 { TextForm.of($0) }
        textForm = textForm == nil || textForm == form ? form : .other
    }
}

/// A spooled row's value, and how it is framed in the spool: a tag byte, then a zigzag
/// varint (integer), eight bytes (real), or a varint length and UTF-8 (text, JSON text, an
/// integer literal beyond 64 bits).
package enum SpooledValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case text(ArraySlice<UInt8>)
    case json(ArraySlice<UInt8>)

    package static let tagNull: UInt8 = 0, tagFalse: UInt8 = 1, tagTrue: UInt8 = 2, tagInteger: UInt8 = 3,
        tagReal: UInt8 = 4,
        tagText: UInt8 = 5,
        tagJSON: UInt8 = 6, tagBigInteger: UInt8 = 7
}

/// The spool's framing of rows: `varint(length)` then the row — the geometry as
/// `varint(WKB length + 1)` (0: none) and its WKB and bounding box (four doubles), then
/// `varint(cells)` and each cell as `varint(column)` and its value.
package enum SpooledRow {
    @inlinable package static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        ByteEncoding.appendVarint(value, to: &out)
    }

    @inlinable package static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        ByteEncoding.appendUInt64(value.bitPattern, to: &out)
    }

    /// A bounding box's four doubles (west, south, east, north), in one copy.
    @inlinable package static func appendBox(_ box: (Double, Double, Double, Double), to out: inout [UInt8]) {
        let bits = (
            box.0.bitPattern.littleEndian, box.1.bitPattern.littleEndian, box.2.bitPattern.littleEndian,
            box.3.bitPattern.littleEndian
        )
        withUnsafeBytes(of: bits) { out.append(contentsOf: $0) }
    }

    @inlinable package static func readVarint(_ bytes: [UInt8], _ offset: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let b = bytes[offset]
            offset += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// A row's geometry part, `at` its start (past the frame's length), left at the cells'
    /// count: where its WKB lies (`nil` for none) and its bounding box (`nil` for none).
    package static func geometryPart(
        _ bytes: [UInt8], _ at: inout Int
    ) -> (wkb: Range<Int>?, box: (Double, Double, Double, Double)?) {
        let wkbLength = Int(readVarint(bytes, &at) ?? 0)
        var wkb: Range<Int>?
        if wkbLength > 0 {
            wkb = at..<(at + wkbLength - 1)
            at += wkbLength - 1
        }
        guard bytes[at] == 1 else {
            at += 1
            return (wkb, nil)
        }
        at += 1
        return (wkb, (readDouble(bytes, &at), readDouble(bytes, &at), readDouble(bytes, &at), readDouble(bytes, &at)))
    }

    /// The bounding box of a framed row (`varint(length)` then the row), `nil` when it has none.
    package static func box(ofFramedRow bytes: [UInt8]) -> (Double, Double, Double, Double)? {
        var at = 0
        _ = readVarint(bytes, &at)
        return geometryPart(bytes, &at).box
    }

    /// Where the cells of the row starting at `offset` start: after its geometry and box.
    @inlinable package static func cellsStart(_ bytes: [UInt8], _ offset: Int) -> Int {
        var at = offset
        let wkbLength = Int(readVarint(bytes, &at) ?? 0)
        if wkbLength > 0 { at += wkbLength - 1 }
        let boxed = bytes[at] == 1
        return at + 1 + (boxed ? 32 : 0)
    }

    /// Where the value starting at `offset` (its tag) ends.
    @inlinable package static func valueEnd(_ bytes: [UInt8], _ offset: Int) -> Int {
        var at = offset + 1
        switch bytes[offset] {
        case SpooledValue.tagInteger: _ = readVarint(bytes, &at)
        case SpooledValue.tagReal: at += 8
        case SpooledValue.tagText, SpooledValue.tagJSON, SpooledValue.tagBigInteger:
            let length = Int(readVarint(bytes, &at) ?? 0)
            at += length
        default: break
        }
        return at
    }

    /// Framed rows (`varint(length)` then the row, one after the other) with each cell's
    /// column `c` made `columns[c]`.
    package static func renumbered(_ bytes: [UInt8], columns: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        var row: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var at = 0
        while at < bytes.count, let length = readVarint(bytes, &at) {
            let end = at + Int(length)
            var cursor = cellsStart(bytes, at)
            row.removeAll(keepingCapacity: true)
            row.append(contentsOf: bytes[at..<cursor])
            let cells = readVarint(bytes, &cursor) ?? 0
            appendVarint(cells, to: &row)
            for _ in 0..<cells {
                let column = Int(readVarint(bytes, &cursor) ?? 0)
                appendVarint(UInt64(columns[column]), to: &row)
                let valueEnd = valueEnd(bytes, cursor)
                row.append(contentsOf: bytes[cursor..<valueEnd])
                cursor = valueEnd
            }
            appendVarint(UInt64(row.count), to: &out)
            out.append(contentsOf: row)
            at = end
        }
        return out
    }

    @inlinable package static func readDouble(_ bytes: [UInt8], _ offset: inout Int) -> Double {
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: bits)
    }
}

/// A spooled value read back as its column's type needs it: `at` is just past its tag.
extension SpooledRow {
    /// An integer's value (`tagInteger`).
    @inlinable package static func integer(_ bytes: [UInt8], _ at: inout Int) -> Int64 {
        ByteEncoding.unzigzag(readVarint(bytes, &at) ?? 0)
    }

    /// An integer of an unsigned 64-bit column: a literal beyond Int64, or a non-negative integer.
    @inlinable package static func unsignedInteger(_ tag: UInt8, _ bytes: [UInt8], _ at: inout Int) -> UInt64 {
        guard tag == SpooledValue.tagBigInteger else { return UInt64(bitPattern: integer(bytes, &at)) }
        let length = Int(readVarint(bytes, &at) ?? 0)
        defer { at += length }
        return UInt64(String(decoding: bytes[at..<(at + length)], as: UTF8.self)) ?? 0
    }

    /// A number of a column of reals: an integer, an integer literal beyond Int64, or a real.
    @inlinable package static func real(_ tag: UInt8, _ bytes: [UInt8], _ at: inout Int) -> Double {
        switch tag {
        case SpooledValue.tagInteger: return Double(integer(bytes, &at))
        case SpooledValue.tagBigInteger:
            let length = Int(readVarint(bytes, &at) ?? 0)
            defer { at += length }
            return Double(String(decoding: bytes[at..<(at + length)], as: UTF8.self)) ?? .nan
        default: return readDouble(bytes, &at)
        }
    }

    /// A value's text in a text column: text, JSON and integer literals as they are, other
    /// numbers and booleans as they read.
    @inlinable package static func appendText(_ tag: UInt8, _ bytes: [UInt8], _ at: inout Int, to text: inout [UInt8]) {
        switch tag {
        case SpooledValue.tagTrue: text.append(contentsOf: "true".utf8)
        case SpooledValue.tagFalse: text.append(contentsOf: "false".utf8)
        case SpooledValue.tagInteger: text.append(contentsOf: String(integer(bytes, &at)).utf8)
        case SpooledValue.tagReal: text.append(contentsOf: DecimalFormatter.shortest(readDouble(bytes, &at)).utf8)
        default:
            let length = Int(readVarint(bytes, &at) ?? 0)
            text.append(contentsOf: bytes[at..<(at + length)])
            at += length
        }
    }
}

/// A number's kind as a column sees it: an integer when its literal has no fraction or
/// exponent and fits 64 bits, else a real.
package enum NumberKind {
    package static func value(_ number: JSONNumber) -> SpooledValue {
        var literal = number.literal
        let integer: Int64? = literal.withUTF8 { bytes in
            guard !bytes.isEmpty else { return nil }
            var i = 0
            var negative = false
            if bytes[0] == UInt8(ascii: "-") {
                negative = true
                i = 1
            }
            guard i < bytes.count else { return nil }
            var value: Int64 = 0
            while i < bytes.count {
                let digit = bytes[i] &- 48
                guard digit < 10 else { return nil }
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) =
                    negative
                    ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
                guard !o1, !o2 else { return nil }
                value = next
                i += 1
            }
            return value
        }
        if let integer { return .integer(integer) }
        return .real(number.doubleValue)
    }
}
