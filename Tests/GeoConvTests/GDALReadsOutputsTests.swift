import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// GDAL reads what geoconv writes (issue 43, item 3, the second half): every corpus file GDAL
/// reads, written by each writer whose format GDAL 3.6 reads here (GeoJSON, GeoJSON text
/// sequences, KML, GPX, CSV, Shapefile), is read back by GDAL and by geoconv and the two
/// readings compared by address as the differential check compares them
/// (`GDALDifferentialTests.differences`), under the same documented rules
/// (`testdata/differential/rules.tsv`). With `CrossFormatTests` (geoconv's reading of the output
/// is its reading of the input, or a warning says what changed) this holds GDAL's reading of
/// every output to geoconv's reading of the input.
@Suite(
    "GDAL reads geoconv's outputs",
    .enabled(if: GDALFileReading.python != nil && BuiltTraits.proj && BuiltTraits.shapefile))
struct GDALReadsOutputsTests {
    /// The writers, with the extension GDAL opens their output by and the driver it reads
    /// them with (it may take a one-feature GeoJSON sequence for GeoJSON).
    static let writers: [(format: FileFormat, extension: String, driver: String)] =
        FormatRegistry.standard.formats.compactMap { format in
            guard format.makeWriter != nil, let gdal = format.capabilities.gdalReading else { return nil }
            return (format, gdal.fileExtension, gdal.driver)
        }

    /// The known differences of GDAL's reading of geoconv's outputs from geoconv's, each with
    /// its reason in docs/differential.md (the rules of the corpus check's table, for outputs).
    static let rulesFile = "differential/output-rules.tsv"

    /// Input files up to this size (the dozen larger ones, up to 16 MB, would add minutes; the
    /// corpus check reads them).
    static let largestFile = 1 << 20

    @Test(
        "Each corpus file through each writer GDAL reads: GDAL's reading of the output as geoconv's, or documented",
        arguments: writers.map(\.format.name))
    func outputs(_ name: String) throws {
        let (format, ext, driver) = try #require(Self.writers.first { $0.format.name == name })
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outputs: [(path: String, shown: String)] = []
        // (GDAL opens a zip through its virtual file system.)
        func gdalPath(_ path: String) -> String { ext == "zip" ? "/vsizip/" + path : path }
        for (index, (path, shown)) in GDALDifferentialTests.files.enumerated() {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size <= Self.largestFile else { continue }
            // Each output in a folder of its own: a shapefile's siblings (one file per kind).
            let folder = directory.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.appendingPathComponent("out." + ext).path
            var options = ConversionOptions()
            options.outputFormat = format
            options.jobs = 1
            do {
                _ = try Converter().convert(.file(path), to: .file(output), options: options)
            } catch {
                continue  // refused with a located error: nothing to read back
            }
            if FileManager.default.fileExists(atPath: output) { outputs.append((output, shown)) }
        }
        let readings = try GDALFileReading.read(outputs.map { gdalPath($0.path) })
        // The corpus check's rules first (what GDAL reads otherwise in the input, it reads
        // otherwise in the output), then those of outputs only.
        let corpusRules = try GDALDifferentialTests.rules()
        let rules = try GDALDifferentialTests.rules(Self.rulesFile)
        let documented = try String(
            contentsOfFile: Fixtures.root.appendingPathComponent("docs/differential.md").path,
            encoding: .utf8)
        for reason in Set(rules.map(\.reason)) {
            #expect(
                documented.contains("### `\(reason)`"),
                "\(Self.rulesFile) names \(reason), which docs/differential.md does not explain")
        }
        var used = Set<Int>()
        var compared = 0
        var equal = 0
        var features = 0
        for (output, shown) in outputs {
            guard let gdal = readings[gdalPath(output)] else {
                // (An output of no feature — an empty GeoJSON sequence, a CSV header alone —
                // is no file GDAL opens as data.)
                let empty = (try? OverlayDocument.load(.file(output)).features.isEmpty) ?? false
                if !empty { Issue.record("\(shown) → \(name): GDAL does not open geoconv's output") }
                continue
            }
            compared += 1
            features += gdal.layers.reduce(0) { $0 + $1.features.count }
            let found = GDALDifferentialTests.differences(output, gdal: gdal)
            if found.isEmpty { equal += 1 }
            for (key, count) in found.sorted(by: { $0.key < $1.key }) {
                if corpusRules.contains(where: { $0.names(key, driver: gdal.driver, in: shown) }) { continue }
                if let rule = rules.first(where: { $0.names(key, driver: gdal.driver, in: shown) }) {
                    used.insert(rule.line)
                } else {
                    let message =
                        "\(shown) → \(name): \(count)× \(key) (GDAL's \(gdal.driver) reading of the output)"
                        + ": a difference no rule of testdata/\(Self.rulesFile) names"
                    Issue.record(Comment(rawValue: message))
                }
            }
        }
        // (A rule is this writer's when its driver is the one GDAL reads the writer's output with.)
        for rule in rules where rule.driver == driver && !used.contains(rule.line) {
            Issue.record("\(Self.rulesFile):\(rule.line) (\(rule.reason)) matches no difference any more")
        }
        print("GDAL reads outputs, \(name): \(compared) outputs, \(features) GDAL features, \(equal) equal")
        #expect(compared > 100)
    }
}
