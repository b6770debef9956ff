#if GeoPackage
import GeoConvCore
import GeoConvGeometryEncoding

/// The GeoPackage geometry blob (GeoPackage 1.3, §2.1.3): "GP", a version, flags (byte order,
/// envelope kind, empty, extended), the SRS id and the envelope, then ISO WKB.
enum GeoPackageGeometry {
    /// What a blob holds: its geometry (`nil` for an empty one), and whether M values or
    /// curves were met (dropped, linearised).
    struct Read {
        var geometry: Geometry?
        var droppedM: Bool
        var linearisedCurves: Bool
    }

    /// Appends a blob's header to `out`: "GP", version 0, little-endian, the SRS id and the
    /// envelope (x and y; none for a point, whose envelope is itself, as GDAL writes it, and
    /// for an empty geometry, flagged empty). The WKB follows.
    static func appendHeader(
        srsID: Int32, box: (Double, Double, Double, Double)?, isPoint: Bool, to out: inout [UInt8]
    ) {
        let envelope = box != nil && !isPoint
        let empty = box == nil
        out.append(contentsOf: [UInt8(ascii: "G"), UInt8(ascii: "P"), 0])
        out.append(0x01 | (envelope ? 0x02 : 0) | (empty ? 0x10 : 0))
        withUnsafeBytes(of: srsID.littleEndian) { out.append(contentsOf: $0) }
        guard envelope, let box else { return }
        // (Envelope order: min x, max x, min y, max y.)
        let bits = (
            box.0.bitPattern.littleEndian, box.2.bitPattern.littleEndian, box.1.bitPattern.littleEndian,
            box.3.bitPattern.littleEndian
        )
        withUnsafeBytes(of: bits) { out.append(contentsOf: $0) }
    }

    /// Reads a blob; `location` places an error.
    static func read(_ blob: [UInt8], at location: SourceLocation) throws(GeoConvError) -> Read {
        try blob.withUnsafeBytes { raw in
            Result { () throws(GeoConvError) in try read(raw, at: location) }
        }.get()
    }

    /// Reads a blob in place (SQLite's own bytes, valid until the row steps on).
    static func read(_ blob: UnsafeRawBufferPointer, at location: SourceLocation) throws(GeoConvError) -> Read {
        guard blob.count >= 8, blob[0] == UInt8(ascii: "G"), blob[1] == UInt8(ascii: "P") else {
            throw GeoConvError(
                .invalidInput, "a geometry is not a GeoPackage geometry blob (it does not start with \"GP\")",
                at: location,
                hint: "the file may have been written by a tool that stores plain WKB: convert it with ogr2ogr")
        }
        let flags = blob[3]
        guard flags & 0x20 == 0 else {
            throw GeoConvError(
                .unsupported, "an extended GeoPackage geometry (a type outside the core) is not read", at: location,
                hint: "convert it to core types first, e.g. with ogr2ogr -nlt CONVERT_TO_LINEAR")
        }
        let envelopeSizes = [0, 32, 48, 48, 64]
        let kind = Int((flags >> 1) & 0x07)
        guard kind < envelopeSizes.count else {
            throw GeoConvError(
                .invalidInput, "a geometry blob's envelope kind is \(kind), which GeoPackage does not define",
                at: location, hint: "the file is damaged")
        }
        let start = 8 + envelopeSizes[kind]
        guard start < blob.count else {
            if flags & 0x10 != 0 { return Read(geometry: nil, droppedM: false, linearisedCurves: false) }
            throw GeoConvError(
                .invalidInput, "a geometry blob ends before its WKB", at: location, hint: "the file is damaged")
        }
        let read: WKB.Result
        do throws(GeoConvError) {
            read = try WKB.read(UnsafeRawBufferPointer(rebasing: blob[start...]))
        } catch {
            throw GeoConvError(error.code, "a geometry's WKB: \(error.message)", at: location, hint: error.hint)
        }
        let geometry = read.0.geometry
        return Read(
            geometry: geometry, droppedM: read.droppedM,
            linearisedCurves: read.linearisedCurves > 0)
    }
}
#endif
