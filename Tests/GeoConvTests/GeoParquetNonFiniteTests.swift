import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// WKB holds any double: a GeoParquet geometry with a NaN coordinate (written by other tools)
/// is refused at its row, or skipped with `--skip-invalid`.
@Suite("GeoParquet rows with a NaN coordinate")
struct GeoParquetNonFiniteTests {
    /// Two points written uncompressed, the first one's longitude (123.25) then made NaN in
    /// every place the file holds it (the WKB, the bbox column).
    static func fileWithNaN() throws -> [UInt8] {
        let text =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[123.25,45.5]}},"#
            + #"{"type":"Feature","properties":{"n":2},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        var options = ConversionOptions(outputFormat: .geoParquet)
        options.formatOptions[GeoParquetOptions.compression] = "none"
        var bytes = try Converter().convert(
            .memory(Array(text.utf8), name: "p.geojson"), to: .memory,
            options: options
        ).output
        let pattern = withUnsafeBytes(of: (123.25).bitPattern.littleEndian) { Array($0) }
        let nan = withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { Array($0) }
        var replaced = 0
        var i = 0
        while i + 8 <= bytes.count {
            if Array(bytes[i..<(i + 8)]) == pattern {
                bytes.replaceSubrange(i..<(i + 8), with: nan)
                replaced += 1
            }
            i += 1
        }
        #expect(replaced >= 1)
        return bytes
    }

    @Test("Refused at its row without --skip-invalid; skipped and listed with it", .enabled(if: BuiltTraits.zstd))
    func nonFiniteRow() throws {
        let bytes = try Self.fileWithNaN()
        let options = ConversionOptions(outputFormat: .geoJSON)
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(.memory(bytes, name: "nan.parquet"), to: .memory, options: options)
        }
        #expect(
            error?.message.contains("row 0 of row group 0: a WKB ordinate is NaN or infinite") == true,
            "\(String(describing: error))")
        var skipping = options
        skipping.skipInvalid = true
        let report = try Converter().convert(.memory(bytes, name: "nan.parquet"), to: .memory, options: skipping)
        #expect(report.diagnostics.skippedFeatures.count == 1)
        let skipped = report.diagnostics.entries["geoparquet.invalid-geometry-skipped"]
        #expect(skipped?.first.message.hasSuffix("(--skip-invalid)") == true)
        let back = try OverlayDocument.load(.memory(report.output, name: "back.geojson")).features
        #expect(back.count == 1 && back.first?.properties["n"] == 2)
    }
}
