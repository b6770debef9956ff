import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `--jobs`: rows made on the workers (`GeoParquetRecordsWriter`) and mapped onto the
/// writer's columns give the file and the messages of one thread.
@Suite("GeoParquet with --jobs")
struct GeoParquetJobsTests {
    /// 400 features: columns that appear late and in a different order from run to run (so
    /// that runs number them differently), a styled feature, a nested value, an id beside an
    /// `id` property, integers beyond ±2^53, a column whose kinds mix, features without
    /// geometry, 3D points.
    static var lines: String {
        (0..<400).map { i -> String in
            let x = Double(i % 37) / 10 - 1
            let y = Double(i % 23) / 10
            var properties = [#""n":\#(i)"#]
            if i >= 120 {
                properties.append(i % 2 == 0 ? #""late":"a\#(i)","later":\#(i)"# : #""later":\#(i).5,"late":"b\#(i)""#)
            }
            if i % 50 == 7 { properties.append(#""stroke":"red""#) }
            if i % 90 == 11 { properties.append(#""deep":{"k":[\#(i)]}"#) }
            if i % 70 == 3 { properties.append(#""id":"other""#) }
            if i % 60 == 5 { properties.append(#""wide":\#(9_007_199_254_740_993 + i)"#) }
            if i % 60 == 35 { properties.append(#""wide":0.5"#) }
            properties.append(i % 40 == 9 ? #""mixed":"text""# : #""mixed":\#(i % 7)"#)
            let geometry =
                i % 31 == 4
                ? "null"
                : i % 3 == 0
                    ? #"{"type":"Point","coordinates":[\#(x),\#(y),\#(i)]}"#
                    : #"{"type":"LineString","coordinates":[[\#(x),\#(y)],[\#(x + 0.5),\#(y + 0.25)]]}"#
            return
                #"{"type":"Feature","id":\#(i),"properties":{\#(properties.joined(separator: ","))},"geometry":\#(geometry)}"#
        }.joined(separator: "\n") + "\n"
    }

    static func convert(_ text: String, jobs: Int) throws -> ConversionReport {
        var options = ConversionOptions()
        options.inputFormat = .geoJSONSequence
        options.outputFormat = .geoParquet
        options.jobs = jobs
        options.chunkBytes = 700  // a few features per run: many runs, each numbering its columns
        return try Converter().convert(
            .memory(Array(Self.lines.utf8), name: "in.geojsonl"), to: .memory, options: options)
    }

    @Test("The same bytes, counts and messages, at the same places, as one thread")
    func sameAsOneThread() throws {
        let sequential = try Self.convert(Self.lines, jobs: 1)
        #expect(sequential.statistics.featuresWritten == 400)
        for code in [
            "geoparquet.style-dropped", "geoparquet.nested-value-as-json", "geoparquet.column-renamed",
            "geoparquet.integer-as-double",
            "geoparquet.mixed-types-as-text",
        ] {
            #expect(sequential.diagnostics.entries[code] != nil, "\(code)")
        }
        for jobs in [2, 3, 8] {
            let parallel = try Self.convert(Self.lines, jobs: jobs)
            #expect(parallel.output == sequential.output, "--jobs \(jobs)")
            #expect(parallel.statistics.featuresWritten == 400)
            #expect(Array(parallel.diagnostics.entries.keys) == Array(sequential.diagnostics.entries.keys))
            for (code, entry) in sequential.diagnostics.entries {
                #expect(parallel.diagnostics.entries[code]?.count == entry.count, "\(code), --jobs \(jobs)")
                #expect(
                    parallel.diagnostics.entries[code]?.first.location == entry.first.location,
                    "\(code), --jobs \(jobs)")
            }
        }
    }

    @Test("The file reads back: every feature, the late columns typed across the file")
    func readsBack() throws {
        let report = try Self.convert(Self.lines, jobs: 3)
        var options = ConversionOptions()
        options.inputFormat = .geoParquet
        let back = try OverlayDocument.load(.memory(report.output, name: "out.parquet"), options: options).features
        #expect(back.count == 400)
        #expect(back[130].properties["late"] == "a130" && back[131].properties["late"] == "b131")
        #expect(
            back[130].properties["later"] == .number(JSONNumber(literal: "130")!)
                && back[131].properties["later"] == .number(JSONNumber(literal: "131.5")!))
        #expect(back[0].properties["late"] == .null && back[4].geometry == nil)
        #expect(back[3].geometry == .point(Coordinate(latitude: 0.3, longitude: -0.7, altitude: 3)))
        let columns = try GeoParquetInspection.metadata(report.output).columns
        #expect(
            columns["late"] == "UTF8" && columns["later"] == "DOUBLE" && columns["mixed"] == "UTF8"
                && columns["n"] == "INT64" && columns["id_2"] == "UTF8")
    }
}
