import GeoConvCore
import GeoConvGeometryEncoding

/// A geometry column's field: WKT (or EWKT), or hexadecimal WKB (or EWKB), read with Core's
/// WKT and WKB readers; empty for no geometry.
enum CSVGeometryField {
    /// Whether the bytes look like hex WKB: only hex digits, an even count, starting with a
    /// byte-order byte (`00` or `01`).
    static func isHexWKB(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 10, bytes.count % 2 == 0, bytes[0] == UInt8(ascii: "0"),
            bytes[1] == UInt8(ascii: "0") || bytes[1] == UInt8(ascii: "1")
        else { return false }
        return bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    /// The geometry in field `column` of `record`; `nil` when the field is empty.
    static func parse(
        _ record: CSVRecord, _ column: Int, file: String, arcStep: Double, diagnostics: DiagnosticLog
    ) throws(GeoConvError)
        -> Geometry?
    {
        let range = record.range(column)
        let location = record.location(column, file: file)
        let outcome = record.bytes.withUnsafeBufferPointer { buffer -> Result<Parsed?, GeoConvError> in
            var start = range.lowerBound
            var end = range.upperBound
            while start < end, buffer[start] == 0x20 || buffer[start] == 0x09 { start += 1 }
            while end > start, buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
            guard start < end else { return .success(nil) }
            let text = UnsafeBufferPointer(rebasing: buffer[start..<end])
            // Where the text starts in its line: after the opening quote of a quoted field.
            let shift = start - range.lowerBound + (record.isQuoted(column) ? 1 : 0)
            do throws(GeoConvError) {
                if isHexWKB(text) {
                    let result = try WKB.read(hex: text, arcStep: arcStep)
                    return .success(
                        Parsed(
                            geometry: result.0, droppedM: result.droppedM, linearised: result.linearisedCurves > 0,
                            droppedEmptyPoints: result.droppedEmptyPoints > 0, unclosedRing: false))
                }
                let result = try WKTParser.parse(text, arcStep: arcStep)
                return .success(
                    Parsed(
                        geometry: result.0, droppedM: result.droppedM, linearised: result.linearisedCurves > 0,
                        droppedEmptyPoints: result.droppedEmptyPoints > 0, unclosedRing: result.unclosedRing))
            } catch {
                var located = error
                let inField = shift + (error.location?.byteOffset ?? 0)
                located.location = SourceLocation(
                    file: file, line: location.line, column: (location.column ?? 1) + inField,
                    byteOffset: (location.byteOffset ?? 0) + inField)
                located.message = "the geometry column: " + error.message
                return .failure(located)
            }
        }
        guard let parsed = try outcome.get() else { return nil }
        if parsed.droppedM {
            try diagnostics.warn(CSVCode.mDropped, "M ordinates are dropped: the model keeps X, Y and Z", at: location)
        }
        if parsed.droppedEmptyPoints {
            try diagnostics.warn(
                CSVCode.emptyPointDropped,
                "an EMPTY point inside a MULTIPOINT is dropped: the model's MultiPoint holds positions only",
                at: location)
        }
        if parsed.linearised {
            try diagnostics.warn(
                CSVCode.curveLinearised,
                "curves are linearised: arcs become segments of at most \(DecimalFormatter.shortest(arcStep))°",
                at: location, hint: "set the segment angle with --arc-step DEGREES (GDAL's OGR_ARC_STEPSIZE)")
        }
        if parsed.unclosedRing {
            try diagnostics.warn(
                CSVCode.unclosedRing, "a polygon ring's first and last positions differ; it is closed on writing",
                at: location)
        }
        if let srid = parsed.geometry.srid, srid != 4326 {
            try diagnostics.warn(
                CSVCode.sridIgnored,
                "the geometry's SRID \(srid) is not kept: CSV coordinates are read as WGS84 longitude/latitude",
                at: location, hint: "give the CRS with --s-srs EPSG:\(srid)")
        }
        return parsed.geometry.geometry
    }

    struct Parsed {
        var geometry: WKTGeometry
        var droppedM: Bool
        var linearised: Bool
        var droppedEmptyPoints: Bool
        var unclosedRing: Bool
    }
}
