import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// FlatGeobuf through the CLI: `--bbox` answered through the file's spatial index, held to
/// the same selection made without it (every feature through GeoJSONSeq, then `--bbox`) and
/// to GDAL's `-spat`.
@Suite("FlatGeobuf conversions")
struct FlatGeobufConversionTests {
    static let countries = Fixtures.shared.appendingPathComponent("realworld/fgb/flatgeobuf/countries.fgb").path

    /// The names `geoconv` writes for `countries.fgb` within `box`, read through the index or
    /// without it (every feature written as GeoJSONSeq, which the box then selects from), and
    /// what it said.
    static func names(box: String, throughIndex: Bool) throws -> (names: [String], stderr: String) {
        let command =
            throughIndex
            ? "\"$0\" \(countries) - --to geojsonseq --bbox=\(box)"
            : "\"$0\" \(countries) - --to geojsonseq 2>/dev/null | \"$0\" - - --from geojsonseq --bbox=\(box)"
        let result = try CLI.run(["-c", command, CLI.executable.path], shell: true)
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""name":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        return (names, result.stderr)
    }

    @Test(
        "--bbox through the index: the features read without it, fewer read (across the antimeridian too)",
        arguments: ["5,45,15,55", "-80,-60,-30,15", "170,-50,-170,10"])
    func bboxThroughIndex(box: String) throws {
        let indexed = try Self.names(box: box, throughIndex: true)
        let streamed = try Self.names(box: box, throughIndex: false)
        #expect(!indexed.names.isEmpty)
        #expect(indexed.names == streamed.names)
        #expect(indexed.stderr.contains("[flatgeobuf.index-used]"))
        #expect(!streamed.stderr.contains("[flatgeobuf.index-used]"))
        // The index's candidates: at least the features kept, far fewer than the 179.
        let found = indexed.stderr.split(separator: " ").drop { $0 != "found" }.dropFirst().first.flatMap { Int($0) }
        #expect(found.map { $0 >= indexed.names.count && $0 < 179 } == true, "\(indexed.stderr)")
    }

    @Test("--bbox through the index keeps the features GDAL's -spat keeps", .enabled(if: Tools.ogr2ogr != nil))
    func bboxAsGDAL() throws {
        let ours = try Self.names(box: "5,45,15,55", throughIndex: true).names
        let gdal = try CLI.run(
            [
                "-c", "\"$0\" -f GeoJSONSeq /vsistdout/ \"$1\" -spat 5 45 15 55", Tools.ogr2ogr ?? "ogr2ogr",
                Self.countries,
            ], shell: true)
        let theirs = gdal.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""name": ""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(ours.sorted() == theirs.sorted() && ours.count > 5, "\(gdal.stderr)")
    }
}
