#if Shapefile
internal import CShapelib
import Foundation
import GeoConvCore
import GeoConvIO

/// One shapefile open for reading: its `.shp` (with `.shx`) and `.dbf` through shapelib,
/// its `.prj` and the DBF's text encoding.
final class ShapefileLayer {
    /// The `.shp` path, and the name messages use for it.
    let path: String
    let displayName: String
    private let shp: SHPHandle
    private let dbf: DBFHandle?
    let decoder: DBFTextDecoder?
    /// The DBF's fields: name (decoded), native type (`C`, `N`, `F`, `L`, `D`, `M`…), decimals.
    let fields: [(name: String, type: UInt8, decimals: Int)]
    /// Fields whose name an earlier field has (GeoTools writes such DBFs), renamed as GDAL
    /// renames them: the second `TestColumn` is `TestColumn2` (old name → new).
    let renamedFields: [(String, String)]
    /// A `.cpg` naming no encoding iconv knows (QGIS writes `System`), and what the DBF was
    /// read as instead: its language driver's code page, as GDAL reads it, or UTF-8 where the
    /// bytes are UTF-8 and ISO-8859-1 where not.
    private(set) var unknownCodePage: (given: String, readAs: String)?
    let shapeCount: Int
    let recordCount: Int
    /// The `.prj`'s text, `nil` when there is none.
    let projection: String?
    /// The folder of a `.shx` rebuilt from the `.shp` (the file had none).
    let restored: TemporaryDirectory?

    /// Opens a `.shp` without its `.shx`: the index rebuilt (shapelib's `SHPRestoreSHX`) in a
    /// temporary folder where the `.shp` is linked.
    private static func openRestoringIndex(_ path: String) -> (SHPHandle, TemporaryDirectory)? {
        guard let directory = try? TemporaryDirectory(holding: ["x.shp", "x.shx"]) else { return nil }
        let link = directory.url.appendingPathComponent("x.shp").path
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard symlink(absolute, link) == 0 else { return nil }
        var hooks = ShapelibHooks.quiet()
        guard SHPRestoreSHX(link, "rb", &hooks) != 0, let shp = SHPOpenLL(link, "rb", &hooks) else { return nil }
        return (shp, directory)
    }

