public import GeoConvCore

/// Google's encoded polyline algorithm: coordinates as zig-zag varints of rounded
/// differences, five bits per printable character (63…126).
///
/// - Precision is the number of decimals kept: 5 for Google, 6 for OSRM and Valhalla; any
///   of 0…13 here (13 is the largest at which every longitude still fits the 53 bits a
///   `Double` holds exactly, so `decode(encode(x))` is stable at every supported precision).
/// - Arithmetic is on 64-bit integers; decoding divides the exact integer by 10^precision,
///   so a decoded value is the `Double` nearest the encoded decimal.
/// - Encoding rounds `value × 10^precision` half away from zero (0.000025 at precision 5
///   becomes 3, not 2), as the Python `polyline` package and the reference implementations
///   in the conformance suite do; JavaScript's `Math.round` differs on negative ties.
public enum EncodedPolyline {
    /// Google's precision: five decimals (about 1.1 m).
    public static let defaultPrecision = 5
    /// The precisions this codec accepts.
    public static let supportedPrecisions: ClosedRange<Int> = 0...13

    /// Encodes coordinates (latitude, longitude; altitude is not part of the format).
    ///
    /// - Throws: `GeoConvError` for an unsupported precision, or a coordinate that is NaN,
    ///   infinite, or too large to encode at this precision.
    public static func encode<C: Collection<Coordinate>>(
        _ coordinates: C, precision: Int = defaultPrecision
    )
        throws(GeoConvError) -> String
    {
        var bytes: [UInt8] = []
        try encode(coordinates, precision: precision, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the encoding of `coordinates` to `output`.
    public static func encode<C: Collection<Coordinate>>(
        _ coordinates: C, precision: Int = defaultPrecision, into output: inout [UInt8]
    ) throws(GeoConvError) {
        let factor = try scale(for: precision)
        // The decoder refuses a step of more than 360°: never write one it would refuse.
        let limit = Int64(360 * factor)
        output.reserveCapacity(output.count + coordinates.count * 8)
        var previousLatitude: Int64 = 0
        var previousLongitude: Int64 = 0
        var index = 0
        for coordinate in coordinates {
            let latitude = try quantize(
                coordinate.latitude, factor: factor, precision: precision, index: index, what: "latitude")
            let longitude = try quantize(
                coordinate.longitude, factor: factor, precision: precision, index: index, what: "longitude")
            let deltaLatitude = latitude - previousLatitude
            let deltaLongitude = longitude - previousLongitude
            guard abs(deltaLatitude) <= limit, abs(deltaLongitude) <= limit else {
                throw GeoConvError(
                    .invalidInput,
                    "coordinate \(index) (latitude \(DecimalFormatter.shortest(coordinate.latitude)), longitude \(DecimalFormatter.shortest(coordinate.longitude))) is more than 360° from the one before (or from 0, 0), so it cannot be encoded in a polyline that decodes",
                    hint: "coordinates are degrees: latitude within ±90, longitude within ±180")
            }
            appendVarint(deltaLatitude, to: &output)
            appendVarint(deltaLongitude, to: &output)
            previousLatitude = latitude
            previousLongitude = longitude
            index += 1
        }
    }

    /// `value × 10^precision` rounded half away from zero, as an integer.
    static func quantize(
        _ value: Double, factor: Double, precision: Int, index: Int, what: String
    )
        throws(GeoConvError) -> Int64
    {
        let scaled = value * factor
        guard scaled.isFinite, abs(scaled) < 9.0e15 else {
            throw GeoConvError(
                .invalidInput,
                value.isFinite
                    ? "\(what) \(value) of coordinate \(index) is too large to encode at precision \(precision)"
                    : "\(what) of coordinate \(index) is \(value), which cannot be encoded",
                hint: "coordinates are degrees: latitude within ±90, longitude within ±180")
        }
        let magnitude = (abs(scaled) + 0.5).rounded(.down)
        return Int64(scaled < 0 ? -magnitude : magnitude)
    }

    @inline(__always)
    static func appendVarint(_ delta: Int64, to output: inout [UInt8]) {
        var value = UInt64(bitPattern: delta < 0 ? ~(delta << 1) : (delta << 1))
        while value >= 0x20 {
            output.append(UInt8(truncatingIfNeeded: (0x20 | (value & 0x1F)) + 63))
            value >>= 5
        }
        output.append(UInt8(truncatingIfNeeded: value + 63))
    }

    /// The geometry one decoded path stands for: a Point for one position, else a LineString
    /// (empty for none). The `.polyline` file grammar and `geoconv polyline decode` use this rule.
    public static func geometry(for path: [Coordinate]) -> Geometry {
        switch path.count {
        case 0: .empty(.lineString)
        case 1: .point(path[0])
        default: .lineString(Path(path))
        }
    }

    /// Decodes an encoded polyline into coordinates.
    ///
    /// - Throws: `GeoConvError` with the byte offset of the problem: a character outside
    ///   63…126, a string that ends inside a value or after a latitude without its
    ///   longitude, or a value too large for any coordinate at this precision (overlong
    ///   or corrupt input).
    public static func decode(_ encoded: String, precision: Int = defaultPrecision) throws(GeoConvError) -> [Coordinate]
    {
        var result: [Coordinate] = []
        var text = encoded
        let failure = text.withUTF8 { bytes -> GeoConvError? in
            do throws(GeoConvError) {
                try decode(bytes, precision: precision, into: &result)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return result
    }

    /// Decodes UTF-8 bytes, appending to `output`. Offsets in errors count from the start of `bytes`.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, precision: Int = defaultPrecision,
        into output: inout [Coordinate]
    ) throws(GeoConvError) {
        let factor = try scale(for: precision)
        // The largest difference two valid coordinates can have, ±360°, at this precision.
        let limit = Int64(360) * Int64(factor)
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return }
        output.reserveCapacity(output.count + count / 6)
        var index = 0
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        while index < count {
            let pairStart = index
            let deltaLatitude = try readVarint(base, count, &index, limit: limit, precision: precision)
            guard index < count else {
                throw GeoConvError(
                    .invalidInput,
                    "the encoded polyline ends after a latitude, without its longitude",
                    at: SourceLocation(byteOffset: count),
                    hint: "the string is truncated; the last point starts at byte \(pairStart)")
            }
            let deltaLongitude = try readVarint(base, count, &index, limit: limit, precision: precision)
            let (newLatitude, o1) = latitude.addingReportingOverflow(deltaLatitude)
            let (newLongitude, o2) = longitude.addingReportingOverflow(deltaLongitude)
            guard !o1, !o2 else {
                throw GeoConvError(
                    .invalidInput, "coordinates overflow 64-bit integers by the point at byte \(pairStart)",
                    at: SourceLocation(byteOffset: pairStart),
                    hint: "the string is corrupt, or was encoded at a lower precision than \(precision)")
            }
            latitude = newLatitude
            longitude = newLongitude
            output.append(Coordinate(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor))
        }
    }

    @inline(__always)
    static func readVarint(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int, limit: Int64, precision: Int
    )
        throws(GeoConvError) -> Int64
    {
        let start = index
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < count else {
                throw GeoConvError(
                    .invalidInput,
                    "the encoded polyline ends inside a value (its last character has the continuation bit set)",
                    at: SourceLocation(byteOffset: count),
                    hint: "the string is truncated or was cut at a special character; the value starts at byte \(start)"
                )
            }
            let byte = base[index]
            let chunk = UInt64(byte) &- 63
            guard chunk < 64 else { throw invalidCharacter(base, count, index) }
            index += 1
            result |= (chunk & 0x1F) << shift
            if chunk < 0x20 { break }
            shift += 5
            guard shift < 60 else {
                throw GeoConvError(
                    .invalidInput, "overlong value starting at byte \(start): more than 12 characters",
                    at: SourceLocation(byteOffset: start),
                    hint: "no coordinate needs that many; the string is corrupt")
            }
        }
        let magnitude = Int64(bitPattern: result >> 1)
        let delta = (result & 1) != 0 ? ~magnitude : magnitude
        guard delta <= limit, delta >= -limit else {
            throw GeoConvError(
                .invalidInput,
                "value at byte \(start) is \(DecimalFormatter.shortest(Double(delta) / DecimalFormatter.powerOfTen(precision)))°, beyond any coordinate difference (±360°) at precision \(precision)",
                at: SourceLocation(byteOffset: start),
                hint: "the string is corrupt, or was encoded at a higher precision than \(precision)")
        }
        return delta
    }

    static func invalidCharacter(_ base: UnsafePointer<UInt8>, _ count: Int, _ index: Int) -> GeoConvError {
        let byte = base[index]
        let shown: String
        if byte >= 32 && byte < 127 {
            shown = "'\(Character(Unicode.Scalar(byte)))' (\(byte))"
        } else if byte >= 0x80 {
            shown = "a non-ASCII byte 0x\(String(byte, radix: 16, uppercase: true))"
        } else {
            shown = "control byte \(byte)"
        }
        var hint = "encoded polylines use only the characters '?' (63) to '~' (126)"
        if byte == 32 || byte == 9 { hint += "; separate several polylines with newlines" }
        return GeoConvError(
            .invalidInput, "character \(shown) at byte \(index) is not part of an encoded polyline",
            at: SourceLocation(byteOffset: index), hint: hint)
    }

    static func scale(for precision: Int) throws(GeoConvError) -> Double {
        guard supportedPrecisions.contains(precision) else {
            throw GeoConvError(
                .usage, "polyline precision \(precision) is not supported",
                hint: "use 0…13: 5 for Google, 6 for OSRM and Valhalla")
        }
        return DecimalFormatter.powerOfTen(precision)
    }
}
