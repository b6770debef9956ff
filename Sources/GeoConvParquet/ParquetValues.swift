package import GeoConvCore

/// A decoded value as a property: numbers, booleans and text as themselves; dates, times
/// and timestamps as ISO 8601 text; decimals scaled; binary as hex.
package enum ParquetValues {
    package static func value(
        _ values: DecodedColumn.Values, _ index: Int,
        _ element: ParquetSchemaElement
    ) -> JSONValue {
        switch values {
        case .flags(let list): return .bool(list[index])
        case .reals(let list): return JSONNumber(list[index]).map(JSONValue.number) ?? .string(String(list[index]))
        case .integers(let list): return integer(list[index], element)
        case .bytes(let data, let ends):
            let bytes = data[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
            return byteValue(bytes, element)
        }
    }

    package static func integer(_ raw: Int64, _ element: ParquetSchemaElement) -> JSONValue {
        switch element.annotation {
        case .date: return .string(date(days: raw))
        case .timestamp(let units, let utc): return .string(timestamp(raw, unitsPerSecond: units, utc: utc))
        case .time(let units): return .string(time(raw, unitsPerSecond: units))
        case .decimal(let scale):
            return .number(decimal(magnitude: raw.magnitude, negative: raw < 0, scale: Int(scale)))
        case .integer(let bits, false):
            // Unsigned: the stored bits read as unsigned.
            let unsigned =
                bits >= 64 || bits <= 0 ? UInt64(bitPattern: raw) : UInt64(bitPattern: raw) & ((1 << UInt64(bits)) - 1)
            return .number(JSONNumber(unsigned))
        default: return .number(JSONNumber(raw))
        }
    }

    package static func byteValue(_ bytes: ArraySlice<UInt8>, _ element: ParquetSchemaElement) -> JSONValue {
        switch element.annotation {
        case .string, .json, .enumeration:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .uuid where bytes.count == 16:
            var text = HexText.lowercase(bytes)
            for position in [8, 13, 18, 23] { text.insert("-", at: text.index(text.startIndex, offsetBy: position)) }
            return .string(text)
        case .decimal(let scale) where bytes.count <= 8:
            // Big-endian two's complement.
            var raw: Int64 = bytes.first.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
            for b in bytes { raw = raw << 8 | Int64(b) }
            return .number(decimal(magnitude: raw.magnitude, negative: raw < 0, scale: Int(scale)))
        case .float16 where bytes.count == 2:
            let bits = UInt16(bytes[bytes.startIndex]) | UInt16(bytes[bytes.startIndex + 1]) << 8
            return JSONNumber(half(bits)).map(JSONValue.number) ?? .null
        default:
            if element.type == .int96, bytes.count == 12 {
                // Nanoseconds of the day (8 bytes), then the Julian day (4), little-endian.
                var nanos: Int64 = 0
                var day: Int64 = 0
                for k in 0..<8 { nanos |= Int64(bytes[bytes.startIndex + k]) << Int64(8 * k) }
                for k in 0..<4 { day |= Int64(bytes[bytes.startIndex + 8 + k]) << Int64(8 * k) }
                let (dayNanos, overflow) = (day - 2_440_588).multipliedReportingOverflow(by: 86_400_000_000_000)
                guard !overflow else { return .string(HexText.lowercase(bytes)) }
                return .string(timestamp(dayNanos &+ nanos, unitsPerSecond: 1_000_000_000, utc: true))
            }
            return .string(HexText.lowercase(bytes))
        }
    }

    /// IEEE 754 half precision (`Float16` is not on every platform Swift runs on).
    package static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * mantissa * 0x1p-24
        case 31: return mantissa == 0 ? sign * .infinity : .nan
        default: return sign * (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// A decimal's text: the unscaled integer with `scale` digits after the point.
    package static func decimal(magnitude: UInt64, negative: Bool, scale: Int) -> JSONNumber {
        var digits = String(magnitude)
        guard scale.magnitude <= 40 else {
            // A scale no decimal type has (Parquet's reach 38): the exponent form.
            return JSONNumber(uncheckedLiteral: (negative && magnitude != 0 ? "-" : "") + digits + "e" + String(-scale))
        }
        if scale > 0 {
            while digits.count <= scale { digits = "0" + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        } else if scale < 0 {
            digits += String(repeating: "0", count: -scale)
        }
        return JSONNumber(uncheckedLiteral: (negative && magnitude != 0 ? "-" : "") + digits)
    }

    /// The civil date of a day count from 1970-01-01 (proleptic Gregorian; Hinnant's
    /// days-to-civil algorithm).
    package static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    package static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }

    package static func date(days: Int64) -> String {
        // Beyond ±2^40 days (three billion years) a date is not one: the count itself.
        guard days.magnitude < 1 << 40 else { return String(days) }
        let (y, m, d) = civil(days)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    package static func time(_ raw: Int64, unitsPerSecond: Int64) -> String {
        let seconds = raw / unitsPerSecond
        let fraction = raw % unitsPerSecond
        var text = "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if fraction != 0 { text += "." + pad(fraction, String(unitsPerSecond).count - 1) }
        return text
    }

    package static func timestamp(_ raw: Int64, unitsPerSecond: Int64, utc: Bool) -> String {
        var seconds = raw / unitsPerSecond
        var fraction = raw % unitsPerSecond
        if fraction < 0 {
            fraction += unitsPerSecond
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        return date(days: days) + "T" + time(secondOfDay * unitsPerSecond + fraction, unitsPerSecond: unitsPerSecond)
            + (utc ? "Z" : "")
    }

    /// A value as text for the title and snippet.
    package static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        default: return String(decoding: JSONText.compact(value), as: UTF8.self)
        }
    }
}