    init(path: String, displayName: String, encodingOverride: String?) throws(GeoConvError) {
        self.path = path
        self.displayName = displayName
        let base = String(path.dropLast(4))
        var hooks = ShapelibHooks.quiet()
        if let shp = SHPOpenLL(path, "rb", &hooks) {
            self.shp = shp
            restored = nil
        } else if !FileManager.default.fileExists(atPath: base + ".shx"),
            !FileManager.default.fileExists(atPath: base + ".SHX"),
            let (shp, directory) = Self.openRestoringIndex(path)
        {
            // GDAL refuses such a file unless SHAPE_RESTORE_SHX=YES; the index is rebuilt from
            // the .shp in a temporary folder (never beside the input).
            self.shp = shp
            restored = directory
        } else {
            throw GeoConvError(
                .invalidInput,
                "'\(displayName)' cannot be opened as a shapefile: its .shp or .shx is missing or damaged",
                hint:
                    "a shapefile is read from its .shp with the .shx and .dbf beside it (same name); give the .shp's path, or a .zip holding them"
            )
        }
        var entities: Int32 = 0
        SHPGetInfo(shp, &entities, nil, nil, nil)
        shapeCount = Int(max(0, entities))
        dbf = DBFOpenLL(base + ".dbf", "rb", &hooks) ?? DBFOpenLL(base + ".DBF", "rb", &hooks)
        if let dbf {
            let codePage = DBFGetCodePage(dbf).map { String(cString: $0) }
            var encoding = DBFEncoding(codePage: codePage, override: encodingOverride)
            if encodingOverride == nil, !encoding.isUTF8, !DBFTextDecoder.knows(encoding.name) {
                let driver = Int(dbf.pointee.iLanguageDriver)
                encoding = DBFEncoding(codePage: driver > 0 ? "LDID/\(driver)" : nil, override: nil)
                let readAs =
                    driver > 0
                    ? "\(encoding.name) (the DBF's language driver id \(driver))"
                    : "UTF-8 where the bytes are UTF-8, ISO-8859-1 where not"
                unknownCodePage = (codePage ?? "", readAs)
            }
            let decoder = try DBFTextDecoder(encoding)
            self.decoder = decoder
            recordCount = Int(DBFGetRecordCount(dbf))
            var fields: [(String, UInt8, Int)] = []
            var name = [CChar](repeating: 0, count: 16)
            for i in 0..<DBFGetFieldCount(dbf) {
                var width: Int32 = 0
                var decimals: Int32 = 0
                _ = DBFGetFieldInfo(dbf, i, &name, &width, &decimals)
                let decoded = name.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: UInt8.self) { bytes in
                        decoder.decode(
                            UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]))
                    }
                }
                fields.append((decoded, UInt8(bitPattern: DBFGetNativeFieldType(dbf, i)), Int(decimals)))
            }
            (self.fields, renamedFields) = Self.uniquelyNamed(fields)
        } else {
            decoder = nil
            recordCount = 0
            fields = []
            renamedFields = []
        }
        projection = Self.text(ofSibling: base, extensions: ["prj", "PRJ"])
    }

    /// The fields with every name made unique as GDAL makes them (`name2`, `name3`… for a name
    /// met again, as written: `NAME` and `name` are two names), and the renamed ones.
    static func uniquelyNamed(
        _ fields: [(String, UInt8, Int)]
    )
        -> (fields: [(name: String, type: UInt8, decimals: Int)], renamed: [(String, String)])
    {
        var taken = Set(fields.map(\.0))
        var seen: Set<String> = []
        var result: [(name: String, type: UInt8, decimals: Int)] = []
        var renamed: [(String, String)] = []
        for (name, type, decimals) in fields {
            var unique = name
            if seen.contains(name) {
                var n = 2
                while taken.contains(name + String(n)) { n += 1 }
                unique = name + String(n)
                taken.insert(unique)
                renamed.append((name, unique))
            }
            seen.insert(unique)
            result.append((unique, type, decimals))
        }
        return (result, renamed)
    }

    deinit {
        SHPClose(shp)
        if let dbf { DBFClose(dbf) }
    }

    var hasAttributes: Bool { dbf != nil }

    /// The text of `base.ext`, for the first of `extensions` that exists.
    static func text(ofSibling base: String, extensions: [String]) -> String? {
        for ext in extensions {
            if let data = FileManager.default.contents(atPath: base + "." + ext) {
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// The byte offset of shape `index` in the `.shp`.
    func offset(of index: Int) -> Int? {
        guard index < Int(shp.pointee.nRecords), let offsets = shp.pointee.panRecOffset else { return nil }
        return Int(offsets[index])
    }

    /// Shape `index`, converted; throws when shapelib cannot read it (a damaged record).
    func geometry(_ index: Int, losses: inout ShapeGeometry.Losses) -> Result<Geometry?, GeoConvError> {
        guard let object = SHPReadObject(shp, Int32(index)) else {
            return .failure(
                GeoConvError(
                    .invalidInput,
                    "shape \(index) of '\(displayName)' cannot be read: the record is damaged or cut short",
                    at: SourceLocation(file: displayName, byteOffset: offset(of: index)),
                    hint: "repair the file (or skip such shapes with --skip-invalid)"))
        }
        defer { SHPDestroyObject(object) }
        return .success(ShapeGeometry.geometry(of: object, losses: &losses))
    }

    /// Whether record `index` is marked deleted in the DBF.
    func isDeleted(_ index: Int) -> Bool {
        guard let dbf, index < recordCount else { return false }
        return DBFIsRecordDeleted(dbf, Int32(index)) != 0
    }

    /// Record `index`'s values as properties, typed as GDAL types them: `N` without decimals
    /// as integers, `N`/`F` with them as reals, `L` as booleans, `D` as `YYYY-MM-DD`, the
    /// rest as text with trailing spaces cut; an empty or unreadable value as null.
    func properties(_ index: Int) -> JSONObject {
        var properties = JSONObject()
        guard let dbf, let decoder, index < recordCount else { return properties }
        properties.reserveCapacity(fields.count)
        for (i, field) in fields.enumerated() {
            guard DBFIsAttributeNULL(dbf, Int32(index), Int32(i)) == 0,
                let raw = DBFReadStringAttribute(dbf, Int32(index), Int32(i))
            else {
                properties[field.name] = .null
                continue
            }
            let value: JSONValue = raw.withMemoryRebound(to: UInt8.self, capacity: 1) { pointer in
                var length = strlen(raw)
                while length > 0, pointer[length - 1] == 0x20 { length -= 1 }
                var start = 0
                let bytes = UnsafeBufferPointer(start: pointer, count: length)
                switch field.type {
                case UInt8(ascii: "N"), UInt8(ascii: "F"):
                    while start < length, bytes[start] == 0x20 { start += 1 }
                    let text = String(decoding: bytes[start...], as: UTF8.self)
                    if field.decimals == 0, let integer = Int(text) { return .number(JSONNumber(integer)) }
                    if let real = Double(text), let number = JSONNumber(real) { return .number(number) }
                    return .null
                case UInt8(ascii: "L"):
                    switch bytes.first {
                    case UInt8(ascii: "T")?, UInt8(ascii: "t")?, UInt8(ascii: "Y")?, UInt8(ascii: "y")?:
                        return .bool(true)
                    case UInt8(ascii: "F")?, UInt8(ascii: "f")?, UInt8(ascii: "N")?, UInt8(ascii: "n")?:
                        return .bool(false)
                    default: return .null
                    }
                case UInt8(ascii: "D") where length == 8 && bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }):
                    let digits = String(decoding: bytes, as: UTF8.self)
                    return .string("\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))")
                default:
                    return .string(decoder.decode(bytes))
                }
            }
            properties[field.name] = value
        }
        return properties
    }
}
#endif
