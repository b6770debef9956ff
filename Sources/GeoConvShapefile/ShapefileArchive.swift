#if Shapefile
import Foundation
import GeoConvCore
import GeoConvIO
import ZIPFoundation

/// The shapefiles of a zip archive, extracted to a temporary folder (shapelib reads files):
/// every `.shp` at any depth with its `.shx`, `.dbf`, `.prj` and `.cpg`, in the archive's
/// order of names. Entries are checked against a size limit and a compression ratio, so
/// that a zip bomb is refused before it fills the disk.
final class ShapefileArchive {
    /// The extracted `.shp` files and their names in messages (`parcels.zip/parcels.shp`).
    private(set) var shapefiles: [(path: String, name: String)] = []
    private let directory: TemporaryDirectory
    /// Standard input or memory copied to a file (a zip needs random access).
    private let copy: SpooledInput?

    /// The largest entry accepted, uncompressed (16 GiB) and the largest expansion (1000 : 1).
    static let maximumEntryBytes: UInt64 = 16 << 30
    static let maximumRatio: UInt64 = 1000

    init(_ input: ByteReader) throws(GeoConvError) {
        let parts = ["shp", "shx", "dbf", "prj", "cpg"]
        copy = input.filePath == nil ? try SpooledInput(copying: input) : nil
        let archiveURL = URL(fileURLWithPath: input.filePath ?? copy?.path ?? "")
        let archive: Archive
        do {
            archive = try Archive(url: archiveURL, accessMode: .read)
        } catch {
            throw GeoConvError(
                .invalidInput, "'\(input.name)' is not a zip archive that can be read: \(error)",
                hint: "check that the file is complete")
        }
        let entries = Array(archive).filter { entry in
            entry.type == .file && !entry.path.split(separator: "/").contains("__MACOSX")
                && parts.contains((entry.path as NSString).pathExtension.lowercased())
        }
        // Entries are extracted under flat names (their index), so no path leaves the folder.
        directory = try TemporaryDirectory(holding: entries.indices.flatMap { i in parts.map { "\(i).\($0)" } })
        var bases: [String: Int] = [:]  // entry path without extension, lower-cased → extracted name
        var shpEntries: [(entry: String, path: String)] = []
        // In the archive's order, as GDAL lists a zip's layers (geoconv writes the first
        // kind's file first).
        for entry in entries {
            let ext = (entry.path as NSString).pathExtension.lowercased()
            let base = String(entry.path.dropLast(ext.count + 1)).lowercased()
            let number = bases[base] ?? bases.count
            bases[base] = number
            guard entry.uncompressedSize <= Self.maximumEntryBytes,
                entry.uncompressedSize <= max(entry.compressedSize, 1 << 20) * Self.maximumRatio
            else {
                throw GeoConvError(
                    .limitExceeded, "\(entry.path) in '\(input.name)' would expand to \(entry.uncompressedSize) bytes",
                    hint: "geoconv accepts entries up to 16 GiB and 1000 times their compressed size (docs/security.md)"
                )
            }
            let target = directory.url.appendingPathComponent("\(number).\(ext)")
            do {
                _ = try archive.extract(entry, to: target, skipCRC32: false)
            } catch {
                throw GeoConvError(
                    .invalidInput, "\(entry.path) in '\(input.name)' cannot be extracted: \(error)",
                    hint: "check that the zip is complete")
            }
            if ext == "shp" { shpEntries.append((entry.path, target.path)) }
        }
        shapefiles = shpEntries.map { ($0.path, "\(input.name)/\(($0.entry as NSString).lastPathComponent)") }
    }
}

/// What a `.prj` says about the CRS.
enum ShapefileProjection {
    /// `nil` for WGS84 longitude/latitude (Esri's `GCS_WGS_1984`, or `WGS 84`) and for no
    /// `.prj`; else the WKT, which PROJ reads in Esri's dialect too.
    static func crs(ofPRJ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let upper = text.uppercased()
        let geographic = upper.hasPrefix("GEOGCS[") || upper.hasPrefix("GEOGCRS[")
        let wgs84 =
            upper.contains("D_WGS_1984") || upper.contains("\"WGS_1984\"") || upper.contains("DATUM[\"WGS84\"")
            || upper.contains("DATUM[\"WORLD GEODETIC SYSTEM 1984\"") || upper.contains("\"WGS 84\"")
        return geographic && wgs84 && !upper.contains("PROJCS[") ? nil : text
    }
}
#endif
