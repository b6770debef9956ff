import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

/// Inputs the fuzzers (Fuzz/, scripts/fuzz) found that hung or crashed, kept in the seed
/// corpora so every fuzz run starts from them, and checked here on every test run.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test("A polygon crossing the antimeridian with a longitude of 1e300 is cut without looping forever")
    func antimeridianHugeLongitude() throws {
        let path = Fixtures.testdata("fuzz/wkb/regression-antimeridian-huge-longitude.wkb")
        let report = try Converter().convert(
            .file(path), to: .memory, options: ConversionOptions(inputFormat: .wkb, outputFormat: .geoJSON))
        #expect(report.statistics.featuresWritten == 1)
        #expect(report.diagnostics.entries["coordinate.out-of-range"] != nil)
        let text = String(decoding: report.output, as: UTF8.self)
        #expect(
            text.contains(#""type":"Polygon","coordinates":[[[0,0],[-294848,"#)
                || text.contains(#""type":"MultiPolygon""#))
    }

    @Test("A WKB CircularString whose circle overflows is drawn straight, never a crash (found by FuzzWKB)")
    func circularStringOverflow() throws {
        let path = Fixtures.testdata("fuzz/wkb/regression-circularstring-overflow.wkb")
        #expect {
            _ = try Converter().convert(.file(path), to: .memory, options: ConversionOptions(outputFormat: .wkt))
        } throws: { error in
            (error as? GeoConvError)?.code == .invalidInput && (error as? GeoConvError)?.location?.byteOffset == 57
        }
        let geometry = try WKTParser.parse("CIRCULARSTRING (0 0, 1e308 1e308, -1e308 1e308)").geometry
        var finite = true
        geometry.forEachCoordinate { finite = finite && $0.latitude.isFinite && $0.longitude.isFinite }
        #expect(finite && geometry.kind == .lineString)
    }

    @Test("Markup that is neither a comment nor CDATA inside a Placemark stops KML run cutting instead of hanging")
    func kmlRunCutOffByBadMarkup() throws {
        let path = Fixtures.testdata("fuzz/kml/regression-run-cut-off-by-bad-markup.kml")
        var errors: [GeoConvError] = []
        for jobs in [1, 2] {
            var options = ConversionOptions(inputFormat: .kml, outputFormat: .geoJSON)
            options.jobs = jobs
            do throws(GeoConvError) {
                _ = try Converter().convert(.file(path), to: .memory, options: options)
                Issue.record("the malformed KML converted with --jobs \(jobs)")
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.count == 2)
        #expect(errors.first?.code == .invalidInput)
        #expect(errors.first?.location?.line == 20 && errors.first?.location?.column == 1)
        #expect(errors.last?.message == errors.first?.message && errors.last?.location == errors.first?.location)
    }

    @Test("A deflate stream that does not end within its KMZ entry is refused, not read forever")
    func endlessDeflate() throws {
        let path = Fixtures.testdata("fuzz/kmz/regression-endless-deflate.kmz")
        do throws(GeoConvError) {
            _ = try Converter().convert(.file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
            Issue.record("the damaged KMZ converted")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.message.contains("declares 3130"))
        }
    }

    @Test("Validation of the damaged KMZ reports the same error instead of hanging")
    func endlessDeflateValidation() throws {
        let report = try Converter().validate(.file(Fixtures.testdata("fuzz/kmz/regression-endless-deflate.kmz")))
        #expect(!report.isValid)
        #expect(report.problems.first?.message.contains("damaged archive") == true, "\(report.problems)")
    }

    @Test("A central directory shorter than its own entry is refused as damaged, not handed to ZIPFoundation")
    func shortCentralDirectory() throws {
        let path = Fixtures.testdata("fuzz/kmz/regression-short-central-directory.kmz")
        do throws(GeoConvError) {
            _ = try Converter().convert(.file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
            Issue.record("the damaged KMZ converted")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message == "the zip structure is damaged: a file name runs past the central directory")
        }
    }

    @Test(
        "An archive claiming ZIP64 sizes is refused as unsupported instead of going to ZIPFoundation's unbounded loops")
    func zip64Refused() throws {
        let path = Fixtures.testdata("fuzz/kmz/regression-zip64-fallback.kmz")
        do throws(GeoConvError) {
            _ = try Converter().convert(.file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
            Issue.record("the ZIP64 KMZ converted")
        } catch {
            #expect(error.code == .unsupported, "\(error.message)")
            #expect(error.message.contains("ZIP64"))
        }
    }
}
