import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

@testable import GeoConv

/// `--jobs`: line-delimited inputs cut into chunks parsed in parallel must give exactly the
/// sequential output, with errors and warnings at their true input positions.
@Suite("Parallel conversion (--jobs)")
struct ParallelConversionTests {
    /// 300 features of varied kinds as newline-delimited GeoJSON.
    static var lines: String {
        (0..<300).map { i -> String in
            let x = 150 + Double(i % 37) / 10
            let y = -33 - Double(i % 23) / 10
            switch i % 3 {
            case 0:
                return
                    #"{"type":"Feature","id":\#(i),"properties":{"name":"stop \#(i)","stroke":"red"},"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#
            case 1:
                return
                    #"{"type":"Feature","id":\#(i),"properties":{"n":\#(i)},"geometry":{"type":"LineString","coordinates":[[\#(x),\#(y)],[\#(x + 0.1),\#(y + 0.05)],[\#(x + 0.2),\#(y)]]}}"#
            default:
                return
                    #"{"type":"Feature","id":\#(i),"properties":{},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 0.1),\#(y)],[\#(x + 0.1),\#(y + 0.1)],[\#(x),\#(y)]]]}}"#
            }
        }.joined(separator: "\n") + "\n"
    }

    func convert(
        _ text: String, from: String, to: String, jobs: Int, skipInvalid: Bool = false
    ) throws(GeoConvError) -> ConversionReport {
        var options = ConversionOptions(
            inputFormat: FormatRegistry.standard.format(named: from),
            outputFormat: FormatRegistry.standard.format(named: to), skipInvalid: skipInvalid)
        options.jobs = jobs
        options.chunkBytes = 700  // a few features per chunk: many chunks, many boundaries
        return try Converter().convert(.memory(Array(text.utf8), name: "in"), to: .memory, options: options)
    }

    @Test(
        "Outputs are byte-identical to one thread for every line input and several outputs",
        arguments: ["geojsonseq", "wkt", "wkbhex", "polyline"])
    func identical(input: String) throws {
        let source = try convert(Self.lines, from: "geojsonseq", to: input, jobs: 1)
        let text = String(decoding: source.output, as: UTF8.self)
        #expect(text.count > 5000)
        for output in ["geojsonseq", "geojson", "wkt", "kml", "polyline"] {
            let sequential = try convert(text, from: input, to: output, jobs: 1)
            for jobs in [2, 3, 8] {
                let parallel = try convert(text, from: input, to: output, jobs: jobs)
                #expect(parallel.output == sequential.output, "\(input) → \(output), --jobs \(jobs)")
                #expect(parallel.statistics.featuresRead == sequential.statistics.featuresRead)
                #expect(parallel.statistics.featuresWritten == sequential.statistics.featuresWritten)
                #expect(Array(parallel.diagnostics.entries.keys) == Array(sequential.diagnostics.entries.keys))
            }
        }
    }

    @Test(
        "Records written by the workers report the writer's losses as one writer does",
        arguments: ["geojson", "geojsonseq"])
    func writerWarningsInWorkers(output: String) throws {
        // Every fifth feature a circle (a Point with geoconv:radius), which GeoJSON writes as its centre with a warning.
        let text =
            (0..<200).map { i in
                #"{"type":"Feature","properties":{"n":\#(i)\#(i % 5 == 0 ? #","geoconv:radius":25"# : "")},"geometry":{"type":"Point","coordinates":[\#(Double(i) / 10),1]}}"#
            }.joined(separator: "\n") + "\n"
        let sequential = try convert(text, from: "geojsonseq", to: output, jobs: 1)
        #expect(sequential.diagnostics.entries["geojson.circle-as-point"]?.count == 40)
        for jobs in [2, 4] {
            let parallel = try convert(text, from: "geojsonseq", to: output, jobs: jobs)
            #expect(parallel.output == sequential.output)
            #expect(parallel.diagnostics.entries["geojson.circle-as-point"]?.count == 40)
            #expect(parallel.statistics.featuresWritten == 200)
        }
    }

    @Test("RS-delimited records spanning lines are cut only at RS")
    func recordSeparated() throws {
        let pretty = Self.lines.split(separator: "\n").map {
            "\u{1E}" + $0.replacingOccurrences(of: ",\"geometry\"", with: ",\n  \"geometry\"") + "\n"
        }.joined()
        let sequential = try convert(pretty, from: "geojsonseq", to: "geojsonseq", jobs: 1)
        let parallel = try convert(pretty, from: "geojsonseq", to: "geojsonseq", jobs: 2)
        #expect(sequential.statistics.featuresRead == 300)
        #expect(parallel.output == sequential.output)
    }

