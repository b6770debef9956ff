import GeoConvCore
import GeoConvIO

/// A feature's `properties` bytes — for each value set, its column's index (`uint16`) and
/// the value as its column's type lays it out — made into the model's properties, every
/// column in order, null where the feature sets none.
struct FlatGeobufProperties {
    let columns: [FlatGeobufHeader.Column]
    /// Every column's key with a null value, in column order: what each feature starts from.
    private let template: JSONObject
    /// Each column's place in `template` (a name given twice has one place).
    private let places: [Int]
    /// Where the title and snippet are taken from among the template's keys.
    let titlePlaces: TitleProperties.Places

    init(columns: [FlatGeobufHeader.Column]) {
        self.columns = columns
        var template = JSONObject()
        var places: [Int] = []
        for column in columns {
            if let place = template.index(forKey: column.name) {
                places.append(place)
            } else {
                places.append(template.count)
                template[column.name] = .null
            }
        }
        self.template = template
        self.places = places
        titlePlaces = TitleProperties.Places(keys: template.keys)
    }

    func values(in table: FlatBufferTable) throws(GeoConvError) -> JSONObject {
        var object = template
        guard let range = try table.vector(1, elementSize: 1) else { return object }
        let bytes = FlatBufferBytes(table.buffer)
        var at = range.lowerBound
        // (As GDAL reads them: a byte left over at the end, which some writers pad with, is no value.)
        while at + 2 <= range.upperBound {
            let index = try bytes.uint16(at: at)
            guard index < columns.count else {
                throw GeoConvError(
                    .invalidInput,
                    "a property names column \(index), and the file has \(columns.count): the file is damaged",
                    at: SourceLocation(file: table.file, byteOffset: table.base + at))
            }
            at += 2
            let type = columns[index].type
            let size: Int
            if let fixed = type.fixedSize { size = fixed } else { size = 4 + (try bytes.uint32(at: at)) }
            guard at + size <= range.upperBound else {
                throw bytes.outOfRange("a \(columns[index].name) value", at: at)
            }
            object.values[places[index]] = try Self.value(of: type, at: at, in: bytes)
            at += size
        }
        return object
    }

    private static func value(
        of type: FlatGeobufHeader.ColumnType, at: Int, in bytes: FlatBufferBytes
    ) throws(GeoConvError) -> JSONValue {
        switch type {
        case .byte: return .number(JSONNumber(Int8(bitPattern: try bytes.uint8(at: at))))
        case .unsignedByte: return .number(JSONNumber(try bytes.uint8(at: at)))
        case .bool: return .bool(try bytes.uint8(at: at) != 0)
        case .short: return .number(JSONNumber(Int16(truncatingIfNeeded: try bytes.uint16(at: at))))
        case .unsignedShort: return .number(JSONNumber(try bytes.uint16(at: at)))
        case .int: return .number(JSONNumber(try bytes.int32(at: at)))
        case .unsignedInt: return .number(JSONNumber(try bytes.uint32(at: at)))
        case .long: return .number(JSONNumber(Int64(bitPattern: try bytes.uint64(at: at))))
        case .unsignedLong: return .number(JSONNumber(try bytes.uint64(at: at)))
        case .float:
            let value = Float(bitPattern: UInt32(try bytes.uint32(at: at)))
            guard value.isFinite else { return .null }
            // (Its shortest decimal, "0.1", not the double's 0.10000000149011612.)
            return (JSONNumber(literal: "\(value)") ?? JSONNumber(Double(value))).map(JSONValue.number) ?? .null
        case .double:
            return JSONNumber(Double(bitPattern: try bytes.uint64(at: at))).map(JSONValue.number) ?? .null
        case .string, .dateTime:
            return .string(text(at: at, in: bytes))
        case .json:
            let text = text(at: at, in: bytes)
            return JSONText.parse(text) ?? .string(text)
        case .binary:
            let count = (try? bytes.uint32(at: at)) ?? 0
            return .string(
                HexText.lowercase(UnsafeRawBufferPointer(rebasing: bytes.bytes[(at + 4)..<(at + 4 + count)])))
        }
    }

    /// The length-prefixed text at `at` (its bounds already checked).
    private static func text(at: Int, in bytes: FlatBufferBytes) -> String {
        let count = (try? bytes.uint32(at: at)) ?? 0
        return String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes.bytes[(at + 4)..<(at + 4 + count)]), as: UTF8.self)
    }
}
