import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// Formats declare their options (issue 45, item 3): GDAL's `--oo NAME=VALUE` for the reader
/// and `--co NAME=VALUE` for the writer, checked against what the format declares, and
/// `geoconv formats` lists them. The first use: a `.polyline6` path re-encoded at 5 digits,
/// where `--polyline-precision` set both sides (the Spark helper's finding).
@Suite("Format options: --oo and --co (runs the built binary)")
struct FormatOptionCLITests {
    @Test("--oo and --co give the reader and the writer their own precision; the long flag gives both")
    func precisionApart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-oo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // (38.5, -120.2) at 6 digits; read at 6, it is (38.5, -120.2), written at 5 it is "_p~iF~ps|U".
        let input = folder.appendingPathComponent("in.txt").path
        try "_izlhA~rlgdF\n".write(toFile: input, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.polyline").path
        let apart = try CLI.run([
            "convert", input, output, "--from", "polyline", "--oo", "precision=6",
            "--co", "PRECISION=5", "--quiet",
        ])
        #expect(apart.status == 0, "\(apart.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "_p~iF~ps|U\n")
        // The long flag gives both sides; --co then says otherwise for the writer only.
        let both = try CLI.run(["convert", input, output, "--from", "polyline", "--polyline-precision", "6", "--quiet"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "_izlhA~rlgdF\n")
        let over = try CLI.run([
            "convert", input, output, "--from", "polyline", "--polyline-precision", "6",
            "--co", "PRECISION=5", "--quiet",
        ])
        #expect(over.status == 0, "\(over.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "_p~iF~ps|U\n")
        // GDAL's own spellings, one dash: -oo, and -co, -lco or -dsco for the writer.
        let gdal = try CLI.run([
            "convert", input, output, "--from", "polyline", "-oo", "PRECISION=6",
            "-lco", "PRECISION=5", "--quiet",
        ])
        #expect(gdal.status == 0, "\(gdal.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "_p~iF~ps|U\n")
    }

    @Test("An undeclared name, a name for the other side, a value of another type: usage errors listing what it takes")
    func refusals() throws {
        let input = Fixtures.testdata("polyline/sydney.polyline")
        let unknown = try CLI.run(["convert", input, "-", "--to", "geojson", "--co", "PRECISION=5"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("geojson has no creation option PRECISION"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("PRETTY=<YES/NO>"), "\(unknown.stderr)")
        let wrongSide = try CLI.run(["convert", input, "-", "--to", "geojson", "--oo", "PRETTY=YES"])
        #expect(wrongSide.status == 64)
        #expect(wrongSide.stderr.contains("polyline has no open option PRETTY"), "\(wrongSide.stderr)")
        let badValue = try CLI.run(["convert", input, "-", "--to", "geojson", "--co", "PRETTY=maybe"])
        #expect(badValue.status == 64)
        #expect(badValue.stderr.contains("PRETTY takes YES/NO values, not 'maybe'"), "\(badValue.stderr)")
        let pretty = try CLI.run(["convert", input, "-", "--to", "geojson", "--co", "pretty=yes", "--quiet"])
        #expect(pretty.status == 0)
        #expect(pretty.stdout.contains("\n  \"features\": ["), "\(pretty.stdout.prefix(200))")
    }

    @Test("--co SRID=N is --srid N: the target CRS, reprojected and written as EWKT")
    func sridAsCreationOption() throws {
        let input = Fixtures.testdata("polyline/sydney.polyline")
        let flag = try CLI.run(["convert", input, "-", "--to", "wkt", "--srid", "3857", "--quiet"])
        let option = try CLI.run(["convert", input, "-", "--to", "wkt", "--co", "SRID=3857", "--quiet"])
        #expect(flag.status == 0 && option.status == 0, "\(option.stderr)")
        #expect(option.stdout.hasPrefix("SRID=3857;"), "\(option.stdout.prefix(80))")
        #expect(option.stdout == flag.stdout)
    }

    @Test("geoconv formats lists each format's options under it, with their sides and long flags")
    func listed() throws {
        let formats = try CLI.run(["formats"])
        #expect(formats.status == 0)
        let lines = formats.stdout.split(separator: "\n").map(String.init)
        let polyline = try #require(lines.firstIndex { $0.hasPrefix("polyline\t") })
        #expect(lines[polyline + 1].hasPrefix("  PRECISION=<integer>  --oo --co  --polyline-precision: "))
        let csv = try #require(lines.firstIndex { $0.hasPrefix("csv\t") })
        let csvOptions = lines[(csv + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(csvOptions.contains { $0.hasPrefix("  SEPARATOR=<text>  --oo --co") })
        // Then what the format holds, from its capabilities.
        #expect(lines.contains("  holds: WGS84 only; header: none; --jobs: cuts lines, writes records on workers"))
        let geojson = try #require(lines.firstIndex { $0.hasPrefix("geojson\t") })
        let geojsonHolds = lines[(geojson + 1)...].first { $0.hasPrefix("  holds: ") }
        #expect(geojsonHolds?.contains("circles; header: name, description, view, tile layers, every member") == true)
        // Every format line still has its four tab-separated fields (scripts read them).
        #expect(lines.filter { !$0.hasPrefix(" ") }.allSatisfy { $0.split(separator: "\t").count == 4 })
    }

    @Test("Every long flag a format declares is a flag of convert, listed in its help, with no flag in the CLI's code")
    func longFlagsFromTheRegistry() throws {
        let help = try CLI.run(["convert", "--help"])
        let declared = FormatRegistry.standard.formats.flatMap(\.options)
        #expect(declared.count >= 15)
        for option in declared {
            #expect(help.stdout.contains("  --\(option.name)"), "--\(option.name) is not in convert's help")
        }
        // No format's flag is spelled in the CLI's sources: they come from the registry.
        let sources = Fixtures.root.appendingPathComponent("Sources/GeoConvCLI")
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for option in declared {
                #expect(!text.contains("\"\(option.name)\""), "\(file) spells --\(option.name)")
            }
        }
    }

    @Test("A long flag takes its value as the next argument or after '=', and a YES/NO option none")
    func longFlagSpellings() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in.csv").path
        try "id,lng,lt\n1,2.5,3.5\n".write(toFile: input, atomically: true, encoding: .utf8)
        let expected = #"{"type":"Feature","properties":{"id":1},"geometry":{"type":"Point","coordinates":[2.5,3.5]}}"#
        for spelling in [["--csv-lon", "lng", "--csv-lat", "lt"], ["--csv-lon=lng", "--csv-lat=lt"]] {
            let run = try CLI.run(["convert", input, "-", "--to", "geojsonseq", "--quiet"] + spelling)
            #expect(run.status == 0, "\(spelling): \(run.stderr)")
            #expect(run.stdout == expected + "\n", "\(spelling): \(run.stdout)")
        }
        let pretty = try CLI.run([
            "convert", input, "-", "--to", "geojson", "--csv-lon", "lng", "--csv-lat", "lt", "--pretty",
        ])
        #expect(pretty.stdout.hasPrefix("{\n  \"type\": \"FeatureCollection\""), "\(pretty.stdout.prefix(80))")
        let missing = try CLI.run(["convert", input, "-", "--to", "geojson", "--csv-lon"])
        #expect(missing.status == 64 && missing.stderr.contains("--csv-lon needs a value"), "\(missing.stderr)")
    }

    @Test("A writer's flag on a command that writes no file, a value outside what the option takes: usage errors")
    func longFlagRefusals() throws {
        let input = Fixtures.testdata("polyline/sydney.polyline")
        let info = try CLI.run(["info", input, "--pretty"])
        #expect(info.status == 64, "\(info.stderr)")
        #expect(info.stderr.contains("--pretty is an option of writing geojson; this command writes no file"))
        // The option's own bounds hold for the long flag and for --oo/--co alike.
        let flag = try CLI.run(["convert", input, "-", "--to", "geojson", "--arc-step", "100"])
        #expect(flag.status == 64 && flag.stderr.contains("--arc-step takes within (0, 90] degrees, not '100'"))
        let rows = try CLI.run(["convert", input, "out.parquet", "--co", "ROW_GROUP_SIZE=0"])
        #expect(rows.status == 64 && rows.stderr.contains("ROW_GROUP_SIZE takes a positive integer, not '0'"))
        // A command that reads no file names the flag as typed, not the option it became.
        let formats = try CLI.run(["formats", "--pretty"])
        #expect(formats.status == 64 && formats.stderr.contains("Unknown option '--pretty'"), "\(formats.stderr)")
        // A reader's flag is taken by every command that reads a file.
        let measure = try CLI.run(["measure", input, "--polyline-precision", "5"])
        #expect(measure.status == 0, "\(measure.stderr)")
    }
}
