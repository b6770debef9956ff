import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

#if Shapefile
/// The `.shp`, `.shx` and `.dbf` bytes geoconv writes in its own code: headers, record
/// headers, the index, bounds, field descriptors and records, checked at their offsets.
@Suite("Shapefile records written byte by byte")
struct ShapefileRecordTests {
    static func bigEndian(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
    static func littleEndian(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
    static func double(_ bytes: [UInt8], _ at: Int) -> Double {
        Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) })
    }

    @Test("Headers, record headers, the index and the bounds (a point at 0,0 among them)")
    func pointsAndIndex() throws {
        let geojson = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"n":1,"label":"a"},"geometry":{"type":"Point","coordinates":[0,0]}},
            {"type":"Feature","properties":{"n":22,"label":"nul\u0000byte"},"geometry":null},
            {"type":"Feature","properties":{"n":-3,"label":null},
             "geometry":{"type":"Point","coordinates":[12.5,-7.25]}}]}
            """#
        let directory = try ShapefileWritingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("p.shp").path
        _ = try Converter().convert(.memory(Array(geojson.utf8), name: "in.geojson"), to: .file(out))
        let shp = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
        let shx = Array(try Data(contentsOf: directory.appendingPathComponent("p.shx")))
        // Two points (8 + 20 bytes each) and a null shape (8 + 4), after the 100-byte header.
        #expect(shp.count == 100 + 28 + 12 + 28 && Self.bigEndian(shp, 0) == 9994)
        #expect(Self.bigEndian(shp, 24) * 2 == shp.count && Self.littleEndian(shp, 28) == 1000)
        #expect(Self.littleEndian(shp, 32) == 1)  // Point
        // The bounds hold the point at 0,0 (shapelib's writer took all-zero bounds as unset).
        #expect([36, 44, 52, 60].map { Self.double(shp, $0) } == [0, -7.25, 12.5, 0])
        #expect(Array(shp[0..<100].dropFirst(36)) == Array(shx[0..<100].dropFirst(36)))
        #expect(shx.count == 100 + 3 * 8 && Self.bigEndian(shx, 24) * 2 == shx.count)
        // Each index entry: the record's offset and content length, in 16-bit words.
        let entries = (0..<3).map { (Self.bigEndian(shx, 100 + 8 * $0) * 2, Self.bigEndian(shx, 104 + 8 * $0) * 2) }
        #expect(entries.map(\.0) == [100, 128, 140] && entries.map(\.1) == [20, 4, 20])
        for (number, entry) in entries.enumerated() {
            #expect(Self.bigEndian(shp, entry.0) == number + 1 && Self.bigEndian(shp, entry.0 + 4) * 2 == entry.1)
        }
        #expect(Self.littleEndian(shp, 140 + 8) == 1 && Self.double(shp, 140 + 12) == 12.5)

        // The DBF: its header, two fields, three records and the end mark.
        let dbf = Array(try Data(contentsOf: directory.appendingPathComponent("p.dbf")))
        #expect(dbf[0] == 3 && Self.littleEndian(dbf, 4) == 3)
        let headerLength = Int(dbf[8]) | Int(dbf[9]) << 8
        let recordLength = Int(dbf[10]) | Int(dbf[11]) << 8
        #expect(headerLength == 32 + 2 * 32 + 1 && dbf[headerLength - 1] == 0x0D)
        #expect(String(decoding: dbf[32..<33], as: UTF8.self) == "n" && dbf[32 + 11] == UInt8(ascii: "N"))
        #expect(String(decoding: dbf[64..<69], as: UTF8.self) == "label" && dbf[64 + 11] == UInt8(ascii: "C"))
        #expect(recordLength == 1 + 2 + 8 && dbf.count == headerLength + 3 * recordLength + 1 && dbf.last == 0x1A)
        let records = (0..<3).map { row in
            let start = headerLength + row * recordLength
            return String(decoding: dbf[start..<(start + recordLength)], as: UTF8.self)
        }
        #expect(records == ["  1a       ", " 22nul\0byte", " -3        "], "\(records)")
        #expect(try String(contentsOf: directory.appendingPathComponent("p.cpg"), encoding: .utf8) == "UTF-8")
        let dbfPath = directory.appendingPathComponent("p.dbf").path
        let attributes = try FileManager.default.attributesOfItem(atPath: dbfPath)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o044 } == 0o044, "readable as the umask allows")
    }

    @Test(
        "A projected GeoParquet (PROJJSON CRS) → Shapefile: the .prj in Esri's WKT, as GDAL writes it",
        .enabled(if: BuiltTraits.proj && BuiltTraits.zstd))
    func projectedPRJ() throws {
        let directory = try ShapefileWritingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("utm.shp").path
        let input = Fixtures.testdata("geoparquet/duckdb-native-utm.parquet")
        let report = try Converter().convert(.file(input), to: .file(out))
        #expect(report.diagnostics.entries["shapefile.prj-not-written"] == nil)
        let prj = try String(contentsOf: directory.appendingPathComponent("utm.prj"), encoding: .utf8)
        #expect(prj.hasPrefix(#"PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984""#), "\(prj)")
        #expect(prj.contains(#"PARAMETER["Central_Meridian",15.0]"#))
    }

    @Test("`info` counts what the Shapefile writer would report, without writing: the conversion's warnings")
    func infoCountsAsWritingReports() throws {
        let path = Fixtures.testdata("shapefile/source/mixed.geojson")
        let directory = try ShapefileWritingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // (Into memory, the files are named out.*, as info names them.)
        let written = try Converter().convert(
            .file(path), to: .memory,
            options: ConversionOptions(outputFormat: .shapefile))
        let inspected = try Converter().inspect(.file(path))
        #expect(inspected.losses["shapefile"] == written.diagnostics.summary, "\(inspected.losses["shapefile"] ?? [])")
        #expect(written.diagnostics.entries["shapefile.text-truncated"] != nil)
    }
}
#endif
