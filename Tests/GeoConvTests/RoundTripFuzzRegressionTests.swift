import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

/// Inputs FuzzRoundTrip (Fuzz/Sources/FuzzRoundTrip) found: geoconv writing a file it cannot
/// read back, or `--jobs` reading an input differently from one thread. The inputs are kept
/// in testdata/fuzz/roundtrip/ (their first byte is the fuzz target's format selector, the
/// document follows).
@Suite("Round-trip fuzz regressions")
struct RoundTripFuzzRegressionTests {
    /// A seed's document: the file without its selector byte.
    static func document(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("fuzz/roundtrip/" + name))).dropFirst())
    }

    @Test("A position whose step exceeds the ±360° the polyline decoder accepts is refused, never written unreadable")
    func polylineOutOfRangeStep() throws {
        let input = try Self.document("regression-polyline-out-of-range-step")  // POINT(554 3)
        #expect(input == Array("POINT(554 3)\n".utf8))
        let report: ConversionReport
        do throws(GeoConvError) {
            report = try Converter().convert(
                .memory(input, name: "in.wkt"), to: .memory,
                options: ConversionOptions(inputFormat: .wkt, outputFormat: .encodedPolyline))
        } catch {
            #expect(error.code == .invalidInput, "\(error)")
            #expect(error.message.contains("554"), "\(error.message)")
            return
        }
        // Written: then geoconv must read it back.
        do throws(GeoConvError) {
            let back = try Converter().convert(
                .memory(report.output, name: "out.polyline"), to: .memory,
                options: ConversionOptions(inputFormat: .encodedPolyline, outputFormat: .wkt))
            #expect(back.statistics.featuresRead == 1)
        } catch {
            Issue.record(
                "geoconv cannot read back the polyline it wrote (\(String(decoding: report.output, as: UTF8.self))): \(error)"
            )
        }
    }

    @Test("A feature with nothing for a one-column CSV is written as \"\" and read back, not left as a blank line")
    func csvEmptyRow() throws {
        let input = try Self.document("regression-csv-empty-row")  // a featureless-geometry feature among circles
        let report = try Converter().convert(
            .memory(input, name: "in.geojson"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .csv))
        let back = try Converter().convert(
            .memory(report.output, name: "out.csv"), to: .memory,
            options: ConversionOptions(inputFormat: .csv, outputFormat: .geoJSON))
        #expect(report.statistics.featuresWritten == 3)
        #expect(back.statistics.featuresRead == report.statistics.featuresWritten)
    }

    @Test("--jobs 2 reads a CSV whose last byte closes a quoted field as one thread reads it")
    func csvLastQuote() throws {
        let input = try Self.document("regression-csv-last-quote-jobs2")
        #expect(input.last == UInt8(ascii: "\""))
        var outputs: [[UInt8]] = []
        var messages: [[String]] = []
        for jobs in [1, 2] {
            var options = ConversionOptions(inputFormat: .csv, outputFormat: .geoJSON)
            options.jobs = jobs
            options.chunkBytes = 64  // (the fuzz target's: runs of a record or two)
            let report = try Converter().convert(.memory(input, name: "in.csv"), to: .memory, options: options)
            outputs.append(report.output)
            messages.append(report.diagnostics.summary)
        }
        #expect(outputs[0] == outputs[1])
        #expect(messages[0] == messages[1])
        // (23 lines: quoted fields span some.)
        #expect(try OverlayDocument.load(.memory(outputs[1], name: "out.geojson")).features.count == 20)
    }

    @Test("With no geometry to write, a .wkb is refused rather than left as an empty file geoconv cannot read")
    func wkbWithoutGeometry() throws {
        let input = try Self.document("regression-wkb-no-geometry")  // an empty FeatureCollection
        let report: ConversionReport
        do throws(GeoConvError) {
            report = try Converter().convert(
                .memory(input, name: "in.geojson"), to: .memory,
                options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .wkb))
        } catch {
            #expect(error.code == .unsupported, "\(error)")
            return
        }
        do throws(GeoConvError) {
            _ = try Converter().convert(
                .memory(report.output, name: "out.wkb"), to: .memory,
                options: ConversionOptions(inputFormat: .wkb, outputFormat: .wkt))
        } catch {
            Issue.record("geoconv cannot read back the \(report.output.count)-byte .wkb it wrote: \(error)")
        }
    }

    @Test(
        "A newline-delimited GeoJSON text sequence record spanning lines reads the same with --jobs 2 as with one thread",
        arguments: [false, true])
    func sequenceRecordSpanningLines(skipInvalid: Bool) throws {
        let input = try Self.document("regression-geojsonseq-record-spans-lines-jobs2")
        func convert(jobs: Int) -> Result<ConversionReport, GeoConvError> {
            var options = ConversionOptions(
                inputFormat: .geoJSONSequence, outputFormat: .geoJSONSequence, skipInvalid: skipInvalid)
            options.jobs = jobs
            options.chunkBytes = 64  // cuts the input between the record's two lines
            do throws(GeoConvError) {
                return .success(
                    try Converter().convert(.memory(input, name: "in.geojsonl"), to: .memory, options: options))
            } catch {
                return .failure(error)
            }
        }
        switch (convert(jobs: 1), convert(jobs: 2)) {
        case (.success(let one), .success(let two)):
            #expect(two.statistics.featuresRead == one.statistics.featuresRead)
            #expect(two.output == one.output)
            #expect(Array(two.diagnostics.entries.keys) == Array(one.diagnostics.entries.keys))
        case (.failure(let one), .failure(let two)):
            #expect(two.code == one.code)
            #expect(two.message == one.message)
            #expect(two.location == one.location)
        case (.success(let one), .failure(let two)):
            Issue.record("one thread read \(one.statistics.featuresRead) features; --jobs 2 failed: \(two)")
        case (.failure(let one), .success(let two)):
            Issue.record("--jobs 2 read \(two.statistics.featuresRead) features; one thread failed: \(one)")
        }
    }
}
