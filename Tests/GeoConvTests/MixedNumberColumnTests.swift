import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// A column of integers and reals (`12, 12.5, 300, -4`): real in the typed formats, as GDAL's
/// AUTODETECT_TYPE types it, said where an integer's text changes; each number's own digits
/// in GeoJSON.
@Suite("Columns mixing integers and reals")
struct MixedNumberColumnTests {
    static let csv = Array("name,lat,lon,v\na,1,2,12\nb,1,2,12.5\nc,1,2,300\nd,1,2,-4\n".utf8)

    static func convert(to format: FileFormat) throws -> ConversionReport {
        try Converter().convert(
            .memory(csv, name: "mixed.csv"), to: .memory,
            options: ConversionOptions(outputFormat: format))
    }

    @Test("GeoJSON keeps each number's own digits")
    func geoJSONKeepsDigits() throws {
        let text = String(decoding: try Self.convert(to: .geoJSON).output, as: UTF8.self)
        #expect(text.contains(#""v":12}"#) && text.contains(#""v":12.5}"#) && text.contains(#""v":-4}"#), "\(text)")
    }

    @Test("GeoParquet: a DOUBLE column, noted at the column's first value", .enabled(if: BuiltTraits.zstd))
    func geoParquetDouble() throws {
        let report = try Self.convert(to: .geoParquet)
        let note = try #require(report.diagnostics.entries["geoparquet.integers-as-double"])
        #expect(note.first.isNote && note.first.message.contains(#""v""#) && note.first.location?.line == 2)
        let back = try OverlayDocument.load(.memory(report.output, name: "back.parquet")).features
        #expect(back.map { $0.properties["v"]?.doubleValue } == [12, 12.5, 300, -4])
    }

    @Test("Shapefile: a real field, noted with the first integer's feature", .enabled(if: BuiltTraits.shapefile))
    func shapefileReal() throws {
        let report = try Self.convert(to: FormatRegistry.standard.format(named: "shapefile") ?? .geoJSON)
        let note = try #require(report.diagnostics.entries["shapefile.integers-as-real"])
        #expect(note.first.isNote && note.first.message.contains(#""v""#) && note.first.message.contains("feature 1"))
    }

    /// Writes the CSV as `format` into a file named `name`, hands its path to `body`.
    static func withFile<T>(_ format: FileFormat, named name: String, _ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-mixed-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try Data(try Self.convert(to: format).output).write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    @Test("pyarrow reads the mixed column as double", .enabled(if: BuiltTraits.zstd && PythonReaders.available))
    func pyarrowReadsDouble() throws {
        let type = try Self.withFile(.geoParquet, named: "mixed.parquet") { path in
            try PythonReaders.run(
                "import sys, pyarrow.parquet as pq; print(pq.read_schema(sys.argv[1]).field('v').type)", [path])
        }
        #expect(String(decoding: type, as: UTF8.self) == "double\n")
    }

    @Test(
        "GDAL reads the mixed column as a real shapefile field",
        .enabled(if: Tools.ogrinfo != nil && BuiltTraits.shapefile))
    func gdalReadsReal() throws {
        let shapefile = try #require(FormatRegistry.standard.format(named: "shapefile"))
        // (A shapefile in memory is a zip of its files; GDAL reads a .shp.zip as one.)
        let info = try Self.withFile(shapefile, named: "mixed.shp.zip") { path in
            String(decoding: try Tools.output(of: try #require(Tools.ogrinfo), ["-so", "-al", path]), as: UTF8.self)
        }
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("v: ") })
        // A DBF real field (width.decimals): one decimal, for 12.5.
        #expect(line.hasPrefix("v: Real (") && line.hasSuffix(".1)"), "\(line)")
    }
}
