import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

#if Shapefile
/// Shapefiles through the converter and the CLI: a .prj PROJ cannot read, standard input.
@Suite("Shapefile conversions")
struct ShapefileConversionTests {
    @Test(
        "A .prj PROJ cannot read: carried shapefile → shapefile with a warning; to degrees, refused with a hint",
        .enabled(if: BuiltTraits.proj))
    func unreadablePRJ() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoconv-prj-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for part in ["shp", "shx", "dbf"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.testdata("shapefile/roads.\(part)"),
                toPath: directory.appendingPathComponent("r.\(part)").path)
        }
        let prj =
            #"PROJCS["Unknown Projection",GEOGCS["GCS_unknown",DATUM["D_unknown",SPHEROID["unknown",0,0]]],"#
            + #"PROJECTION["No_Such_Projection"],UNIT["Meter",1]]"#
        try prj.write(to: directory.appendingPathComponent("r.prj"), atomically: true, encoding: .utf8)
        let input = directory.appendingPathComponent("r.shp").path
        let out = directory.appendingPathComponent("out.shp").path
        let report = try Converter().convert(.file(input), to: .file(out))
        #expect(report.diagnostics.entries["proj.crs-not-understood"]?.first.isNote == false)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("out.prj").path, encoding: .utf8) == prj)
        let before = try OverlayDocument.load(.file(input)).features
        let after = try OverlayDocument.load(.file(out)).features
        #expect(after.map(\.geometry) == before.map(\.geometry) && !after.isEmpty)
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(.file(input), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
        }
        #expect(error?.hint?.contains("--s-srs") == true, "\(String(describing: error))")
    }

    @Test("A .zip of shapefiles is read from standard input")
    func zippedStandardInput() throws {
        let piped = try CLI.run(
            [
                "-c", "\"$0\" - - --from shapefile --to geojsonseq < \(Fixtures.testdata("shapefile/both.zip"))",
                CLI.executable.path,
            ],
            shell: true)
        #expect(piped.status == 0 && piped.stdout.split(separator: "\n").count == 5, "\(piped.stderr)")
    }

    @Test("A .shp on standard input is refused, saying what to give instead")
    func standardInput() throws {
        let result = try CLI.run(["-", "out.geojson", "--from", "shapefile"], stdin: "not a shapefile")
        #expect(result.status == 64 && result.stderr.contains("give the .shp's path"), "\(result.stderr)")
    }
}
#endif