    @Test("Errors and skipped records keep their line, column, byte offset and record pointer")
    func positions() throws {
        var lines = Self.lines.split(separator: "\n").map(String.init)
        lines[250] = lines[250].replacingOccurrences(of: "\"coordinates\":[", with: "\"coordinates\":[\"x\",")
        lines[280] = lines[280].replacingOccurrences(of: "\"properties\":{", with: "\"properties\":[],\"p\":{")
        let text = lines.joined(separator: "\n") + "\n"
        var failures: [GeoConvError] = []
        for jobs in [1, 2] {
            do throws(GeoConvError) {
                _ = try convert(text, from: "geojsonseq", to: "geojson", jobs: jobs)
                Issue.record("converted despite the bad record")
            } catch {
                failures.append(error)
            }
        }
        #expect(failures.count == 2)
        #expect(failures[0].location?.line == 251)
        #expect(failures[0].location?.pointer?.hasPrefix("/250/geometry/coordinates") == true)
        #expect(failures[1].location == failures[0].location)
        #expect(failures[1].message == failures[0].message)

        let sequential = try convert(text, from: "geojsonseq", to: "geojsonseq", jobs: 1, skipInvalid: true)
        let parallel = try convert(text, from: "geojsonseq", to: "geojsonseq", jobs: 2, skipInvalid: true)
        #expect(parallel.output == sequential.output)
        #expect(sequential.statistics.featuresWritten == 299)
        for code in ["geojson.invalid-feature-skipped", "geojson.properties-not-object"] {
            let a = try #require(sequential.diagnostics.entries[code])
            let b = try #require(parallel.diagnostics.entries[code])
            #expect(a.first.location == b.first.location, "\(code)")
            #expect(a.count == b.count)
        }
        #expect(parallel.diagnostics.entries["geojson.properties-not-object"]?.first.location?.line == 281)
        #expect(parallel.diagnostics.entries["geojson.properties-not-object"]?.first.location?.pointer == "/280")
    }

    @Test("geoconv --jobs on the command line: same bytes, bad values refused")
    func cli() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.geojsons")
        try Self.lines.split(separator: "\n").map { "\u{1E}" + $0 + "\n" }.joined().write(
            to: input, atomically: false, encoding: .utf8)
        var outputs: [Data] = []
        for jobs in ["1", "2"] {
            let output = directory.appendingPathComponent("out\(jobs).geojsons")
            let result = try CLI.run(["convert", input.path, output.path, "--jobs", jobs])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)  // not a terminal: no progress bar
            outputs.append(try Data(contentsOf: output))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].first == 0x1E)
        let refused = try CLI.run([input.path, directory.appendingPathComponent("x.wkt").path, "--jobs", "0"])
        #expect(refused.status == 64)
    }

    @Test("--skip-invalid lists every skipped feature with its position, in input order, whatever --jobs")
    func everySkipListed() throws {
        var lines = Self.lines.split(separator: "\n").map(String.init)
        for index in [10, 120, 121, 299] {
            lines[index] = lines[index].replacingOccurrences(of: "\"coordinates\":[", with: "\"coordinates\":[\"x\",")
        }
        let text = lines.joined(separator: "\n") + "\n"
        for jobs in [1, 2, 4] {
            let report = try convert(text, from: "geojsonseq", to: "wkt", jobs: jobs, skipInvalid: true)
            #expect(report.statistics.featuresWritten == 296)
            #expect(report.diagnostics.entries["geojson.invalid-feature-skipped"]?.count == 4)
            #expect(
                report.diagnostics.skippedFeatures.map { $0.location?.line } == [11, 121, 122, 300], "--jobs \(jobs)")
            #expect(
                report.diagnostics.skippedFeatures.map {
                    $0.location?.pointer?.split(separator: "/").first.map(String.init)
                }
                    == ["10", "120", "121", "299"])
        }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.geojsonl")
        try text.write(to: input, atomically: false, encoding: .utf8)
        let result = try CLI.run([input.path, directory.appendingPathComponent("out.wkt").path, "--skip-invalid"])
        #expect(result.status == 0)
        let listed = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("  ") && $0.contains("skipped an invalid feature")
        }
        #expect(listed.count == 4)
        #expect(listed.last?.contains("in.geojsonl:300:") == true)
    }

    @Test("EWKT with an SRID is reprojected the same with any --jobs")
    func ewktWithSRID() throws {
        let text =
            (0..<200).map {
                "SRID=3857;POINT (\(16_800_000 + $0 * 100) -4_000_000)".replacingOccurrences(of: "_", with: "")
            }
            .joined(separator: "\n") + "\n"
        let sequential = try convert(text, from: "wkt", to: "geojsonseq", jobs: 1)
        let parallel = try convert(text, from: "wkt", to: "geojsonseq", jobs: 2)
        #expect(parallel.output == sequential.output)
        let first = String(decoding: sequential.output.prefix(200), as: UTF8.self)
        #expect(first.contains("[150.9"), "\(first)")  // 16,800,000 m east in Web Mercator ≈ 150.92°E
        #expect(FileFormat.wkt.capabilities.lineRecords?.declaresCRS(Array("  srid=4326;POINT(1 2)".utf8)) == true)
        #expect(FileFormat.wkt.capabilities.lineRecords?.declaresCRS(Array("POINT(1 2)".utf8)) == false)
        #expect(FileFormat.wkbHex.capabilities.lineRecords?.declaresCRS(Array("0101000020E6100000".utf8)) == true)
        #expect(FileFormat.wkbHex.capabilities.lineRecords?.declaresCRS(Array("0101000000000000".utf8)) == false)
    }

    @Test(
        "A line whose SRID differs from the file's first line is skipped by every chunk, as by one thread",
        arguments: [
            ("wkt", "SRID=3857;POINT(1 2)", "POINT(1 2)"),
            (
                "wkbhex", "0101000020110F0000000000000000F03F0000000000000040",
                "0101000000000000000000F03F0000000000000040"
            ),
        ])
    func sridAgainstFirstLine(format: String, withSRID: String, plain: String) throws {
        // Many chunks, an invalid first line, then 60 lines without an SRID and 60 with one:
        // chunks of the second half start with a line that declares an SRID.
        let lines = ["GARBAGE"] + Array(repeating: plain, count: 60) + Array(repeating: withSRID, count: 60)
        let text = lines.joined(separator: "\n") + "\n"
        for jobs in [1, 2, 4] {
            let report = try convert(text, from: format, to: "geojsonseq", jobs: jobs, skipInvalid: true)
            #expect(report.statistics.featuresRead == 60, "--jobs \(jobs)")
            let skipped = report.diagnostics.skippedFeatures
            #expect(skipped.map { $0.location?.line } == [1] + Array(62...121), "--jobs \(jobs)")
            #expect(
                skipped.dropFirst().allSatisfy {
                    $0.message.contains("this line's SRID (3857) differs from the file's (none)")
                })
        }
        // Without --skip-invalid the first such line stops the conversion, at that line.
        let error = #expect(throws: GeoConvError.self) {
            try self.convert(
                text.split(separator: "\n").dropFirst().joined(separator: "\n"), from: format, to: "geojsonseq", jobs: 2
            )
        }
        #expect(error?.code == .unsupported)
        #expect(error?.location?.line == 61)
        // A skipped first line that declares an SRID leaves the next line to decide (one thread: input starting with an SRID is not cut).
        let declared = try convert(
            withSRID.dropLast() + "\n" + withSRID + "\n" + withSRID + "\n", from: format, to: "geojsonseq", jobs: 2,
            skipInvalid: true)
        #expect(declared.statistics.featuresRead == 2)
        #expect(FileFormat.wkt.capabilities.lineRecords?.declaresCRS(Array("\n\n  srid=3857;POINT(1 2)".utf8)) == true)
    }

    @Test(
        "A byte order mark starts the file, not its first record: skipped there, refused elsewhere, with any --jobs",
        arguments: ["wkt", "wkbhex", "geojsonseq"])
    func byteOrderMark(format: String) throws {
        let source = try convert(
            (0..<80).map { "POINT(\($0) 1)" }.joined(separator: "\n"), from: "wkt", to: format, jobs: 1)
        var lines = String(decoding: source.output, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[50] = "\u{FEFF}" + lines[50]  // a mark inside the file is not skipped
        let text = "\u{FEFF}" + lines.joined(separator: "\n") + "\n"
        for jobs in [1, 2, 4] {
            let report = try convert(text, from: format, to: "wkt", jobs: jobs, skipInvalid: true)
            let output = String(decoding: report.output, as: UTF8.self).split(separator: "\n")
            #expect(output.count == 79, "--jobs \(jobs)")
            #expect(output.first == "POINT (0 1)")
            #expect(report.diagnostics.skippedFeatures.map { $0.location?.line } == [51], "--jobs \(jobs)")
        }
        // An error on the first line: columns count from after the mark (as editors show
        // them), byte offsets from the file's start; the same with any --jobs.
        let broken = "\u{FEFF}" + "X" + lines[1] + "\n" + lines[2...].joined(separator: "\n")
        let plain = try #require(
            #expect(throws: GeoConvError.self) {
                try self.convert(String(broken.dropFirst()), from: format, to: "wkt", jobs: 1)
            })
        for jobs in [1, 2] {
            let error = #expect(throws: GeoConvError.self) {
                try self.convert(broken, from: format, to: "wkt", jobs: jobs)
            }
            #expect(error?.location?.line == 1)
            #expect(error?.location?.column == plain.location?.column, "--jobs \(jobs): \(String(describing: error))")
            #expect(error?.location?.byteOffset == (plain.location?.byteOffset).map { $0 + 3 })
        }
    }

    @Test(
        "The input's first byte decides a text sequence's delimiter: an RS inside a newline-delimited one is skipped, with any --jobs"
    )
    func recordSeparatorInsideNewlineSequence() throws {
        // Newline-delimited; line 41 starts with an RS, line 60 is a bad record whose skip
        // must stop at its line's end (not run on to a next RS: there is none).
        var lines = (0..<100).map(Self.pointRecord)
        lines[40] = "\u{1E}" + lines[40]
        lines[59] = "{\"type\":\"Feature\",\"geometry\":nul}"
        let text = lines.joined(separator: "\n") + "\n"
        let reports = try skippingAtEveryJobs(text)
        for (jobs, report) in reports {
            #expect(report.statistics.featuresRead == 99, "--jobs \(jobs)")
            #expect(report.diagnostics.skippedFeatures.map { $0.location?.line } == [60], "--jobs \(jobs)")
        }
        #expect(String(decoding: reports[0].report.output, as: UTF8.self).split(separator: "\n")[40] == "POINT (40 1)")
        // Starting with an RS (after blank lines), it is RFC 8142's: a record may span lines.
        let sequence =
            "\n\u{1E}" + Self.pointRecord(1) + "\n\u{1E}"
            + Self.pointRecord(2).replacingOccurrences(of: ",\"geometry\"", with: ",\n\"geometry\"") + "\n"
        for jobs in [1, 2] {
            let report = try convert(sequence, from: "geojsonseq", to: "wkt", jobs: jobs)
            #expect(String(decoding: report.output, as: UTF8.self) == "POINT (1 1)\nPOINT (2 1)\n", "--jobs \(jobs)")
        }
    }

    @Test("A newline-delimited record whose value runs on past its line is skipped at its line, with any --jobs")
    func valueRunningPastItsLine() throws {
        var lines = (0..<60).map(Self.pointRecord)
        // "coordinates" before "type": its value is stepped over first, and here it never
        // closes on its line; the brackets the next line closes must not make it one record.
        lines[20] = "{\"type\":\"Feature\",\"geometry\":{\"coordinates\":[[1,2],[3,\"x\":{"
        lines[21] = "}]],\"type\":\"LineString\"},\"properties\":{}}"
        let text = lines.joined(separator: "\n") + "\n"
        for (jobs, report) in try skippingAtEveryJobs(text) {
            #expect(report.statistics.featuresRead == 58, "--jobs \(jobs)")
            let skipped = report.diagnostics.skippedFeatures
            #expect(skipped.map { $0.location?.line } == [21, 22], "--jobs \(jobs)")
            #expect(
                skipped.first?.message.contains("continues on the next line") == true, "\(skipped.first?.message ?? "")"
            )
        }
    }

    /// A one-line GeoJSONSeq record: a Point at (n, 1) with the property n.
    static func pointRecord(_ n: Int) -> String {
        "{\"type\":\"Feature\",\"properties\":{\"n\":\(n)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(n),1]}}"
    }

    /// `text` (GeoJSONSeq) converted to WKT with bad records skipped, with `--jobs` 1, 2 and
    /// 4; expects the three outputs to be the same.
    func skippingAtEveryJobs(_ text: String) throws -> [(jobs: Int, report: ConversionReport)] {
        let reports = try [1, 2, 4].map { jobs in
            (jobs, try convert(text, from: "geojsonseq", to: "wkt", jobs: jobs, skipInvalid: true))
        }
        #expect(reports.allSatisfy { $0.1.output == reports[0].1.output })
        return reports
    }
}
